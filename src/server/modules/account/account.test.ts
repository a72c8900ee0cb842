import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { user, verification } from "#server/db/schema/auth";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { createClient, createVerifiedAccount, latestCode, signedInClient } from "#server/test/client";
import { readOutbox } from "#server/test/outbox";
import { totp } from "#server/test/totp";

const logs: string[] = [];
let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp({ seed: true, logStream: { write: (line) => void logs.push(line) } });
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

/** Moves the clock that better-auth and our cooldowns read; the database is not involved. */
function advanceClock(seconds: number) {
  const now = Date.now();
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(now + seconds * 1000);
}

let n = 0;
const newEmail = (name = "user") => `${name}.${++n}.${Date.now()}@example.com`;
const person = (email: string) => ({
  firstName: "Ada",
  lastName: "Lovelace",
  email,
  password: "analytical-engine",
  accountType: "buyer",
});
const userRow = async (email: string) => (await t.db.select().from(user).where(eq(user.email, email)))[0];
const mailsTo = async (email: string) => (await readOutbox(t.dataDir)).filter((m) => m.to === email);

describe("sign-up, verification and login", () => {
  test("the whole journey: sign up, code by e-mail, verify, log in, see yourself, sign out", async () => {
    const email = newEmail("ada");
    const client = createClient(t.app);

    const signUp = await client.post("/api/auth/sign-up", {
      ...person(email),
      email: `  ${email.toUpperCase()} `,
    });
    expect(signUp.statusCode).toBe(200);
    expect(signUp.json()).toEqual({ email });
    // No session yet: only the pending sign-in that lets this browser's code sign in (decision 0003).
    expect(signUp.cookies.map((c) => c.name)).toEqual(["stackbay_pending_sign_in"]);

    const [mail] = await mailsTo(email);
    expect(mail?.subject).toBe("Verify your email for Stackbay");
    expect(mail?.body).toContain("Hi Ada,");
    expect(mail?.body).toContain("expires in 10 minutes");
    const code = await latestCode(t.dataDir, email);

    const early = await client.post("/api/auth/sign-in", { email, password: "analytical-engine" });
    expect(early.statusCode).toBe(403);
    expect(early.json()).toEqual({
      code: "EMAIL_NOT_VERIFIED",
      message: "Please verify your email before logging in. Check your inbox for the verification code.",
    });

    const verified = await client.post("/api/auth/verify-email", { email, code });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ verified: true, user: { email } });
    // Verified in the browser that signed up: signed in (verify-sign-in.test.ts has the other paths).
    expect(verified.cookies.map((c) => c.name)).toContain("stackbay.session_token");

    const login = await client.post("/api/auth/sign-in", { email, password: "analytical-engine" });
    expect(login.statusCode).toBe(200);
    const session = login.cookies.find((c) => c.name === "stackbay.session_token");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
    expect(login.json().user).toMatchObject({
      email,
      firstName: "Ada",
      lastName: "Lovelace",
      emailVerified: true,
      roles: { isBuyer: true, isSeller: false, isReseller: false, isAdmin: false, isSuperAdmin: false },
      preferences: { currency: "USD", theme: null },
    });
    expect(login.headers["cache-control"]).toBe("private, no-store");

    const me = await client.get("/api/me");
    expect(me.json().user.email).toBe(email);
    expect(JSON.stringify(me.json())).not.toMatch(/password|token|secret/i);

    const stolenCookie = client.cookieHeader();
    const out = await client.post("/api/auth/sign-out");
    expect(out.statusCode).toBe(204);
    expect((await client.get("/api/me")).json()).toEqual({ user: null });
    // The old cookie is dead on the server too, not just forgotten by the browser.
    const replay = await t.app.inject({ method: "GET", url: "/api/me", headers: { cookie: stolenCookie } });
    expect(replay.json()).toEqual({ user: null });
  });

  test("a seller account is a seller; no one can make themselves admin, reseller or verified", async () => {
    const email = newEmail("mallory");
    const res = await createClient(t.app).post("/api/auth/sign-up", {
      ...person(email),
      accountType: "seller",
      isAdmin: true,
      isSuperAdmin: true,
      isReseller: true,
      emailVerified: true,
      role: "admin",
      banned: false,
    });
    expect(res.statusCode).toBe(200);
    expect(await userRow(email)).toMatchObject({
      isSeller: true,
      isBuyer: false,
      isAdmin: false,
      isSuperAdmin: false,
      isReseller: false,
      emailVerified: false,
    });
  });

  test("validation follows the spec's order and texts, on the server", async () => {
    const client = createClient(t.app);
    const first = async (body: object) => {
      const res = await client.post("/api/auth/sign-up", body);
      expect(res.statusCode).toBe(400);
      return res.json().details[0].message;
    };
    const ok = person("valid@example.com");
    expect(await first({})).toBe("First name is required");
    expect(await first({ ...ok, firstName: "   " })).toBe("First name is required");
    expect(await first({ ...ok, lastName: "" })).toBe("Last name is required");
    expect(await first({ ...ok, email: " " })).toBe("Email is required");
    expect(await first({ ...ok, email: "not-an-address" })).toBe("Please enter a valid email address");
    expect(await first({ ...ok, password: "" })).toBe("Password is required");
    expect(await first({ ...ok, password: "12345" })).toBe("Password must be at least 6 characters long");
    expect(await first({ ...ok, accountType: "admin" })).toBe("Please choose buyer or seller");
  });

  test("signing up with a verified address reveals nothing and changes nothing", async () => {
    const { email, password } = await createVerifiedAccount(t.app, t.dataDir, { email: newEmail("owner") });
    advanceClock(61); // past the minute of the sign-up code, which the notice shares
    const before = (await mailsTo(email)).length;
    const res = await createClient(t.app).post("/api/auth/sign-up", {
      ...person(email),
      password: "attacker-pw",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ email });
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(before + 1);
    expect(mails.at(-1)?.subject).toBe("You already have a Stackbay account");
    expect(mails.at(-1)?.body).not.toMatch(/\b\d{6}\b/);
    expect(
      (await createClient(t.app).post("/api/auth/sign-in", { email, password: "attacker-pw" })).statusCode,
    ).toBe(401);
    expect((await createClient(t.app).post("/api/auth/sign-in", { email, password })).statusCode).toBe(200);
  });

  test("wrong credentials do not say whether the address exists", async () => {
    const client = createClient(t.app);
    const unknown = await client.post("/api/auth/sign-in", {
      email: "nobody@example.com",
      password: "whatever",
    });
    const wrong = await client.post("/api/auth/sign-in", {
      email: "buyer@stackbay.test",
      password: "wrong-password",
    });
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.json()).toEqual({ code: "INVALID_CREDENTIALS", message: "Invalid email or password." });
  });
});

