import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { products } from "#server/db/schema/catalog";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { signedInClient } from "#server/test/client";
import { placeAndPay } from "#server/test/orders";
import { freePort } from "#server/test/ports";

/**
 * A mail server that accepts connections and, while `answering` is false, never greets: the client
 * waits for a greeting that does not come, as with a hung or overloaded server.
 */
let answering = false;
let connections = 0;
const received: string[] = [];
let server: SMTPServer;
let port: number;
let t: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  port = await freePort();
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onConnect(_session, callback) {
      connections++;
      if (answering) callback();
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push(Buffer.concat(chunks).toString("utf8"));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  t = await createTestApp({
    seed: true,
    // The request is measured alone, not with the e-mail it queued.
    settleJobs: false,
    env: { SMTP_URL: `smtp://127.0.0.1:${port}`, SMTP_TIMEOUT_SECONDS: "3", MAIL_RETRY_SECONDS: "1" },
  });
});

afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("e-mail through a mail server that does not answer", () => {
  test("checkout and payment complete at once; the confirmation is retried and delivered once the server answers", async () => {
    const [product] = await t.db
      .insert(products)
      .values({ name: "Queue Tester", category: "software", price: "12" })
      .returning({ id: products.id });
    const buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);

    // Checkout, the test payment page's Pay, its webhook and the return page: the order is confirmed
    // and its e-mail queued, with no request waiting on the mail server.
    const started = performance.now();
    const order = await placeAndPay(t.app, buyer, {
      email: "billing@example.com",
      items: [{ productId: product?.id ?? "", price: 12 }],
    });
    const elapsed = performance.now() - started;
    expect(order.paymentStatus).toBe("mock_confirmed");
    // Well under the three seconds a call to the silent mail server waits before giving up.
    expect(elapsed).toBeLessThan(2500);

    // The first attempt reaches the server and times out waiting for its greeting; nothing is delivered.
    await vi.waitFor(() => expect(connections).toBeGreaterThan(0), { timeout: 5000 });
    await vi.waitFor(
      async () => {
        const [mail] = (await t.app.jobs.status()).filter((q) => q.name === "mail");
        expect(mail?.lastRun?.failures).toBeGreaterThan(0);
      },
      { timeout: 5000 },
    );
    expect(received).toHaveLength(0);

    answering = true;
    await vi.waitFor(() => expect(received.length).toBeGreaterThan(0), { timeout: 15_000, interval: 100 });
    expect(received[0]).toMatch(/^Subject: Your Stackbay order/m);
    expect(received[0]).toMatch(/^To: buyer@stackbay\.test/m);
    // Delivered once: later polls of the queue send nothing more.
    await t.app.jobs.idle();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(received).toHaveLength(1);
  }, 30_000);

  test("sign-up answers at once while its code waits for the server", async () => {
    answering = false;
    const before = received.length;
    const started = performance.now();
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/sign-up",
      remoteAddress: "10.77.0.1",
      payload: {
        firstName: "Quinn",
        lastName: "Queue",
        email: "quinn.queue@example.com",
        password: "correct horse battery",
        accountType: "buyer",
      },
    });
    expect(res.statusCode).toBe(200);
    expect(performance.now() - started).toBeLessThan(2500);
    answering = true;
    await vi.waitFor(() => expect(received.length).toBe(before + 1), { timeout: 15_000, interval: 100 });
    expect(received.at(-1)).toMatch(/\b\d{6}\b/);
  }, 30_000);
});
