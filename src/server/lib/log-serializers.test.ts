import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { redactUrl, serializeError } from "#server/lib/log-serializers";
import { createTestApp } from "#server/test/app";
import { readOutbox } from "#server/test/outbox";

const lines: string[] = [];
let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp({ logStream: { write: (line) => void lines.push(line) } });
});
afterAll(() => t.close());

describe("logs hold no tokens, e-mails or client addresses", () => {
  test("newsletter links, a sign-up and a subscription leave none of their secrets in the log", async () => {
    const email = "private.person@example.com";
    const remoteAddress = "203.0.113.77";
    const subscribed = await t.app.inject({
      method: "POST",
      url: "/api/newsletter",
      payload: { email },
      remoteAddress,
    });
    expect(subscribed.statusCode).toBe(200);
    const body = (await readOutbox(t.dataDir)).find((m) => m.to === email)?.body ?? "";
    // The text and the HTML part both carry the two links.
    const found = body.matchAll(/(\/api\/newsletter\/(?:confirm|unsubscribe)\?token=([A-Za-z0-9_-]+))/g);
    const links = [...new Map([...found].map((m) => [m[1], m])).values()];
    expect(links).toHaveLength(2);
    for (const [, url] of links) {
      expect((await t.app.inject({ method: "GET", url, remoteAddress })).statusCode).toBe(303);
    }
    const signUp = await t.app.inject({
      method: "POST",
      url: "/api/auth/sign-up?email=private.person%40example.com",
      payload: {
        firstName: "Priv",
        lastName: "Person",
        email,
        password: "a long password",
        accountType: "buyer",
      },
      remoteAddress,
    });
    expect(signUp.statusCode).toBe(200);

    const log = lines.join("");
    expect(log).toContain("/api/newsletter/confirm?token=[redacted]");
    for (const [, , token] of links) expect(log).not.toContain(token);
    expect(log).not.toContain("private.person");
    expect(log).not.toContain(remoteAddress);
  });

  test("only paging, sorting and filters keep their values in a logged URL", () => {
    expect(redactUrl("/api/products?search=ada%40x.com&page=2&sort=newest&ref=abc")).toBe(
      "/api/products?search=[redacted]&page=2&sort=newest&ref=[redacted]",
    );
    expect(redactUrl("/api/products/1")).toBe("/api/products/1");
  });

  test("errors lose the bound parameters Drizzle and PostgreSQL put in them", () => {
    const error = Object.assign(
      new Error('Failed query: insert into "user" ("email") values ($1)\nparams: ada@example.com,secret'),
      { params: ["ada@example.com", "secret"], detail: "Key (email)=(ada@example.com) already exists." },
    );
    const serialized = JSON.stringify(serializeError(error));
    expect(serialized).toContain('Failed query: insert into \\"user\\"');
    expect(serialized).not.toContain("ada@example.com");
    expect(serialized).not.toContain("secret");
  });
});
