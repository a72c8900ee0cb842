import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { signInFailures, user } from "#server/db/schema/auth";
import { signInKey } from "#server/modules/account/service";
import { createTestApp } from "#server/test/app";
import { createClient, createVerifiedAccount, latestCode } from "#server/test/client";
import { readOutbox } from "#server/test/outbox";

/** Findings of the security review: account takeover before verification, enumeration, guessing. */
let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

/** Moves the clock that better-auth, the cooldowns and the sign-in limit read. */
function advanceClock(seconds: number) {
  const now = Date.now();
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(now + seconds * 1000);
}

let n = 0;
const newEmail = (name: string) => `${name}.${++n}.${Date.now()}@example.com`;
const mailsTo = async (email: string) => (await readOutbox(t.dataDir)).filter((m) => m.to === email);
const userRow = async (email: string) => (await t.db.select().from(user).where(eq(user.email, email)))[0];
type Answer = {
  status: number;
  body: { code?: string; message?: string; details?: { retryAfterSeconds?: number | null } };
};
const answer = (res: { statusCode: number; json(): unknown }): Answer => ({
  status: res.statusCode,
  body: res.json() as Answer["body"],
});
const signIn = (email: string, password: string) =>
  createClient(t.app).post("/api/auth/sign-in", { email, password });

describe("a second sign-up on an unverified address", () => {
  const victim = (email: string) => ({
    firstName: "Ada",
    lastName: "Lovelace",
    email,
    password: "victims-own-password",
    accountType: "buyer",
  });
  const attacker = (email: string) => ({
    firstName: "Mallory",
    lastName: "Evil",
    email,
    password: "attackers-password",
    accountType: "seller",
  });

  /** The victim signs up, then the attacker signs up twice on the same address, a minute apart. */
  async function takeoverAttempt() {
    const email = newEmail("victim");
    const answers = [answer(await createClient(t.app).post("/api/auth/sign-up", victim(email)))];
    const firstCode = await latestCode(t.dataDir, email);
    for (let i = 0; i < 2; i++) {
      advanceClock(61);
      answers.push(answer(await createClient(t.app).post("/api/auth/sign-up", attacker(email))));
    }
    return { email, answers, firstCode };
  }

  async function expectUntouched(email: string) {
    expect((await signIn(email, "attackers-password")).statusCode).toBe(401);
    const login = await signIn(email, "victims-own-password");
    expect(login.statusCode).toBe(200);
    expect(login.json().user).toMatchObject({
      firstName: "Ada",
      lastName: "Lovelace",
      roles: { isBuyer: true, isSeller: false },
    });
  }

  test("answers like a first sign-up and changes nothing; the first code verifies the first account", async () => {
    const { email, answers, firstCode } = await takeoverAttempt();
    expect(answers).toEqual([
      { status: 200, body: { email } },
      { status: 200, body: { email } },
      { status: 200, body: { email } },
    ]);
    expect(await userRow(email)).toMatchObject({ firstName: "Ada", isBuyer: true, isSeller: false });
    const verified = await createClient(t.app).post("/api/auth/verify-email", { email, code: firstCode });
    expect(verified.statusCode).toBe(200);
    await expectUntouched(email);
  });

  test("the newest mail re-sends the code still waiting, says how to recover a forgotten password, and verifies the first account", async () => {
    const { email, firstCode } = await takeoverAttempt();
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(3);
    const newest = mails.at(-1);
    expect(newest?.body).toContain("Hi Ada,");
    expect(newest?.body).not.toContain("Mallory");
    expect(newest?.body).toContain("Forgot password?");
    const newestCode = await latestCode(t.dataDir, email);
    expect(newestCode).toBe(firstCode);
    expect(
      (await createClient(t.app).post("/api/auth/verify-email", { email, code: newestCode })).statusCode,
    ).toBe(200);
    await expectUntouched(email);
  });

  test("once the waiting code has expired, the new code still verifies the first account", async () => {
    const email = newEmail("late");
    await createClient(t.app).post("/api/auth/sign-up", victim(email));
    advanceClock(601);
    const again = await createClient(t.app).post("/api/auth/sign-up", attacker(email));
    expect(answer(again)).toEqual({ status: 200, body: { email } });
    const code = await latestCode(t.dataDir, email);
    expect((await createClient(t.app).post("/api/auth/verify-email", { email, code })).statusCode).toBe(200);
    await expectUntouched(email);
  });
});

describe("answers do not tell which addresses have accounts", () => {
  /** An unknown, an unverified and a verified address, none of them within a code's minute. */
  async function threeAddresses() {
    const unknown = newEmail("unknown");
    const unverified = newEmail("pending");
    await createClient(t.app).post("/api/auth/sign-up", {
      firstName: "Pat",
      lastName: "Pending",
      email: unverified,
      password: "pending-password",
      accountType: "buyer",
    });
    const { email: verified } = await createVerifiedAccount(t.app, t.dataDir, { email: newEmail("known") });
    advanceClock(61);
    return [unknown, unverified, verified];
  }

  test.each(["/api/auth/verification-code", "/api/auth/password/forgot"])(
    "%s answers the same for unknown, unverified and verified addresses",
    async (url) => {
      const answers = [];
      for (const email of await threeAddresses()) {
        answers.push(answer(await createClient(t.app).post(url, { email })));
      }
      expect(answers).toEqual(Array(3).fill({ status: 200, body: answers[0]?.body }));
      expect(answers[0]?.body).toEqual({ sent: true, expiresInSeconds: 600, cooldownSeconds: 60 });
    },
  );

  test("verify-email answers any code for an unknown or verified address as a wrong code for an unverified one", async () => {
    const [unknown, unverified, verified] = await threeAddresses();
    const waiting = await latestCode(t.dataDir, unverified as string);
    const wrong = waiting === "123456" ? "654321" : "123456";
    const answers = [];
    for (const email of [unknown, unverified, verified]) {
      answers.push(answer(await createClient(t.app).post("/api/auth/verify-email", { email, code: wrong })));
    }
    expect(answers).toEqual(
      Array(3).fill({
        status: 400,
        body: { code: "INVALID_CODE", message: "The verification code is incorrect or has expired." },
      }),
    );
  });
});

