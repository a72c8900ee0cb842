import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { newsletterSubscriptions } from "#server/db/schema/inbound";
import { createTestApp } from "#server/test/app";

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

test("subscribing stores the address once, normalised, and answers the same the second time", async () => {
  for (const email of ["  Ada@Example.COM ", "ada@example.com"]) {
    const res = await t.app.inject({ method: "POST", url: "/api/newsletter", payload: { email } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ subscribed: true });
  }
  const rows = await t.db
    .select()
    .from(newsletterSubscriptions)
    .where(eq(newsletterSubscriptions.email, "ada@example.com"));
  expect(rows).toHaveLength(1);
});

test("an empty or invalid address is refused with the form's message", async () => {
  const empty = await t.app.inject({ method: "POST", url: "/api/newsletter", payload: { email: "" } });
  expect(empty.statusCode).toBe(400);
  expect(empty.json().details[0].message).toBe("Email is required");
  const missing = await t.app.inject({ method: "POST", url: "/api/newsletter", payload: {} });
  expect(missing.statusCode).toBe(400);
});

test("the endpoint is rate limited", async () => {
  const statuses: number[] = [];
  let last: { statusCode: number; json: () => unknown } | undefined;
  for (let i = 0; i < 12; i++) {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/newsletter",
      payload: { email: `flood${i}@example.com` },
      remoteAddress: "10.9.9.9",
    });
    statuses.push(res.statusCode);
    last = res;
  }
  expect(statuses.slice(0, 8).every((s) => s === 200)).toBe(true);
  expect(statuses.at(-1)).toBe(429);
  expect(last?.json()).toEqual({
    code: "RATE_LIMITED",
    message: expect.stringMatching(/^Too many requests\. Please wait \d+ seconds and try again\.$/),
  });
});
