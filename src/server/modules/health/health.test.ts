import { afterAll, beforeAll, expect, test } from "vitest";
import { createTestApp } from "#server/test/app";

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

test("health reports ok after a database round trip", async () => {
  const res = await t.app.inject({ method: "GET", url: "/api/health" });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({
    status: "ok",
    database: "ok",
    databaseKind: process.env.DATABASE_URL ? "postgres" : "pglite",
  });
});

test("health answers 503 when the database does not answer", async () => {
  const original = t.app.database.ping;
  t.app.database.ping = async () => {
    throw new Error("connection refused");
  };
  try {
    const res = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: "degraded", database: "unreachable" });
  } finally {
    t.app.database.ping = original;
  }
});

test("a saturated server answers health with the busy error and Retry-After, not a 500", async () => {
  const waiting = t.app.database.waitingForConnection;
  t.app.database.waitingForConnection = () => 1_000;
  try {
    const res = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(503);
    expect(res.headers["retry-after"]).toBe("2");
    expect(res.json()).toMatchObject({ code: "SERVICE_BUSY", details: { retryAfterSeconds: 2 } });
  } finally {
    t.app.database.waitingForConnection = waiting;
  }
});