describe("password guessing per account", () => {
  /**
   * Wrong passwords for `email`, each from a new client address, waiting out each delay but the last;
   * returns every answer (refusals included) so a known and an unknown address compare step by step.
   */
  async function guess(email: string, failures: number) {
    const answers: Answer[] = [];
    for (let i = 1; i <= failures; i++) {
      const res = await signIn(email, `wrong-${i}`);
      answers.push(answer(res));
      if (i >= 5) {
        // Too early: refused without looking at the password, with when to come back.
        const early = await signIn(email, `wrong-${i}-early`);
        answers.push(answer(early));
        if (i < failures) advanceClock(early.json().details?.retryAfterSeconds ?? 0);
      }
    }
    return answers;
  }

  test("failures from many addresses delay, then lock the account; the owner is told once; waiting unlocks it", async () => {
    const { email, password } = await createVerifiedAccount(t.app, t.dataDir, { email: newEmail("guessed") });
    const mailsBefore = (await mailsTo(email)).length;
    const answers = await guess(email, 20);
    expect(answers.slice(0, 5)).toEqual(
      Array(5).fill({
        status: 401,
        body: { code: "INVALID_CREDENTIALS", message: "Invalid email or password." },
      }),
    );
    expect(answers[5]).toEqual({
      status: 429,
      body: {
        code: "TOO_MANY_SIGN_IN_ATTEMPTS",
        message:
          "Too many failed attempts to log in with this email. Please try again in 5 seconds, or reset your password.",
        details: { retryAfterSeconds: 5 },
      },
    });
    // The delays grow: 5 s, 10 s, 20 s ... up to 5 minutes.
    const waits = answers.filter((a) => a.status === 429).map((a) => a.body.details?.retryAfterSeconds);
    expect(waits).toEqual([5, 10, 20, 40, 80, 160, 300, 300, 300, 300, 300, 300, 300, 300, 300, 900]);
    expect(answers.at(-1)?.body.message).toBe(
      "Too many failed attempts to log in with this email. Please try again in 15 minutes, or reset your password.",
    );

    // Locked: the right password is refused too, without being checked.
    advanceClock(14 * 60);
    const locked = await signIn(email, password);
    expect(locked.statusCode).toBe(429);
    expect(locked.headers["retry-after"]).toBe("60");

    await vi.waitFor(async () => expect((await mailsTo(email)).length).toBe(mailsBefore + 1));
    const notice = (await mailsTo(email)).at(-1);
    expect(notice?.subject).toBe("Sign-in to your Stackbay account is paused");
    expect(notice?.body).toContain("paused for 15 minutes");

    advanceClock(61);
    expect((await signIn(email, password)).statusCode).toBe(200);
    // A success starts the count again: the next wrong password is just wrong.
    expect((await signIn(email, "wrong-again")).statusCode).toBe(401);
    expect((await signIn(email, password)).statusCode).toBe(200);
    expect((await mailsTo(email)).length).toBe(mailsBefore + 1);
  });

  test("an unknown address is delayed and locked exactly like an account", async () => {
    const { email } = await createVerifiedAccount(t.app, t.dataDir, { email: newEmail("real") });
    const known = await guess(email, 21);
    const unknown = await guess(newEmail("ghost"), 21);
    expect(unknown).toEqual(known);
    expect(known.at(-1)?.status).toBe(429);
  });

  test("a password reset ends the lock at once", async () => {
    const { email } = await createVerifiedAccount(t.app, t.dataDir, { email: newEmail("reset") });
    await guess(email, 20);
    expect((await signIn(email, "still-guessing")).statusCode).toBe(429);
    expect((await createClient(t.app).post("/api/auth/password/forgot", { email })).statusCode).toBe(200);
    const code = await latestCode(t.dataDir, email);
    const reset = await createClient(t.app).post("/api/auth/password/reset", {
      email,
      code,
      password: "a-brand-new-password",
    });
    expect(reset.statusCode).toBe(200);
    expect((await signIn(email, "a-brand-new-password")).statusCode).toBe(200);
  });

  test("after 100 failures in a row only a password reset unlocks, however long one waits", async () => {
    const { email, password } = await createVerifiedAccount(t.app, t.dataDir, { email: newEmail("hundred") });
    const key = signInKey(t.app.env.AUTH_SECRET ?? "", email);
    await t.db
      .insert(signInFailures)
      .values({ key, failures: 99, nextAttemptAt: null, updatedAt: new Date() });
    expect((await signIn(email, "guess-100")).statusCode).toBe(401);
    // Three weeks, far past every delay (15 minutes at most) but within the 24.8 days a Node timer can
    // wait: the embedded database in this process reads the faked clock too, and a wait it computed
    // beyond that limit (30 days) made Node fire its alarm every millisecond for the rest of the worker,
    // each time printing a TimeoutOverflowWarning (most of CI's log, and CPU the other files lost).
    advanceClock(21 * 24 * 3600);
    const refused = await signIn(email, password);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      message:
        "Too many failed attempts to log in with this email. Please reset your password with 'Forgot password?' to log in again.",
      details: { retryAfterSeconds: null },
    });
    await vi.waitFor(async () =>
      expect((await mailsTo(email)).at(-1)?.body).toContain("locked until the password is reset"),
    );
  });
});
