import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { createClient, signedInClient } from "#server/test/client";
import packageJson from "../../../../package.json" with { type: "json" };

/** On PostgreSQL with DATABASE_URL (as in CI), else on PGlite. */
const databaseKind = process.env.DATABASE_URL ? "postgres" : "pglite";

let t: Awaited<ReturnType<typeof createTestApp>>;
let superAdmin: ReturnType<typeof createClient>;
let admin: ReturnType<typeof createClient>;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
  superAdmin = await signedInClient(t.app, "superadmin@stackbay.test", DEMO_PASSWORD);
  admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
});
afterAll(() => t.close());

const putRate = (client: ReturnType<typeof createClient>, code: string, body: object) =>
  client.request("PUT", `/api/admin/fx-rates/${code}`, body);

describe("system figures", () => {
  test("version, uptime, database health, transports, counts and rates", async () => {
    const res = await superAdmin.get("/api/admin/system");
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("private, no-store");
    const body = res.json();
    expect(body).toMatchObject({
      version: packageJson.version,
      nodeVersion: process.version,
      database: { kind: databaseKind, healthy: true },
      mail: { transport: "outbox" },
      storage: { driver: "local" },
    });
    expect(body.uptimeSeconds).toBeGreaterThanOrEqual(0);
    expect(body.database.latencyMs).toBeGreaterThanOrEqual(0);
    expect(body.counts.users).toBeGreaterThanOrEqual(5);
    expect(body.counts.products).toBeGreaterThan(0);
    expect(body.counts.activeProducts).toBeGreaterThan(0);
    expect(body.counts.activeProducts).toBeLessThanOrEqual(body.counts.products);
    expect(body.counts.orders).toBeGreaterThanOrEqual(0);
    expect(body.fxRates.map((r: { currencyCode: string }) => r.currencyCode)).toEqual([
      "AED",
      "EUR",
      "GBP",
      "INR",
      "USD",
    ]);
    expect(body.fxRates[1]).toEqual({
      currencyCode: "EUR",
      rateToUsd: 0.92,
      fxBuffer: 0.02,
      updatedAt: expect.any(String),
    });
  });

  test("an unreachable database is reported, not a 500", async () => {
    const { database } = t.app;
    const ping = database.ping;
    database.ping = async () => {
      throw new Error("connection refused");
    };
    try {
      const res = await superAdmin.get("/api/admin/system");
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        database: { kind: databaseKind, healthy: false, latencyMs: null },
        counts: null,
        fxRates: [],
      });
    } finally {
      database.ping = ping;
    }
  });

  test("only super admins: anonymous 401, admins 403", async () => {
    expect((await createClient(t.app).get("/api/admin/system")).statusCode).toBe(401);
    expect((await admin.get("/api/admin/system")).statusCode).toBe(403);
    expect((await putRate(createClient(t.app), "EUR", { rateToUsd: 1, fxBuffer: 0 })).statusCode).toBe(401);
    const refused = await putRate(admin, "EUR", { rateToUsd: 1, fxBuffer: 0 });
    expect(refused.statusCode).toBe(403);
    const rates = (await createClient(t.app).get("/api/fx-rates")).json();
    expect(rates).toContainEqual({ currencyCode: "EUR", rateToUsd: 0.92, fxBuffer: 0.02 });
  });
});