describe("verification codes", () => {
  async function signUp(email: string) {
    const client = createClient(t.app);
    expect((await client.post("/api/auth/sign-up", person(email))).statusCode).toBe(200);
    return client;
  }

  test("a wrong code is refused and the right one still works", async () => {
    const email = newEmail();
    const client = await signUp(email);
    const code = await latestCode(t.dataDir, email);
    const wrong = code === "000000" ? "111111" : "000000";
    const res = await client.post("/api/auth/verify-email", { email, code: wrong });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: "INVALID_CODE",
      message: "The verification code is incorrect or has expired.",
    });
    expect((await client.post("/api/auth/verify-email", { email, code })).statusCode).toBe(200);
  });

  test("codes are stored encrypted, never as the digits", async () => {
    const email = newEmail();
    await signUp(email);
    const code = await latestCode(t.dataDir, email);
    const rows = await t.db.select().from(verification);
    const mine = rows.filter((r) => r.identifier.includes(email));
    expect(mine).toHaveLength(1);
    expect(mine[0]?.value).not.toContain(code);
  });

  test("a code expires after 10 minutes", async () => {
    const email = newEmail();
    const client = await signUp(email);
    const code = await latestCode(t.dataDir, email);
    advanceClock(601);
    const res = await client.post("/api/auth/verify-email", { email, code });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe("CODE_EXPIRED");
  });

  test("a code works once", async () => {
    const email = newEmail();
    const client = await signUp(email);
    const code = await latestCode(t.dataDir, email);
    expect((await client.post("/api/auth/verify-email", { email, code })).statusCode).toBe(200);
    const again = await client.post("/api/auth/verify-email", { email, code });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      code: "INVALID_CODE",
      message: "The verification code is incorrect or has expired.",
    });
  });

  test("resending waits 60 seconds, then sends a code that voids the old one", async () => {
    const email = newEmail();
    const client = await signUp(email);
    const first = await latestCode(t.dataDir, email);

    const tooSoon = await client.post("/api/auth/verification-code", { email });
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.json()).toMatchObject({ code: "CODE_COOLDOWN", details: { retryAfterSeconds: 60 } });
    expect(tooSoon.json().message).toBe("You can resend the code in 60 seconds.");

    advanceClock(45);
    expect(
      (await client.post("/api/auth/verification-code", { email })).json().details.retryAfterSeconds,
    ).toBe(15);

    advanceClock(61);
    const resent = await client.post("/api/auth/verification-code", { email });
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toEqual({ sent: true, expiresInSeconds: 600, cooldownSeconds: 60 });
    const second = await latestCode(t.dataDir, email);
    expect((await mailsTo(email)).length).toBe(2);

    if (first !== second) {
      const old = await client.post("/api/auth/verify-email", { email, code: first });
      expect(old.json().code).toBe("INVALID_CODE");
    }
    expect((await client.post("/api/auth/verify-email", { email, code: second })).statusCode).toBe(200);
  });

  test("after five wrong guesses the code is void and a new one is needed", async () => {
    const email = newEmail();
    const client = await signUp(email);
    const code = await latestCode(t.dataDir, email);
    const wrong = code === "999999" ? "888888" : "999999";
    for (let i = 0; i < 5; i++) {
      expect((await client.post("/api/auth/verify-email", { email, code: wrong })).json().code).toBe(
        "INVALID_CODE",
      );
    }
    const blocked = await client.post("/api/auth/verify-email", { email, code });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({
      code: "TOO_MANY_ATTEMPTS",
      message: "Too many incorrect attempts. Please request a new code.",
    });
    expect((await client.post("/api/auth/verify-email", { email, code })).json().code).toBe("INVALID_CODE");

    advanceClock(61);
    expect((await client.post("/api/auth/verification-code", { email })).statusCode).toBe(200);
    const fresh = await latestCode(t.dataDir, email);
    expect((await client.post("/api/auth/verify-email", { email, code: fresh })).statusCode).toBe(200);
  });

  test("a verified address gets the same answer and, instead of a code, a note to just log in", async () => {
    const res = await createClient(t.app).post("/api/auth/verification-code", {
      email: "buyer@stackbay.test",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ sent: true, expiresInSeconds: 600, cooldownSeconds: 60 });
    const mail = (await mailsTo("buyer@stackbay.test")).at(-1);
    expect(mail?.subject).toBe("Your Stackbay email is already verified");
    expect(mail?.body).not.toMatch(/\b\d{6}\b/);
  });

  test("an unknown address gets the same answer and a mail without a code", async () => {
    const email = newEmail("ghost");
    const res = await createClient(t.app).post("/api/auth/verification-code", { email });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ sent: true, expiresInSeconds: 600, cooldownSeconds: 60 });
    const mails = await mailsTo(email);
    expect(mails.map((m) => m.subject)).toEqual(["About your Stackbay verification code"]);
    expect(mails[0]?.body).not.toMatch(/\b\d{6}\b/);
  });

  test("a mail server that fails does not fail the sign-up: the code arrives on a later attempt", async () => {
    let failing = true;
    const delivered: string[] = [];
    const failingApp = await createTestApp({
      env: { MAIL_RETRY_SECONDS: "1" },
      mailTransport: {
        send: async (mail) => {
          if (failing) throw new Error("SMTP down");
          delivered.push(mail.to);
        },
      },
    });
    try {
      const client = createClient(failingApp.app);
      const email = newEmail();
      const res = await client.post("/api/auth/sign-up", person(email));
      expect(res.statusCode).toBe(200);
      expect(delivered).toEqual([]);
      failing = false;
      await vi.waitFor(() => expect(delivered).toEqual([email]), { timeout: 10_000, interval: 100 });
    } finally {
      await failingApp.close();
    }
  });
});

