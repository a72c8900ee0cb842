import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { DAY_MS } from "#domain/dates";
import {
  MAX_SELLER_WEBHOOK_ENDPOINTS,
  type SellerWebhookDelivery,
  type SellerWebhookDeliveryPage,
  type SellerWebhookEndpointList,
  type SellerWebhookIssued,
  WEBHOOK_RETRY_DAYS,
  WEBHOOK_SECRET_OVERLAP_HOURS,
  WEBHOOK_SECRET_PATTERN,
  WEBHOOK_TOLERANCE_SECONDS,
} from "#domain/seller-webhooks";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { notifications } from "#server/db/schema/notifications";
import { orderItems } from "#server/db/schema/orders";
import {
  sellerWebhookDeliveries,
  sellerWebhookEndpoints,
  sellerWebhookEvents,
} from "#server/db/schema/seller-api";
import { subscriptions } from "#server/db/schema/subscriptions";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { DEMO_WEBHOOK_URL, seedDemoWebhook } from "#server/db/seed/seller-webhooks";
import { AppError } from "#server/errors";
import type { AdjustableClock } from "#server/lib/clock";
import { paymentDepsOf } from "#server/modules/payments/service";
import { runRenewals } from "#server/modules/renewals/service";
import { emitSellerEvent } from "#server/modules/seller-webhooks/events";
import {
  createEndpoint,
  sellerWebhookDepsOf,
  sellerWebhookDispatchJob,
} from "#server/modules/seller-webhooks/service";
import { createTestApp } from "#server/test/app";
import { type createClient, createVerifiedAccount, signedInClient } from "#server/test/client";
import { placeAndPay } from "#server/test/orders";

type Client = ReturnType<typeof createClient>;

/**
 * The verification recipe of the developers page (decision 0030), as a receiver writes it: the
 * timestamp within the tolerance, and any `v1=` matching the HMAC of `${t}.${rawBody}`, compared in
 * constant time. `nowSeconds` stands for the receiver's clock (the test server's clock is moved).
 */
function verifyStackbaySignature(
  rawBody: string,
  header: string,
  secret: string,
  nowSeconds = Date.now() / 1000,
): boolean {
  const parts = header.split(",").map((part) => part.trim().split("="));
  const timestamp = Number(parts.find(([key]) => key === "t")?.[1]);
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > WEBHOOK_TOLERANCE_SECONDS)
    return false;
  const expected = createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest();
  return parts
    .filter(([key]) => key === "v1")
    .some(([, value]) => {
      const given = Buffer.from(value ?? "", "hex");
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

type Received = { headers: IncomingHttpHeaders; body: string };

/** A seller's receiver on a loopback port: records each request and answers `status`. */
async function startReceiver() {
  const received: Received[] = [];
  const state = { status: 200 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(state.status, { "content-type": "text/plain" });
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let t: Awaited<ReturnType<typeof createTestApp>>;
let clock: AdjustableClock;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let seller: Client;
let sellerId: string;
let other: Client;
let buyer: Client;
let productId: string;

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  clock = t.app.clock as AdjustableClock;
  receiver = await startReceiver();
  const account = await createVerifiedAccount(t.app, t.dataDir, {
    email: "hooks-seller@example.com",
    accountType: "seller",
  });
  seller = await signedInClient(t.app, account.email, account.password);
  const [me] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, account.email));
  sellerId = me!.id;
  const theirs = await createVerifiedAccount(t.app, t.dataDir, {
    email: "other-hooks-seller@example.com",
    accountType: "seller",
  });
  other = await signedInClient(t.app, theirs.email, theirs.password);
  buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
  const [product] = await t.db
    .insert(products)
    .values({
      name: "Hook Monthly",
      category: "saas",
      price: "9",
      pricingUnit: "month",
      vendor: "Hook",
      sellerId,
    })
    .returning({ id: products.id });
  productId = product!.id;
});

afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

beforeEach(() => {
  receiver.state.status = 200;
});

/** Runs the dispatch job as its cron would, then waits for the attempts it queued. */
async function dispatch() {
  await sellerWebhookDispatchJob(() => sellerWebhookDepsOf(t.app)).run({}, { id: "test", retryCount: 0 });
  await t.app.jobs.idle();
}