describe("exchange rates", () => {
  test("a new rate is saved, served to every visitor and audited", async () => {
    const res = await putRate(superAdmin, "gbp", { rateToUsd: 0.81234567, fxBuffer: 0.035 });
    expect(res.statusCode).toBe(200);
    expect(res.json().rate).toEqual({
      currencyCode: "GBP",
      rateToUsd: 0.81234567,
      fxBuffer: 0.035,
      updatedAt: expect.any(String),
    });
    const rates = (await createClient(t.app).get("/api/fx-rates")).json();
    expect(rates).toContainEqual({ currencyCode: "GBP", rateToUsd: 0.81234567, fxBuffer: 0.035 });

    const audit = (await superAdmin.get("/api/admin/audit?entityType=fx_rate&entityId=GBP")).json();
    expect(audit.items).toHaveLength(1);
    expect(audit.items[0]).toMatchObject({
      action: "update",
      actorEmail: "superadmin@stackbay.test",
      entityId: "GBP",
      changes: {
        rateToUsd: { before: 0.79, after: 0.81234567 },
        fxBuffer: { before: 0.02, after: 0.035 },
      },
    });
  });

  test.each([
    [{ rateToUsd: 0, fxBuffer: 0.02 }, "Rate to USD must be greater than 0"],
    [{ rateToUsd: -3, fxBuffer: 0.02 }, "Rate to USD must be greater than 0"],
    [{ rateToUsd: 1_000_001, fxBuffer: 0.02 }, "Rate to USD must be at most 1,000,000"],
    [{ rateToUsd: 1.123456789, fxBuffer: 0.02 }, "Rate to USD can have at most 8 decimal places"],
    [{ rateToUsd: "0.9", fxBuffer: 0.02 }, "Rate to USD must be a number"],
    [{ rateToUsd: 0.9, fxBuffer: 0.6 }, "Buffer must be between 0 and 0.5 (0–50 %)"],
    [{ rateToUsd: 0.9, fxBuffer: -0.01 }, "Buffer must be between 0 and 0.5 (0–50 %)"],
    [{ rateToUsd: 0.9, fxBuffer: 0.12345 }, "Buffer can have at most 4 decimal places"],
    [{ rateToUsd: 0.9 }, "Buffer must be a number"],
  ])("%o is refused: %s", async (body, message) => {
    const res = await putRate(superAdmin, "EUR", body);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe("VALIDATION_ERROR");
    expect(res.json().details.map((d: { message: string }) => d.message)).toContain(message);
  });

  test("USD and unsupported currencies are refused with a clear message", async () => {
    const usd = await putRate(superAdmin, "USD", { rateToUsd: 1.1, fxBuffer: 0 });
    expect(usd.statusCode).toBe(400);
    expect(usd.json().message).toContain(
      "USD is the base currency: its rate is fixed at 1 and cannot be changed.",
    );
    const unknown = await putRate(superAdmin, "JPY", { rateToUsd: 150, fxBuffer: 0 });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain("Unknown currency. Choose one of AED, EUR, GBP, INR.");
    const rates = (await createClient(t.app).get("/api/fx-rates")).json();
    expect(rates).toContainEqual({ currencyCode: "USD", rateToUsd: 1, fxBuffer: 0 });
    expect(rates.some((r: { currencyCode: string }) => r.currencyCode === "JPY")).toBe(false);
  });
});

describe("background jobs", () => {
  test("super admins see every queue with its last run; others are refused", async () => {
    expect((await admin.get("/api/admin/jobs")).statusCode).toBe(403);
    expect((await createClient(t.app).get("/api/admin/jobs")).statusCode).toBe(401);
    expect((await admin.post("/api/admin/jobs/retry", {})).statusCode).toBe(403);

    // Sign-in mails nothing, but a newsletter subscription sends one e-mail through the queue.
    await createClient(t.app).post("/api/newsletter", { email: "jobs-screen@example.com" });
    const res = await superAdmin.get("/api/admin/jobs");
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.queues.map((q: { name: string }) => q.name)).toEqual([
      "mail",
      "payments-reconcile",
      "commissions-release",
      "earnings-release",
      "refund-payout",
      "payout-transfer",
      "delivery-confirm",
      "subscriptions-renew",
      "payment-method-forget",
      "trials-anonymise",
      "seller-api-log-prune",
      "license-activations-free",
      "seller-webhooks-dispatch",
      "seller-webhook-deliver",
    ]);
    const mail = body.queues[0];
    expect(mail).toMatchObject({ schedule: null, waiting: 0, active: 0, deadLettered: 0 });
    expect(mail.lastRun).toMatchObject({ outcome: "completed", error: null, failures: 0 });
    expect(body.queues[1]).toMatchObject({ schedule: "* * * * *" });
    expect(body.deadLetters).toEqual([]);
  });

  test("a retry with nothing dead-lettered moves nothing and writes no audit entry", async () => {
    const res = await superAdmin.post("/api/admin/jobs/retry", {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ retried: 0 });
    const audit = (await superAdmin.get("/api/admin/audit?entityType=job")).json();
    expect(audit.items).toEqual([]);
    expect((await superAdmin.post("/api/admin/jobs/retry", { ids: ["not-a-uuid"] })).statusCode).toBe(400);
  });
});
