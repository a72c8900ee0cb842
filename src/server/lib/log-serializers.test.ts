import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { redactUrl, serializeError } from "#server/lib/log-serializers";
import { createTestApp } from "#server/test/app";
import { readOutbox } from "#server/test/outbox";

const lines: string[] = [];
let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp({ seed: true, logStream: { write: (line) => void lines.push(line) } });
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

  test("a sign-in, signed-in requests, failing requests and an error log leave no personal data or secret", async () => {
    lines.length = 0;
    const email = "buyer@stackbay.test";
    const remoteAddress = "198.51.100.23";
    const bearer = "Bearer not-the-metrics-token-but-a-secret-one";
    const signIn = await t.app.inject({
      method: "POST",
      url: "/api/auth/sign-in",
      payload: { email, password: DEMO_PASSWORD },
      remoteAddress,
      headers: { "user-agent": "Mozilla/5.0 (Ada's laptop)" },
    });
    expect(signIn.statusCode).toBe(200);
    const session = signIn.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    const sessionValues = signIn.cookies.map((c) => c.value).filter((v) => v.length > 8);
    expect(sessionValues.length).toBeGreaterThan(0);
    const me = await t.app.inject({
      method: "GET",
      url: "/api/me",
      headers: { cookie: session },
      remoteAddress,
    });
    expect(me.statusCode).toBe(200);
    // Failing: a wrong password, a token sent where none is valid, and a server error whose message
    // carries bound parameters.
    const wrong = await t.app.inject({
      method: "POST",
      url: "/api/auth/sign-in",
      payload: { email, password: "not-the-password-at-all" },
      remoteAddress,
    });
    expect(wrong.statusCode).toBe(401);
    const refused = await t.app.inject({
      method: "GET",
      url: "/api/orders",
      headers: { authorization: bearer },
      remoteAddress,
    });
    expect(refused.statusCode).toBe(401);
    const original = t.app.database.ping;
    t.app.database.ping = async () => {
      throw new Error(`Failed query: select 1 where email = $1\nparams: ${email}`);
    };
    try {
      const down = await t.app.inject({ method: "GET", url: "/api/health/ready", remoteAddress });
      expect(down.statusCode).toBe(503);
    } finally {
      t.app.database.ping = original;
    }

    // A contact message: its e-mail's subject names the sender.
    const contact = await t.app.inject({
      method: "POST",
      url: "/api/contact",
      payload: {
        name: "Ada Privateperson",
        email: "ada.private@example.com",
        subject: "general",
        message: "Please call me back about an order.",
      },
      remoteAddress,
    });
    expect(contact.statusCode).toBe(200);

    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.some((e) => e.msg === "mail written to the outbox")).toBe(true);
    // The requests were logged, with their outcome, and the error with its (redacted) message.
    expect(entries.some((e) => (e.res as { statusCode?: number } | undefined)?.statusCode === 401)).toBe(
      true,
    );
    const failed = entries.find((e) => e.msg === "readiness: database unreachable");
    expect(JSON.stringify(failed?.err)).toContain("params: [redacted]");
    for (const entry of entries) {
      if (entry.req) expect(Object.keys(entry.req as object).sort()).toEqual(["method", "url"]);
    }
    const log = lines.join("");
    for (const secret of [
      email,
      "buyer@",
      DEMO_PASSWORD,
      "not-the-password-at-all",
      remoteAddress,
      "Ada's laptop",
      "not-the-metrics-token",
      "Privateperson",
      "ada.private",
      ...sessionValues,
    ]) {
      expect(log).not.toContain(secret);
    }
    expect(log).not.toMatch(/"(cookie|authorization|set-cookie|remoteAddress|ip|ips|user-agent)":/i);
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

  test("an SMTP server's refusal loses the recipient's address wherever the error carries it", () => {
    // As nodemailer reports a rejected recipient.
    const error = Object.assign(
      new Error(
        "Can't send mail - all recipients were rejected: 550 5.1.1 <ada.l@example.co.uk>: Recipient unknown",
      ),
      {
        code: "EENVELOPE",
        response: "550 5.1.1 <ada.l@example.co.uk>: Recipient unknown",
        responseCode: 550,
        command: "RCPT TO",
        rejected: ["ada.l@example.co.uk"],
        envelope: { from: "no-reply@stackbay.test", to: ["ada.l@example.co.uk"] },
      },
    );
    const serialized = serializeError(error);
    expect(JSON.stringify(serialized)).not.toContain("ada.l@");
    expect(serialized).toMatchObject({
      code: "EENVELOPE",
      responseCode: 550,
      response: "550 5.1.1 <[e-mail]>: Recipient unknown",
      rejected: ["[e-mail]"],
    });
  });
});
