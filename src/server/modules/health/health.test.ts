import { afterAll, beforeAll, expect, test } from "vitest";
import { drainAndClose } from "#server/main";
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

test("liveness answers 200 without asking the database", async () => {
  const original = t.app.database.ping;
  t.app.database.ping = async () => {
    throw new Error("connection refused");
  };
  try {
    const res = await t.app.inject({ method: "GET", url: "/api/health/live" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ok" });
  } finally {
    t.app.database.ping = original;
  }
});

test("readiness answers 200 while the database answers, 503 when it does not", async () => {
  const ready = await t.app.inject({ method: "GET", url: "/api/health/ready" });
  expect(ready.statusCode).toBe(200);
  expect(ready.json()).toEqual({ status: "ready", database: "ok", shuttingDown: false });
  const original = t.app.database.ping;
  t.app.database.ping = async () => {
    throw new Error("connection refused");
  };
  try {
    const res = await t.app.inject({ method: "GET", url: "/api/health/ready" });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: "unavailable", database: "unreachable", shuttingDown: false });
  } finally {
    t.app.database.ping = original;
  }
});

test("on shutdown readiness turns 503 first while the server still answers, then it closes", async () => {
  const closing = await createTestApp();
  const { app } = closing;
  expect((await app.inject({ method: "GET", url: "/api/health/ready" })).statusCode).toBe(200);
  const closed = drainAndClose(app, 400);
  const ready = await app.inject({ method: "GET", url: "/api/health/ready" });
  expect(ready.statusCode).toBe(503);
  expect(ready.json()).toEqual({ status: "unavailable", database: "unreachable", shuttingDown: true });
  expect((await app.inject({ method: "GET", url: "/api/health/live" })).statusCode).toBe(200);
  // Everything else is still served during the grace period.
  expect((await app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
  await closed;
  await closing.close();
});

test("closing the app directly turns readiness off before anything else closes", async () => {
  const closing = await createTestApp();
  const { app } = closing;
  // The job queue's stop is a later close hook: when it runs, readiness is already off.
  let shuttingDownAtStop: boolean | undefined;
  const stop = app.jobs.stop.bind(app.jobs);
  app.jobs.stop = async () => {
    shuttingDownAtStop = app.readiness.shuttingDown;
    await stop();
  };
  await closing.close();
  expect(shuttingDownAtStop).toBe(true);
});

test("a shutdown marked before closing turns only readiness off", async () => {
  t.app.readiness.shuttingDown = true;
  try {
    expect((await t.app.inject({ method: "GET", url: "/api/health/ready" })).statusCode).toBe(503);
    expect((await t.app.inject({ method: "GET", url: "/api/health/live" })).statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
  } finally {
    t.app.readiness.shuttingDown = false;
  }
});

test("a saturated server still answers liveness (only readiness and the rest are shed)", async () => {
  const waiting = t.app.database.waitingForConnection;
  t.app.database.waitingForConnection = () => 1_000;
  try {
    expect((await t.app.inject({ method: "GET", url: "/api/health/live" })).statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/api/health/ready" })).statusCode).toBe(503);
  } finally {
    t.app.database.waitingForConnection = waiting;
  }
});