describe("passwords", () => {
  test("changing the password ends the other sessions and keeps this one", async () => {
    const { email, password } = await createVerifiedAccount(t.app, t.dataDir, { email: newEmail("pw") });
    const here = await signedInClient(t.app, email, password);
    const elsewhere = await signedInClient(t.app, email, password);

    const wrong = await here.post("/api/me/password", {
      currentPassword: "not-it",
      newPassword: "brand-new-pw",
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({
      code: "INVALID_PASSWORD",
      message: "Your current password is incorrect.",
    });

    const ok = await here.post("/api/me/password", {
      currentPassword: password,
      newPassword: "brand-new-pw",
    });
    expect(ok.statusCode).toBe(204);
    expect((await here.get("/api/me")).json().user.email).toBe(email);
    expect((await elsewhere.get("/api/me")).json()).toEqual({ user: null });
    expect((await createClient(t.app).post("/api/auth/sign-in", { email, password })).statusCode).toBe(401);
    expect((await signedInClient(t.app, email, "brand-new-pw")).jar.size).toBeGreaterThan(0);
    expect((await mailsTo(email)).at(-1)?.subject).toBe("Your Stackbay password was changed");
  });

  test("forgot password: a code by e-mail, a new password, every session ended, the code single-use", async () => {
    const { email, password } = await createVerifiedAccount(t.app, t.dataDir, { email: newEmail("forgot") });
    const session = await signedInClient(t.app, email, password);
    const client = createClient(t.app);

    const asked = await client.post("/api/auth/password/forgot", { email });
    expect(asked.statusCode).toBe(200);
    const mail = (await mailsTo(email)).at(-1);
    expect(mail?.subject).toBe("Your Stackbay password reset code");
    const code = await latestCode(t.dataDir, email);

    const reset = await client.post("/api/auth/password/reset", { email, code, password: "after-reset-pw" });
    expect(reset.statusCode).toBe(200);
    expect((await session.get("/api/me")).json()).toEqual({ user: null });
    expect(
      (await createClient(t.app).post("/api/auth/sign-in", { email, password: "after-reset-pw" })).statusCode,
    ).toBe(200);

    const reused = await client.post("/api/auth/password/reset", { email, code, password: "third-password" });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().code).toBe("INVALID_CODE");
  });

  test("forgot password answers the same for an unknown address and mails no code", async () => {
    const email = newEmail("nobody");
    const res = await createClient(t.app).post("/api/auth/password/forgot", { email });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ sent: true, expiresInSeconds: 600, cooldownSeconds: 60 });
    const mails = await mailsTo(email);
    expect(mails.map((m) => m.subject)).toEqual(["About your Stackbay password reset"]);
    expect(mails[0]?.body).not.toMatch(/\b\d{6}\b/);
  });
});