async function register(client: Client, events: string[], url = receiver.url): Promise<SellerWebhookIssued> {
  const res = await client.post("/api/seller-webhooks/endpoints", {
    url,
    description: "Test receiver",
    events,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function deliveriesOf(client: Client, endpointId: string): Promise<SellerWebhookDelivery[]> {
  const res = await client.get(`/api/seller-webhooks/deliveries?endpointId=${endpointId}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as SellerWebhookDeliveryPage).items;
}

async function removeAll(client: Client) {
  const list = (await client.get("/api/seller-webhooks/endpoints")).json() as SellerWebhookEndpointList;
  for (const endpoint of list.items)
    await client.request("DELETE", `/api/seller-webhooks/endpoints/${endpoint.id}`);
}

describe("endpoints", () => {
  test("an endpoint is registered with its events; its secret is shown once and sealed at rest", async () => {
    const issued = await register(seller, ["order.paid", "question.asked"]);
    expect(issued.secret).toMatch(WEBHOOK_SECRET_PATTERN);
    expect(issued.endpoint).toMatchObject({ url: receiver.url, events: ["order.paid", "question.asked"] });
    const list = (await seller.get("/api/seller-webhooks/endpoints")).json() as SellerWebhookEndpointList;
    expect(JSON.stringify(list)).not.toContain(issued.secret);
    const [row] = await t.db
      .select()
      .from(sellerWebhookEndpoints)
      .where(eq(sellerWebhookEndpoints.id, issued.endpoint.id));
    expect(row!.secretSealed).not.toContain(issued.secret);
    expect(row!.secretSealed.startsWith("v1.")).toBe(true);
    await removeAll(seller);
  });

  test(`at most ${MAX_SELLER_WEBHOOK_ENDPOINTS} endpoints; unknown events and bad URLs are refused`, async () => {
    for (let i = 0; i < MAX_SELLER_WEBHOOK_ENDPOINTS; i++) await register(seller, ["order.paid"]);
    const over = await seller.post("/api/seller-webhooks/endpoints", {
      url: receiver.url,
      events: ["order.paid"],
    });
    expect(over.statusCode).toBe(409);
    expect(over.json().code).toBe("WEBHOOK_ENDPOINT_LIMIT");
    await removeAll(seller);
    const unknown = await seller.post("/api/seller-webhooks/endpoints", {
      url: receiver.url,
      events: ["nope"],
    });
    expect(unknown.json().code).toBe("VALIDATION_ERROR");
    const privateUrl = await seller.post("/api/seller-webhooks/endpoints", {
      url: "http://10.1.2.3/hook",
      events: ["order.paid"],
    });
    expect(privateUrl.statusCode).toBe(400);
    expect(privateUrl.json()).toMatchObject({ code: "WEBHOOK_URL_REFUSED" });
    expect(privateUrl.json().message).toMatch(/private network/);
  });

  test("in production, http:// and loopback or private receivers are refused with WEBHOOK_URL_REFUSED", async () => {
    const deps = { ...sellerWebhookDepsOf(t.app), production: true };
    const [me] = await t.db.select().from(user).where(eq(user.id, sellerId));
    for (const url of [
      receiver.url,
      "https://127.0.0.1/hook",
      "https://[::1]/hook",
      "https://169.254.169.254/",
    ]) {
      const refused = await createEndpoint(deps, me!, { url, description: "", events: ["order.paid"] }).catch(
        (error: unknown) => error,
      );
      expect(refused, url).toBeInstanceOf(AppError);
      expect((refused as AppError).code).toBe("WEBHOOK_URL_REFUSED");
    }
    expect(
      await t.db.select().from(sellerWebhookEndpoints).where(eq(sellerWebhookEndpoints.sellerId, sellerId)),
    ).toEqual([]);
  });

  test("another seller's endpoints and deliveries answer 404", async () => {
    const mine = await register(seller, ["order.paid"]);
    const test = (await seller.post(`/api/seller-webhooks/endpoints/${mine.endpoint.id}/test`, {})).json();
    for (const [method, url] of [
      ["PATCH", `/api/seller-webhooks/endpoints/${mine.endpoint.id}`],
      ["DELETE", `/api/seller-webhooks/endpoints/${mine.endpoint.id}`],
      ["POST", `/api/seller-webhooks/endpoints/${mine.endpoint.id}/rotate`],
      ["POST", `/api/seller-webhooks/endpoints/${mine.endpoint.id}/test`],
    ] as const) {
      const res = await other.request(method, url, method === "PATCH" ? { description: "mine now" } : {});
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().code).toBe("WEBHOOK_ENDPOINT_NOT_FOUND");
    }
    const replay = await other.post(`/api/seller-webhooks/deliveries/${test.id}/replay`, {});
    expect(replay.statusCode).toBe(404);
    expect(replay.json().code).toBe("WEBHOOK_DELIVERY_NOT_FOUND");
    expect(
      ((await other.get("/api/seller-webhooks/deliveries")).json() as SellerWebhookDeliveryPage).total,
    ).toBe(0);
    await removeAll(seller);
  });
});

describe("deliveries", () => {
  test("a test event is posted signed; the documented recipe verifies it; the log shows it", async () => {
    const issued = await register(seller, ["order.paid"]);
    const before = receiver.received.length;
    const res = await seller.post(`/api/seller-webhooks/endpoints/${issued.endpoint.id}/test`, {});
    expect(res.statusCode, res.body).toBe(201);
    const got = receiver.received.slice(before);
    expect(got).toHaveLength(1);
    const [request] = got;
    const body = JSON.parse(request!.body);
    expect(body).toMatchObject({ type: "ping", data: { endpointId: issued.endpoint.id } });
    expect(body.id).toMatch(/^evt_[0-9a-f]{32}$/);
    const header = String(request!.headers["stackbay-signature"]);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const now = clock.now().getTime() / 1000;
    expect(verifyStackbaySignature(request!.body, header, issued.secret, now)).toBe(true);
    expect(verifyStackbaySignature(`${request!.body} `, header, issued.secret, now)).toBe(false);
    expect(verifyStackbaySignature(request!.body, header, "whsec_wrong", now)).toBe(false);
    expect(
      verifyStackbaySignature(request!.body, header, issued.secret, now + WEBHOOK_TOLERANCE_SECONDS + 5),
    ).toBe(false);
    const [logged] = await deliveriesOf(seller, issued.endpoint.id);
    expect(logged).toMatchObject({
      eventId: body.id,
      eventType: "ping",
      status: "succeeded",
      attempts: 1,
      responseStatus: 200,
      lastError: null,
      nextAttemptAt: null,
      payload: body,
    });
    expect(logged!.durationMs).toBeGreaterThanOrEqual(0);
    await removeAll(seller);
  });

  test("a 500 is retried with back-off through the queue and delivered once the receiver answers 200", async () => {
    const issued = await register(seller, ["question.asked"]);
    receiver.state.status = 500;
    const before = receiver.received.length;
    const asked = await buyer.post(`/api/products/${productId}/questions`, { text: "Does it sync offline?" });
    expect(asked.statusCode, asked.body).toBe(201);
    await dispatch();
    let [delivery] = await deliveriesOf(seller, issued.endpoint.id);
    expect(delivery).toMatchObject({
      status: "pending",
      attempts: 1,
      responseStatus: 500,
      eventType: "question.asked",
    });
    expect(delivery!.lastError).toMatch(/500/);
    const firstTry = new Date(delivery!.lastAttemptAt!).getTime();
    expect(new Date(delivery!.nextAttemptAt!).getTime() - firstTry).toBe(60_000);
    // Not due yet: nothing is sent.
    await dispatch();
    expect(receiver.received.length - before).toBe(1);
    clock.advance(61_000);
    await dispatch();
    [delivery] = await deliveriesOf(seller, issued.endpoint.id);
    expect(delivery).toMatchObject({ status: "pending", attempts: 2 });
    expect(new Date(delivery!.nextAttemptAt!).getTime() - new Date(delivery!.lastAttemptAt!).getTime()).toBe(
      120_000,
    );
    receiver.state.status = 200;
    clock.advance(121_000);
    await dispatch();
    [delivery] = await deliveriesOf(seller, issued.endpoint.id);
    expect(delivery).toMatchObject({
      status: "succeeded",
      attempts: 3,
      responseStatus: 200,
      lastError: null,
    });
    const sent = receiver.received.slice(before).map((r) => JSON.parse(r.body).id);
    expect(new Set(sent).size).toBe(1);
    expect(sent).toHaveLength(3);
    const [endpoint] = (await seller.get("/api/seller-webhooks/endpoints")).json().items;
    expect(endpoint.failingSince).toBeNull();

    // A replay posts the same event, with the same id, once more.
    const replayed = await seller.post(`/api/seller-webhooks/deliveries/${delivery!.id}/replay`, {});
    expect(replayed.statusCode, replayed.body).toBe(200);
    const last = receiver.received.at(-1)!;
    expect(JSON.parse(last.body).id).toBe(delivery!.eventId);
    expect((await deliveriesOf(seller, issued.endpoint.id))[0]).toMatchObject({
      status: "succeeded",
      attempts: 4,
    });
    await removeAll(seller);
  });

  test(`a rotated secret signs beside the new one for ${WEBHOOK_SECRET_OVERLAP_HOURS} hours, then only the new one signs`, async () => {
    const issued = await register(seller, ["order.paid"]);
    const rotated = (
      await seller.post(`/api/seller-webhooks/endpoints/${issued.endpoint.id}/rotate`, {})
    ).json() as SellerWebhookIssued;
    expect(rotated.secret).toMatch(WEBHOOK_SECRET_PATTERN);
    expect(rotated.secret).not.toBe(issued.secret);
    expect(rotated.endpoint.previousSecretUntil).not.toBeNull();
    await seller.post(`/api/seller-webhooks/endpoints/${issued.endpoint.id}/test`, {});
    let request = receiver.received.at(-1)!;
    let header = String(request.headers["stackbay-signature"]);
    expect(header.match(/v1=/g)).toHaveLength(2);
    let now = clock.now().getTime() / 1000;
    expect(verifyStackbaySignature(request.body, header, issued.secret, now)).toBe(true);
    expect(verifyStackbaySignature(request.body, header, rotated.secret, now)).toBe(true);

    clock.advance(WEBHOOK_SECRET_OVERLAP_HOURS * 3_600_000 + 60_000);
    await seller.post(`/api/seller-webhooks/endpoints/${issued.endpoint.id}/test`, {});
    request = receiver.received.at(-1)!;
    header = String(request.headers["stackbay-signature"]);
    now = clock.now().getTime() / 1000;
    expect(header.match(/v1=/g)).toHaveLength(1);
    expect(verifyStackbaySignature(request.body, header, rotated.secret, now)).toBe(true);
    expect(verifyStackbaySignature(request.body, header, issued.secret, now)).toBe(false);
    const [listed] = (await seller.get("/api/seller-webhooks/endpoints")).json().items;
    expect(listed.previousSecretUntil).toBeNull();
    await removeAll(seller);
  });

  test(`an endpoint failing for ${WEBHOOK_RETRY_DAYS} days is turned off and its seller told; the seller turns it back on`, async () => {
    const issued = await register(seller, ["question.asked"]);
    receiver.state.status = 503;
    await buyer.post(`/api/products/${productId}/questions`, { text: "Is there a yearly plan?" });
    await dispatch();
    clock.advance(WEBHOOK_RETRY_DAYS * DAY_MS + 60_000);
    // The first delivery's retries are over; the next attempt (a second event) fails too.
    await dispatch();
    await buyer.post(`/api/products/${productId}/questions`, { text: "Do you offer invoices?" });
    await dispatch();
    const [endpoint] = (await seller.get("/api/seller-webhooks/endpoints")).json().items;
    expect(endpoint.disabledAt).not.toBeNull();
    const deliveries = await deliveriesOf(seller, issued.endpoint.id);
    expect(deliveries.every((d) => d.status === "failed")).toBe(true);
    const told = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, sellerId), eq(notifications.kind, "webhook_disabled")));
    expect(told).toHaveLength(1);
    // Turned off, it gets no new deliveries.
    await buyer.post(`/api/products/${productId}/questions`, { text: "Any discount for schools?" });
    expect(await deliveriesOf(seller, issued.endpoint.id)).toHaveLength(deliveries.length);
    receiver.state.status = 200;
    const on = await seller.request("PATCH", `/api/seller-webhooks/endpoints/${issued.endpoint.id}`, {
      enabled: true,
    });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({ disabledAt: null, failingSince: null });
    await removeAll(seller);
  });
});

describe("events", () => {
  test("each wired event makes one delivery per endpoint that chose it, none for the others", async () => {
    const all = await register(seller, [
      "order.paid",
      "subscription.started",
      "subscription.cancelled",
      "subscription.ended",
      "license.revoked",
      "refund.requested",
      "refund.approved",
      "question.asked",
    ]);
    const ordersOnly = await register(seller, ["order.paid"]);
    await register(other, ["order.paid", "question.asked", "subscription.started"]);
    const order = await placeAndPay(t.app, buyer, { items: [{ productId, price: 9 }] });
    await buyer.post(`/api/products/${productId}/questions`, { text: "Can I add seats later?" });
    const subscription = (await buyer.get("/api/subscriptions"))
      .json()
      .items.find((s: { productId: string }) => s.productId === productId);
    expect((await buyer.post(`/api/subscriptions/${subscription.id}/cancel`, {})).statusCode).toBe(200);
    const [item] = await t.db.select().from(orderItems).where(eq(orderItems.orderId, order.id));
    const requested = await buyer.post(`/api/orders/${order.id}/items/${item!.id}/refund`, {
      reason: "It does not fit our team after all.",
    });
    expect(requested.statusCode, requested.body).toBe(201);
    const decided = await seller.post(`/api/refunds/${requested.json().refund.id}/decision`, {
      decision: "approve",
    });
    expect(decided.statusCode, decided.body).toBe(200);

    const types = async (endpointId: string) =>
      (await deliveriesOf(seller, endpointId)).map((d) => d.eventType).sort();
    expect(await types(all.endpoint.id)).toEqual(
      [
        "license.revoked",
        "order.paid",
        "question.asked",
        "refund.approved",
        "refund.requested",
        "subscription.cancelled",
        "subscription.ended",
        "subscription.started",
      ].sort(),
    );
    expect(await types(ordersOnly.endpoint.id)).toEqual(["order.paid"]);
    expect(
      ((await other.get("/api/seller-webhooks/deliveries")).json() as SellerWebhookDeliveryPage).total,
    ).toBe(0);

    const paid = (await deliveriesOf(seller, all.endpoint.id)).find((d) => d.eventType === "order.paid")!;
    expect(paid.payload.data).toMatchObject({
      orderId: order.id,
      items: [{ orderItemId: item!.id, productId, productName: "Hook Monthly", quantity: 1 }],
    });
    // No buyer's contact in any payload.
    const payloads = JSON.stringify((await deliveriesOf(seller, all.endpoint.id)).map((d) => d.payload));
    expect(payloads).not.toContain("buyer@stackbay.test");
    await removeAll(seller);
    await removeAll(other);
  });

  test("a trial ending within three days is told once, by the renewal job", async () => {
    const hook = await register(seller, ["subscription.trial_ending"]);
    const order = await placeAndPay(t.app, buyer, { items: [{ productId, price: 9 }] });
    const [started] = await t.db.select().from(subscriptions).where(eq(subscriptions.orderId, order.id));
    const now = t.app.clock.now();
    // As if it had started on a trial that ends in four days.
    const ends = new Date(now.getTime() + 4 * DAY_MS);
    await t.db
      .update(subscriptions)
      .set({ trialEndsAt: ends, periodsPaid: 0, paidThrough: ends, anchor: ends })
      .where(eq(subscriptions.id, started!.id));
    const run = () => runRenewals(paymentDepsOf(t.app), t.app.clock.now());
    await run();
    expect(await deliveriesOf(seller, hook.endpoint.id)).toHaveLength(0);
    (t.app.clock as AdjustableClock).advance(1.5 * DAY_MS);
    await run();
    await run();
    const told = await deliveriesOf(seller, hook.endpoint.id);
    expect(told.map((d) => d.eventType)).toEqual(["subscription.trial_ending"]);
    expect(told[0]?.payload.data).toMatchObject({ subscriptionId: started!.id });
    await removeAll(seller);
  });

  test("an event is written in its cause's transaction: a rollback leaves no event and no delivery", async () => {
    const issued = await register(seller, ["usage.cap_reached"]);
    await expect(
      t.db.transaction(async (tx) => {
        const made = await emitSellerEvent(tx, {
          sellerId,
          type: "usage.cap_reached",
          data: { subscriptionId: "sub", cap: 1000 },
        });
        expect(made).toHaveLength(1);
        throw new Error("the cause failed");
      }),
    ).rejects.toThrow("the cause failed");
    expect(await deliveriesOf(seller, issued.endpoint.id)).toEqual([]);
    const events = await t.db
      .select()
      .from(sellerWebhookEvents)
      .where(eq(sellerWebhookEvents.type, "usage.cap_reached"));
    expect(events).toEqual([]);
    await t.db.transaction((tx) =>
      emitSellerEvent(tx, {
        sellerId,
        type: "usage.cap_reached",
        data: { subscriptionId: "sub", cap: 1000 },
      }),
    );
    expect(await deliveriesOf(seller, issued.endpoint.id)).toHaveLength(1);
    await removeAll(seller);
    // Deleting the endpoint deleted its deliveries.
    const left = await t.db
      .select()
      .from(sellerWebhookDeliveries)
      .where(eq(sellerWebhookDeliveries.endpointId, issued.endpoint.id));
    expect(left).toEqual([]);
  });
});

describe("the seller API", () => {
  async function keyWith(scopes: string[]) {
    const res = await seller.post("/api/seller-api/keys", { name: `hooks ${scopes.join(" ")}`, scopes });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { key: { id: string }; secret: string };
  }
  let address = 0;
  const withKey = (key: string, method: "GET" | "POST" | "PATCH" | "DELETE", url: string, body?: object) =>
    t.app.inject({
      method,
      url,
      remoteAddress: `10.78.0.${++address % 250}`,
      headers: { authorization: `Bearer ${key}` },
      ...(body ? { payload: body } : {}),
    });

  test("webhooks:write manages endpoints and deliveries; other scopes answer 403, a revoked key 401", async () => {
    const reader = await keyWith(["orders:read"]);
    const refused = await withKey(reader.secret, "GET", "/api/seller/v1/webhooks");
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe("API_KEY_SCOPE");

    const writer = await keyWith(["webhooks:write"]);
    const made = await withKey(writer.secret, "POST", "/api/seller/v1/webhooks", {
      url: receiver.url,
      events: ["refund.requested"],
    });
    expect(made.statusCode, made.body).toBe(201);
    const issued = made.json() as SellerWebhookIssued;
    const changed = await withKey(writer.secret, "PATCH", `/api/seller/v1/webhooks/${issued.endpoint.id}`, {
      events: ["refund.requested", "refund.approved"],
    });
    expect(changed.json().events).toEqual(["refund.requested", "refund.approved"]);
    const tested = await withKey(writer.secret, "POST", `/api/seller/v1/webhooks/${issued.endpoint.id}/test`);
    expect(tested.statusCode, tested.body).toBe(201);
    const log = await withKey(writer.secret, "GET", "/api/seller/v1/webhook-deliveries");
    expect((log.json() as SellerWebhookDeliveryPage).items[0]).toMatchObject({
      eventType: "ping",
      status: "succeeded",
    });
    const replay = await withKey(
      writer.secret,
      "POST",
      `/api/seller/v1/webhook-deliveries/${tested.json().id}/replay`,
    );
    expect(replay.statusCode).toBe(200);
    const rotated = await withKey(
      writer.secret,
      "POST",
      `/api/seller/v1/webhooks/${issued.endpoint.id}/rotate`,
    );
    expect(rotated.json().secret).toMatch(WEBHOOK_SECRET_PATTERN);
    const listed = await withKey(writer.secret, "GET", "/api/seller/v1/webhooks");
    expect(listed.json().items).toHaveLength(1);

    // Another seller's endpoint is as absent as none.
    const foreign = await register(other, ["order.paid"]);
    const notMine = await withKey(writer.secret, "DELETE", `/api/seller/v1/webhooks/${foreign.endpoint.id}`);
    expect(notMine.statusCode).toBe(404);
    expect(notMine.json().code).toBe("WEBHOOK_ENDPOINT_NOT_FOUND");

    const gone = await withKey(writer.secret, "DELETE", `/api/seller/v1/webhooks/${issued.endpoint.id}`);
    expect(gone.json().items).toEqual([]);
    await seller.request("DELETE", `/api/seller-api/keys/${writer.key.id}`);
    const revoked = await withKey(writer.secret, "GET", "/api/seller/v1/webhooks");
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json().code).toBe("API_KEY_INVALID");
    await removeAll(other);
  });
});

describe("the demo", () => {
  test("the demo seller's endpoint has deliveries that are really attempted, and fail with the reason", async () => {
    const demoSeller = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
    const [demo] = await t.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, "seller@stackbay.test"));
    const secret = t.app.env.AUTH_SECRET ?? "";
    await seedDemoWebhook(t.db, { now: clock.now(), sellerId: demo!.id, secret });
    await seedDemoWebhook(t.db, { now: clock.now(), sellerId: demo!.id, secret });
    const list = (await demoSeller.get("/api/seller-webhooks/endpoints")).json() as SellerWebhookEndpointList;
    expect(list.items).toHaveLength(1);
    expect(list.items[0]!.url).toBe(DEMO_WEBHOOK_URL);
    await dispatch();
    const deliveries = await deliveriesOf(demoSeller, list.items[0]!.id);
    expect(deliveries.length).toBeGreaterThanOrEqual(2);
    for (const delivery of deliveries) {
      expect(delivery).toMatchObject({ status: "pending", attempts: 1, responseStatus: null });
      expect(delivery.lastError).toMatch(/ECONNREFUSED/);
    }
    await removeAll(demoSeller);
  });
});
