import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { user } from "#server/db/schema/auth";
import { createTestApp } from "#server/test/app";
import { createClient, latestCode } from "#server/test/client";

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

let n = 0;
const newEmail = () => `verify.${++n}.${Date.now()}@example.com`;
const password = "analytical-engine";

async function signUp(client: ReturnType<typeof createClient>, email: string) {
  const res = await client.post("/api/auth/sign-up", {
    firstName: "Ada",
    lastName: "Lovelace",
    email,
    password,
    accountType: "buyer",
  });
  expect(res.statusCode).toBe(200);
  return res;
}

const sessionCookie = (res: { cookies: { name: string }[] }) =>
  res.cookies.find((c) => c.name === "stackbay.session_token");

describe("signed in by the e-mail code in the browser that signed up", () => {
  test("same browser: the code verifies and opens a session like a sign-in", async () => {
    const email = newEmail();
    const client = createClient(t.app);
    const up = await signUp(client, email);
    const pending = up.cookies.find((c) => c.name === "stackbay_pending_sign_in");
    expect(pending).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/api/auth" });
    expect(pending?.value).not.toContain(email.split("@")[0]);

    const verified = await client.post("/api/auth/verify-email", {
      email,
      code: await latestCode(t.dataDir, email),
    });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ verified: true, user: { email, emailVerified: true } });
    expect(sessionCookie(verified)).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
    expect(client.jar.has("stackbay_pending_sign_in")).toBe(false);
    expect((await client.get("/api/me")).json().user).toMatchObject({ email });
  });

  test("another browser: verified, but no session; the person logs in", async () => {
    const email = newEmail();
    await signUp(createClient(t.app), email);
    const elsewhere = createClient(t.app);
    const verified = await elsewhere.post("/api/auth/verify-email", {
      email,
      code: await latestCode(t.dataDir, email),
    });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual({ verified: true, user: null });
    expect(sessionCookie(verified)).toBeUndefined();
    expect((await elsewhere.get("/api/me")).json()).toEqual({ user: null });
    expect((await elsewhere.post("/api/auth/sign-in", { email, password })).statusCode).toBe(200);
  });

  test("a wrong code, a replayed code and another address's pending cookie open no session", async () => {
    const email = newEmail();
    const client = createClient(t.app);
    await signUp(client, email);
    const pendingCookie = client.cookieHeader();
    const code = await latestCode(t.dataDir, email);

    const wrong = await client.post("/api/auth/verify-email", {
      email,
      code: code === "000000" ? "111111" : "000000",
    });
    expect(wrong.json().code).toBe("INVALID_CODE");
    expect(sessionCookie(wrong)).toBeUndefined();

    // Someone else's sign-up in this browser does not let a code for `email` sign in.
    const other = newEmail();
    const mixed = createClient(t.app);
    await signUp(mixed, other);
    await signUp(createClient(t.app), email); // the code already waiting is mailed again
    const crossed = await mixed.post("/api/auth/verify-email", { email, code });
    expect(crossed.json()).toEqual({ verified: true, user: null });
    expect(sessionCookie(crossed)).toBeUndefined();

    // The code is used up; the old pending cookie with it gets nothing.
    const replay = await t.app.inject({
      method: "POST",
      url: "/api/auth/verify-email",
      headers: { cookie: pendingCookie },
      payload: { email, code },
    });
    expect(replay.json().code).toBe("INVALID_CODE");
    expect(sessionCookie(replay)).toBeUndefined();
  });

  test("a pending cookie older than 30 minutes no longer signs in", async () => {
    const email = newEmail();
    const client = createClient(t.app);
    await signUp(client, email);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 31 * 60 * 1000);
    expect((await client.post("/api/auth/verification-code", { email })).statusCode).toBe(200);
    const verified = await client.post("/api/auth/verify-email", {
      email,
      code: await latestCode(t.dataDir, email),
    });
    expect(verified.json()).toEqual({ verified: true, user: null });
    expect(sessionCookie(verified)).toBeUndefined();
  });

  test("an account with two-factor never skips it", async () => {
    const email = newEmail();
    const client = createClient(t.app);
    await signUp(client, email);
    await t.db.update(user).set({ twoFactorEnabled: true }).where(eq(user.email, email));
    const verified = await client.post("/api/auth/verify-email", {
      email,
      code: await latestCode(t.dataDir, email),
    });
    expect(verified.json()).toEqual({ verified: true, user: null });
    expect(sessionCookie(verified)).toBeUndefined();
  });
});