describe("profile and preferences", () => {
  test("a user edits their own profile; the e-mail address and roles stay", async () => {
    const client = await signedInClient(t.app, "reseller@stackbay.test", DEMO_PASSWORD);
    const res = await client.patch("/api/me", {
      firstName: " Rhea ",
      lastName: "Reseller-Singh",
      phone: "+91 98 7654 3210",
      address: "12 MG Road",
      city: "Bengaluru",
      country: "",
      email: "takeover@example.com",
      isAdmin: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({
      email: "reseller@stackbay.test",
      firstName: "Rhea",
      lastName: "Reseller-Singh",
      phone: "+91 98 7654 3210",
      city: "Bengaluru",
      country: null,
      roles: { isAdmin: false, isReseller: true },
    });
  });

  test("preferences are merged, validated and come back on the next load", async () => {
    const client = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
    expect((await client.patch("/api/me/preferences", { currency: "EUR" })).statusCode).toBe(200);
    const res = await client.patch("/api/me/preferences", {
      theme: "dark",
      notifications: { emailNotifications: false, orderUpdates: true, marketingEmails: true },
    });
    expect(res.json().user.preferences).toEqual({
      currency: "EUR",
      theme: "dark",
      notifications: { emailNotifications: false, orderUpdates: true, marketingEmails: true },
    });
    // "system" follows the device's light or dark setting; it is stored like the others.
    const system = await client.patch("/api/me/preferences", { theme: "system" });
    expect(system.statusCode).toBe(200);
    expect(system.json().user.preferences.theme).toBe("system");
    expect((await client.patch("/api/me/preferences", { theme: "sepia" })).json().details[0].message).toBe(
      "Theme must be light, dark or system",
    );
    const bad = await client.patch("/api/me/preferences", { currency: "BTC" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].message).toBe("The selected currency is not supported.");
    const other = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
    expect((await other.get("/api/me")).json().user.preferences).toMatchObject({
      currency: "EUR",
      theme: "system",
    });
  });
});

describe("two-factor authentication", () => {
  test("on with the app's code, then asked at login; backup codes work once; off with the password", async () => {
    const { email, password } = await createVerifiedAccount(t.app, t.dataDir, { email: newEmail("tfa") });
    const client = await signedInClient(t.app, email, password);

    expect((await client.post("/api/me/two-factor/enable", { password: "wrong" })).json().code).toBe(
      "INVALID_PASSWORD",
    );
    const setup = await client.post("/api/me/two-factor/enable", { password });
    expect(setup.statusCode).toBe(200);
    const { secret, backupCodes, qrCodeSvg, totpURI } = setup.json();
    expect(totpURI).toMatch(/^otpauth:\/\/totp\/Stackbay:/);
    expect(qrCodeSvg).toMatch(/^<svg/);
    expect(backupCodes).toHaveLength(10);
    // Not on until the app proves it has the secret.
    expect((await client.get("/api/me")).json().user.twoFactorEnabled).toBe(false);
    expect((await client.post("/api/me/two-factor/confirm", { code: "000000" })).statusCode).toBe(400);
    const confirmed = await client.post("/api/me/two-factor/confirm", { code: totp(secret) });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().user.twoFactorEnabled).toBe(true);

    const login = createClient(t.app);
    const first = await login.post("/api/auth/sign-in", { email, password });
    expect(first.json()).toEqual({ twoFactorRequired: true });
    expect((await login.get("/api/me")).json()).toEqual({ user: null });
    const bad = await login.post("/api/auth/two-factor", {
      code: "123456" === totp(secret) ? "654321" : "123456",
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe("INVALID_TWO_FACTOR_CODE");
    const good = await login.post("/api/auth/two-factor", { code: totp(secret) });
    expect(good.statusCode).toBe(200);
    expect((await login.get("/api/me")).json().user.email).toBe(email);

    const backup = createClient(t.app);
    await backup.post("/api/auth/sign-in", { email, password });
    expect((await backup.post("/api/auth/two-factor", { code: backupCodes[0] })).statusCode).toBe(200);
    const again = createClient(t.app);
    await again.post("/api/auth/sign-in", { email, password });
    expect((await again.post("/api/auth/two-factor", { code: backupCodes[0] })).statusCode).toBe(400);

    const off = await client.post("/api/me/two-factor/disable", { password });
    expect(off.statusCode).toBe(200);
    expect(off.json().user.twoFactorEnabled).toBe(false);
    expect((await createClient(t.app).post("/api/auth/sign-in", { email, password })).json().user.email).toBe(
      email,
    );
  });

  test("the second step without a first one is refused", async () => {
    const res = await createClient(t.app).post("/api/auth/two-factor", { code: "123456" });
    expect(res.statusCode).toBe(401);
  });
});

describe("abuse", () => {
  test("sign-in is rate-limited per address with a clear 429", async () => {
    // A different address each time: the per-account limit (account-security.test.ts) stays out of it.
    const client = createClient(t.app, "10.250.0.1");
    const guess = (i: number) => ({ email: `guess-${i}@example.com`, password: `guess-${i}` });
    let last = await client.post("/api/auth/sign-in", guess(0));
    for (let i = 1; i <= 30 && last.statusCode !== 429; i++) {
      last = await client.post("/api/auth/sign-in", guess(i));
    }
    expect(last.statusCode).toBe(429);
    expect(last.json().code).toBe("RATE_LIMITED");
    expect(last.json().message).toMatch(/^Too many requests\. Please wait \d+ seconds and try again\.$/);
  });

  test.each([
    ["/api/auth/sign-up", 10],
    ["/api/auth/verification-code", 10],
    ["/api/auth/verify-email", 30],
  ])("%s answers 429 after %i requests from one address", async (url, max) => {
    const client = createClient(t.app, `10.251.0.${max + url.length}`);
    const statuses: number[] = [];
    for (let i = 0; i <= max; i++) statuses.push((await client.post(url, {})).statusCode);
    expect(statuses.slice(0, max)).not.toContain(429);
    expect(statuses.at(-1)).toBe(429);
  });

  test("a cross-site write is refused before it is read", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/sign-in",
      headers: { origin: "https://evil.example", cookie: "" },
      payload: { email: "buyer@stackbay.test", password: DEMO_PASSWORD },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe("FORBIDDEN_ORIGIN");
  });

  test("no code, password or session token is ever written to the logs", async () => {
    const email = newEmail("quiet");
    const { password } = await createVerifiedAccount(t.app, t.dataDir, {
      email,
      password: "s3cret-pass-phrase",
    });
    const client = await signedInClient(t.app, email, password);
    const codes = (await readOutbox(t.dataDir)).flatMap((m) => m.body.match(/\b\d{6}\b/g) ?? []);
    const token = client.jar.get("stackbay.session_token")?.split(".")[0];
    const all = logs.join("\n");
    expect(all.length).toBeGreaterThan(0);
    expect(all).not.toContain("s3cret-pass-phrase");
    expect(all).not.toContain(DEMO_PASSWORD);
    expect(token && all.includes(token)).toBeFalsy();
    for (const code of codes) expect(all).not.toMatch(new RegExp(`\\b${code}\\b`));
  });
});
