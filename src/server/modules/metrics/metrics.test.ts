import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import type { Mail } from "#server/mail/mailer";
import { createTestApp } from "#server/test/app";
import { signedInClient } from "#server/test/client";
import { placeOrder } from "#server/test/orders";
import { payOrder } from "#server/test/payments";

const TOKEN = "metrics-token-of-at-least-32-characters";

type Sample = { name: string; labels: Record<string, string>; value: number };

/** The samples of a Prometheus text exposition. */
function parse(text: string): Sample[] {
  return text
    .split("\n")
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const match = line.match(/^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
      );
      return { name: match[1] as string, labels, value: Number(match[3]) };
    });
}

/** The value of the one sample of `name` whose labels include `labels` (undefined when there is none). */
function sample(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value),
  );
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

describe("without METRICS_TOKEN", () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  test("/metrics answers as a path that does not exist, whatever the token", async () => {
    const missing = await t.app.inject({ method: "GET", url: "/no-such-path" });
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
      const res = await t.app.inject({ method: "GET", url: "/metrics", headers });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ ...missing.json(), message: expect.any(String) });
    }
  });
});

describe("with METRICS_TOKEN", () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  /** Delivered e-mail; a message to `fail@` fails, as an SMTP server refusing it would. */
  const delivered: Mail[] = [];
  beforeAll(async () => {
    t = await createTestApp({
      seed: true,
      env: { METRICS_TOKEN: TOKEN },
      mailTransport: {
        async send(mail) {
          if (mail.to.startsWith("fail@")) throw new Error("550 mailbox unavailable");
          delivered.push(mail);
        },
      },
    });
  });
  afterAll(() => t.close());

  const scrape = async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/metrics",
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    return parse(res.body);
  };

  test("refuses a scrape without the token or with another one", async () => {
    for (const authorization of [
      undefined,
      `Bearer ${TOKEN.slice(1)}`,
      `Bearer ${TOKEN}x`,
      TOKEN,
      "Bearer ",
    ]) {
      const res = await t.app.inject({
        method: "GET",
        url: "/metrics",
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: "INVALID_METRICS_TOKEN" });
    }
  });

  test("the auth scheme is matched case-insensitively (RFC 7235), the token exactly", async () => {
    for (const scheme of ["bearer", "BEARER", "bEaReR"]) {
      const res = await t.app.inject({
        method: "GET",
        url: "/metrics",
        headers: { authorization: `${scheme} ${TOKEN}` },
      });
      expect(res.statusCode, scheme).toBe(200);
    }
    for (const authorization of [`bearer ${TOKEN.toUpperCase()}`, `Basic ${TOKEN}`, `bearer${TOKEN}`]) {
      const res = await t.app.inject({ method: "GET", url: "/metrics", headers: { authorization } });
      expect(res.statusCode, authorization).toBe(401);
    }
  });

  test("requests are counted and timed by route template, never by raw URL", async () => {
    const listing = await t.app.inject({ method: "GET", url: "/api/products?page=1" });
    expect(listing.statusCode).toBe(200);
    const id = (listing.json() as { items: { id: string }[] }).items[0]?.id;
    expect((await t.app.inject({ method: "GET", url: `/api/products/${id}` })).statusCode).toBe(200);
    const absent = await t.app.inject({
      method: "GET",
      url: "/api/products/00000000-0000-4000-8000-000000000000",
    });
    expect(absent.statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: "/api/no-such-thing" })).statusCode).toBe(404);

    const samples = await scrape();
    const list = { method: "GET", route: "/api/products", status: "200" };
    expect(sample(samples, "stackbay_http_requests_total", list)).toBe(1);
    expect(sample(samples, "stackbay_http_request_duration_seconds_count", list)).toBe(1);
    expect(sample(samples, "stackbay_http_request_duration_seconds_bucket", { ...list, le: "+Inf" })).toBe(1);
    expect(sample(samples, "stackbay_http_request_duration_seconds_sum", list)).toBeGreaterThan(0);
    const one = { method: "GET", route: "/api/products/:id" };
    expect(sample(samples, "stackbay_http_requests_total", { ...one, status: "200" })).toBe(1);
    expect(sample(samples, "stackbay_http_requests_total", { ...one, status: "404" })).toBe(1);
    expect(
      sample(samples, "stackbay_http_requests_total", { method: "GET", route: "(unmatched)", status: "404" }),
    ).toBe(1);
    // No series carries a product id or a query string.
    const routes = samples.flatMap((s) => (s.labels.route ? [s.labels.route] : []));
    expect(routes.filter((route) => route.includes(id ?? "?") || route.includes("?"))).toEqual([]);
    // prom-client's process series come with it.
    expect(sample(samples, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
  });

  test("payments by outcome, the jobs that ran and the e-mail they sent", async () => {
    const buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
    const listing = await t.app.inject({ method: "GET", url: "/api/products?category=software" });
    const product = (listing.json() as { items: { id: string; price: number }[] }).items[0];
    const place = async () => {
      const placed = await placeOrder(buyer, {
        items: [{ productId: product?.id ?? "", price: product?.price ?? 0 }],
      });
      return placed.orderId;
    };
    const paid = await place();
    expect((await payOrder(t.app, buyer, paid, "pay")).paymentStatus).toBe("mock_confirmed");
    const declined = await place();
    expect((await payOrder(t.app, buyer, declined, "decline")).paymentStatus).toBe("failed");
    const cancelled = await place();
    expect((await payOrder(t.app, buyer, cancelled, "cancel")).paymentStatus).toBe("failed");
    const sentBefore = delivered.length;
    await t.app.mailer.send({ to: "fail@example.com", subject: "Refused", text: "x", html: "<p>x</p>" });
    await t.app.jobs.idle();

    const samples = await scrape();
    const payments = (outcome: string) =>
      sample(samples, "stackbay_payments_total", { provider: "test", outcome });
    expect([payments("paid"), payments("failed"), payments("cancelled"), payments("expired")]).toEqual([
      1,
      1,
      1,
      undefined,
    ]);
    // The order confirmation went out through the mail job; the refused message failed and waits for its retry.
    expect(sentBefore).toBeGreaterThan(0);
    expect(sample(samples, "stackbay_mails_total", { outcome: "sent" })).toBe(delivered.length);
    expect(sample(samples, "stackbay_mails_total", { outcome: "failed" })).toBe(1);
    expect(sample(samples, "stackbay_jobs_total", { queue: "mail", outcome: "completed" })).toBe(
      delivered.length,
    );
    expect(sample(samples, "stackbay_jobs_total", { queue: "mail", outcome: "failed" })).toBe(1);
    expect(sample(samples, "stackbay_job_queue_depth", { queue: "mail", state: "waiting" })).toBe(1);
    expect(sample(samples, "stackbay_job_queue_depth", { queue: "mail", state: "active" })).toBe(0);
    expect(sample(samples, "stackbay_job_queue_depth", { queue: "dead-letter", state: "waiting" })).toBe(0);
    // PostgreSQL reports its two pools; PGlite has none to report.
    const pools = samples.filter((s) => s.name === "stackbay_db_pool_connections");
    if (t.app.database.kind === "postgres") {
      expect(
        sample(samples, "stackbay_db_pool_connections", { pool: "main", state: "total" }),
      ).toBeGreaterThan(0);
      expect(sample(samples, "stackbay_db_pool_connections", { pool: "read", state: "waiting" })).toBe(0);
    } else expect(pools).toEqual([]);
  });
});
