import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { type App, buildApp } from "#server/app";
import type { DatabaseHandle } from "#server/db/client";
import { loadEnv } from "#server/env";
import { createTestDatabase } from "#server/test/app";

let database: DatabaseHandle;
let instances: App[];
beforeAll(async () => {
  database = await createTestDatabase();
  await database.migrate();
  const env = loadEnv({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    DATA_DIR: "/nonexistent-stackbay-test",
    AUTH_SECRET: randomBytes(32).toString("base64url"),
  });
  // Two instances behind one load balancer: same database, separate processes' memory.
  const shared = { ...database, close: async () => {} };
  instances = await Promise.all([0, 1].map(() => buildApp({ env, database: shared, webRoot: null })));
});
afterAll(async () => {
  await Promise.all(instances.map((app) => app.close()));
  await database.close();
});

const resend = (app: App, ip: string) =>
  app.inject({ method: "POST", url: "/api/auth/verification-code", remoteAddress: ip, payload: {} });

test("a limit holds across instances, per route and client, and the window restarts", async () => {
  const [a, b] = instances as [App, App];
  const statuses: number[] = [];
  for (let i = 0; i < 10; i++) statuses.push((await resend(i % 2 ? a : b, "10.7.0.1")).statusCode);
  expect(statuses).not.toContain(429);
  const over = await resend(a, "10.7.0.1");
  expect(over.statusCode).toBe(429);
  expect(over.json().code).toBe("RATE_LIMITED");
  expect(Number(over.headers["retry-after"])).toBeGreaterThan(500);

  expect((await resend(b, "10.7.0.2")).statusCode).not.toBe(429); // another client
  const otherRoute = await a.inject({
    method: "POST",
    url: "/api/auth/sign-up",
    remoteAddress: "10.7.0.1",
    payload: {},
  });
  expect(otherRoute.statusCode).toBe(400); // another route counts separately

  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.now() + 10 * 60_000 + 1000);
  try {
    expect((await resend(b, "10.7.0.1")).statusCode).not.toBe(429);
  } finally {
    vi.useRealTimers();
  }
});

test("requests counted at once, on both instances, are each given their own place: exactly the limit passes", async () => {
  const answers = await Promise.all(
    Array.from({ length: 16 }, (_, i) => resend(instances[i % 2] as App, "10.7.0.9")),
  );
  const statuses = answers.map((answer) => answer.statusCode);
  expect(statuses.filter((status) => status === 429)).toHaveLength(6);
});
