import { hash } from "@node-rs/argon2";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { createTestApp } from "#server/test/app";
import { createClient, createVerifiedAccount } from "#server/test/client";

// The hasher, counted: better-auth's (src/server/auth/auth.ts) and the sign-up route's own.
vi.mock("@node-rs/argon2", async (importOriginal) => {
  const argon2 = await importOriginal<typeof import("@node-rs/argon2")>();
  return { ...argon2, hash: vi.fn(argon2.hash) };
});

/**
 * Whether an address has an account must not show in how long sign-up, forgot-password or a code
 * request take. Milliseconds are too noisy on a shared machine to compare paths that differ by a few
 * database statements, so the slow work (hashing, creating a code, mailing) is counted per path; the
 * one gap wide enough to time (forgot-password, which mailed only known addresses) is timed as well.
 */
let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

const CALLS = 15;
let n = 0;
const newEmail = (name: string) => `${name}.${++n}.${Date.now()}@example.com`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function timed(call: () => Promise<{ statusCode: number }>) {
  const started = performance.now();
  const res = await call();
  const elapsed = performance.now() - started;
  expect(res.statusCode).toBe(200);
  return elapsed;
}

/** Median milliseconds for known and unknown addresses, measured in turns. */
async function compare(known: string[], request: (email: string) => Promise<{ statusCode: number }>) {
  // Past the minute of the known addresses' sign-up codes, which these requests' mails share.
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.now() + 61_000);
  await request(newEmail("warm-up"));
  const times = { known: [] as number[], unknown: [] as number[] };
  for (const email of known) {
    times.unknown.push(await timed(() => request(newEmail("unknown"))));
    times.known.push(await timed(() => request(email)));
  }
  return { known: median(times.known), unknown: median(times.unknown) };
}

describe("timing", () => {
  /**
   * Medians on this machine, quiet: before the fix 3 ms for an unknown address against 7.5 ms for a
   * known one (2.4 times); after it, 6-7 ms both. Under load both stretch together (seen: 12.6 / 12.6,
   * 16.8 / 18.6). The bound, 1.75 times, leaves room for that and still catches the old gap.
   */
  test("forgot-password takes as long for an account as for an unknown address", async () => {
    const known: string[] = [];
    for (let i = 0; i < CALLS; i++)
      known.push((await createVerifiedAccount(t.app, t.dataDir, { email: newEmail("known") })).email);
    const medians = await compare(known, (email) =>
      createClient(t.app).post("/api/auth/password/forgot", { email }),
    );
    const ratio = Math.max(medians.known, medians.unknown) / Math.min(medians.known, medians.unknown);
    expect(ratio, JSON.stringify(medians)).toBeLessThan(1.75);
  }, 60_000);
});

describe("the same work for every address", () => {
  /** An unknown, an unverified and a verified address, none of them within a mail's minute. */
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
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 61_000);
    return { unknown, unverified, verified };
  }

  /** How often each slow step ran during `call`. */
  async function work(call: () => Promise<{ statusCode: number }>) {
    const hashes = vi.mocked(hash);
    const mails = vi.spyOn(t.app.mailer, "send");
    const codes = vi.spyOn(t.app.auth.api, "createVerificationOTP");
    hashes.mockClear();
    try {
      const res = await call();
      return {
        status: res.statusCode,
        hashes: hashes.mock.calls.length,
        mails: mails.mock.calls.length,
        codes: codes.mock.calls.length,
      };
    } finally {
      mails.mockRestore();
      codes.mockRestore();
    }
  }

  const signUp = (email: string) =>
    createClient(t.app).post("/api/auth/sign-up", {
      firstName: "Sam",
      lastName: "Same",
      email,
      password: "the-same-password",
      accountType: "seller",
    });

  test("sign-up hashes once and mails once, whoever has the address", async () => {
    const { unknown, unverified, verified } = await threeAddresses();
    for (const email of [unknown, unverified, verified]) {
      expect(await work(() => signUp(email)), email).toMatchObject({ status: 200, hashes: 1, mails: 1 });
    }
  });

  test("within a code's minute, sign-up mails no one, whoever has the address", async () => {
    const { unknown, unverified, verified } = await threeAddresses();
    for (const email of [unknown, unverified, verified]) {
      expect((await createClient(t.app).post("/api/auth/verification-code", { email })).statusCode).toBe(200);
      expect(await work(() => signUp(email)), email).toMatchObject({ status: 200, hashes: 1, mails: 0 });
    }
  });

  test.each(["/api/auth/password/forgot", "/api/auth/verification-code"])(
    "%s creates one code and mails once, whoever has the address",
    async (url) => {
      const { unknown, unverified, verified } = await threeAddresses();
      for (const email of [unknown, unverified, verified]) {
        expect(await work(() => createClient(t.app).post(url, { email })), email).toEqual({
          status: 200,
          hashes: 0,
          mails: 1,
          codes: 1,
        });
      }
    },
  );
});
