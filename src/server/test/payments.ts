import type { Order } from "#domain/checkout";
import type { PaymentMethodSetupState, SavedPaymentMethod } from "#domain/payment-methods";
import type { OrderPaymentAnswer, PaymentRedirect, TestPaymentChoice } from "#domain/payments";
import type { App } from "#server/app";
import type { createClient } from "#server/test/client";

type Client = ReturnType<typeof createClient>;

/** The test provider's session reference in a redirect to its hosted page (`/pay/test/:ref`). */
export function testRef(redirectUrl: string): string {
  const ref = new URL(redirectUrl).pathname.match(/^\/pay\/test\/([^/]+)$/)?.[1];
  if (!ref) throw new Error(`not a test payment page: ${redirectUrl}`);
  return ref;
}

function testProvider(app: App) {
  const test = app.payments.test;
  if (!test) throw new Error("this app has no test payment provider");
  return test;
}

/**
 * On the hosted test page, as the buyer: opens the session and presses Pay, Decline or Cancel; answers
 * where the page sent the buyer. The test provider's webhook is delivered after this answer, and
 * `eventsDelivered(app)` waits for it.
 */
export async function choose(
  client: Client,
  redirectUrl: string,
  choice: TestPaymentChoice,
): Promise<string> {
  const ref = testRef(redirectUrl);
  const page = await client.get(`/api/payments/test/sessions/${ref}`);
  if (page.statusCode !== 200) throw new Error(`test payment page failed: ${page.body}`);
  const res = await client.post(`/api/payments/test/sessions/${ref}/choice`, { choice });
  if (res.statusCode !== 200) throw new Error(`test payment choice failed: ${res.body}`);
  return (res.json() as { redirectUrl: string }).redirectUrl;
}

/** Waits until every test webhook event sent so far has been delivered. */
export async function eventsDelivered(app: App): Promise<void> {
  await testProvider(app).idle();
}

/** Back on the return page: what `POST /api/orders/:id/payment/complete` answers. */
export async function returnToSite(client: Client, orderId: string): Promise<OrderPaymentAnswer> {
  const res = await client.post(`/api/orders/${orderId}/payment/complete`, { query: {} });
  if (res.statusCode !== 200) throw new Error(`payment completion failed: ${res.body}`);
  return res.json() as OrderPaymentAnswer;
}

export async function getOrder(client: Client, orderId: string): Promise<Order> {
  const res = await client.get(`/api/orders/${orderId}`);
  if (res.statusCode !== 200) throw new Error(`order read failed: ${res.body}`);
  return (res.json() as { order: Order }).order;
}

/**
 * Pays (or declines, or cancels) the order's open payment like a buyer: asks for its payment page
 * (a new attempt if the last one failed), makes the choice on the test page, lets the webhook arrive
 * and comes back to the return page. Answers the order as it then is.
 */
export async function payOrder(
  app: App,
  client: Client,
  orderId: string,
  choice: TestPaymentChoice = "pay",
): Promise<Order> {
  const started = await client.post(`/api/orders/${orderId}/payment`);
  if (started.statusCode !== 200) throw new Error(`payment start failed: ${started.body}`);
  const { redirectUrl } = started.json() as PaymentRedirect;
  // An order that needs no payment any more sends the buyer straight to its return page.
  if (new URL(redirectUrl).pathname === "/checkout/complete") return getOrder(client, orderId);
  await choose(client, redirectUrl, choice);
  await eventsDelivered(app);
  await returnToSite(client, orderId);
  return getOrder(client, orderId);
}

/**
 * Saves a payment method as a buyer would: opens the setup, chooses on the test provider's setup page
 * (a test card by its last four digits, or PayPal), lets the webhook arrive and comes back to the return
 * page. Answers the saved method.
 */
export async function saveTestMethod(
  app: App,
  client: Client,
  method: { card: "4242" | "4444" | "0341" | "9979" } | { paypal: true } = { card: "4242" },
): Promise<SavedPaymentMethod> {
  const kind = "card" in method ? "card" : "paypal";
  const started = await client.post("/api/payment-methods/setups", { kind });
  if (started.statusCode !== 200) throw new Error(`setup failed: ${started.body}`);
  const redirectUrl = (started.json() as { redirectUrl: string }).redirectUrl;
  const ref = new URL(redirectUrl).pathname.match(/^\/pay\/test\/setup\/([^/]+)$/)?.[1];
  if (!ref) throw new Error(`not a test setup page: ${redirectUrl}`);
  const page = await client.get(`/api/payment-methods/test/setups/${ref}`);
  if (page.statusCode !== 200) throw new Error(`test setup page failed: ${page.body}`);
  const choice = await client.post(`/api/payment-methods/test/setups/${ref}/choice`, {
    choice: "save",
    ...("card" in method ? { card: method.card } : {}),
  });
  if (choice.statusCode !== 200) throw new Error(`test setup choice failed: ${choice.body}`);
  await eventsDelivered(app);
  const back = new URL((choice.json() as { redirectUrl: string }).redirectUrl);
  const setupId = back.searchParams.get("setup");
  const done = await client.post(`/api/payment-methods/setups/${setupId}/complete`);
  if (done.statusCode !== 200) throw new Error(`setup completion failed: ${done.body}`);
  const state = done.json() as PaymentMethodSetupState;
  if (state.state !== "saved" || !state.method) throw new Error(`setup not saved: ${done.body}`);
  return state.method;
}
