import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { newsletterSubscriptions } from "#server/db/schema/inbound";
import { createTestApp } from "#server/test/app";
import { readOutbox } from "#server/test/outbox";

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const subscribe = (email: string, remoteAddress = "127.0.0.1") =>
  t.app.inject({ method: "POST", url: "/api/newsletter", payload: { email }, remoteAddress });
const row = async (email: string) =>
  (await t.db.select().from(newsletterSubscriptions).where(eq(newsletterSubscriptions.email, email)))[0];
const linkIn = (body: string, kind: "confirm" | "unsubscribe") =>
  body.match(new RegExp(`http://127\\.0\\.0\\.1:3000(/api/newsletter/${kind}\\?token=[A-Za-z0-9_-]+)`))?.[1];

test("double opt-in: subscribing mails a confirmation link; the link confirms; unsubscribe ends it", async () => {
  const res = await subscribe("  Ada@Example.COM ");
  expect(res.json()).toEqual({ subscribed: true });
  expect((await row("ada@example.com"))?.confirmedAt).toBeNull();

  const mail = (await readOutbox(t.dataDir)).find((m) => m.to === "ada@example.com");
  expect(mail?.subject).toBe("Confirm your Stackbay newsletter subscription");
  const confirm = linkIn(mail!.body, "confirm");
  const unsubscribe = linkIn(mail!.body, "unsubscribe");
  expect(confirm && unsubscribe).toBeTruthy();
  // Only hashes are stored, never the tokens from the mail.
  expect(JSON.stringify(await row("ada@example.com"))).not.toContain(confirm!.split("token=")[1]);

  const confirmed = await t.app.inject({ method: "GET", url: confirm! });
  expect(confirmed.statusCode).toBe(303);
  expect(confirmed.headers.location).toBe("/?newsletter=confirmed");
  expect((await row("ada@example.com"))?.confirmedAt).toBeInstanceOf(Date);
  // A used link does not work twice.
  expect((await t.app.inject({ method: "GET", url: confirm! })).headers.location).toBe(
    "/?newsletter=invalid",
  );

  const left = await t.app.inject({ method: "GET", url: unsubscribe! });
  expect(left.headers.location).toBe("/?newsletter=unsubscribed");
  expect((await row("ada@example.com"))?.unsubscribedAt).toBeInstanceOf(Date);
});

test("subscribing twice keeps one row and answers the same; a confirmed address gets no new mail", async () => {
  await subscribe("twice@example.com");
  await subscribe("twice@example.com");
  expect(
    await t.db
      .select()
      .from(newsletterSubscriptions)
      .where(eq(newsletterSubscriptions.email, "twice@example.com")),
  ).toHaveLength(1);
  const mails = (await readOutbox(t.dataDir)).filter((m) => m.to === "twice@example.com");
  expect(mails).toHaveLength(2);
  await t.app.inject({ method: "GET", url: linkIn(mails[1]!.body, "confirm")! });
  const again = await subscribe("twice@example.com");
  expect(again.json()).toEqual({ subscribed: true });
  expect((await readOutbox(t.dataDir)).filter((m) => m.to === "twice@example.com")).toHaveLength(2);
});

test("a forged token is refused", async () => {
  const res = await t.app.inject({ method: "GET", url: `/api/newsletter/confirm?token=${"x".repeat(43)}` });
  expect(res.headers.location).toBe("/?newsletter=invalid");
  expect((await t.app.inject({ method: "GET", url: "/api/newsletter/confirm?token=short" })).statusCode).toBe(
    400,
  );
});

test("an empty or invalid address is refused with the form's message", async () => {
  const empty = await subscribe("");
  expect(empty.statusCode).toBe(400);
  expect(empty.json().details[0].message).toBe("Email is required");
  const bad = await subscribe("not-an-email");
  expect(bad.json().details[0].message).toBe("Please enter a valid email address");
});

test("the endpoint is rate limited", async () => {
  const statuses: number[] = [];
  let last: { json: () => unknown } | undefined;
  for (let i = 0; i < 12; i++) {
    const res = await subscribe(`flood${i}@example.com`, "10.9.9.9");
    statuses.push(res.statusCode);
    last = res;
  }
  expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
  expect(statuses.at(-1)).toBe(429);
  expect(last?.json()).toEqual({
    code: "RATE_LIMITED",
    message: expect.stringMatching(/^Too many requests\. Please wait \d+ seconds and try again\.$/),
  });
});
