import { randomUUID } from "node:crypto";
import type { Order, PlaceOrderInput } from "#domain/checkout";
import type { PaymentRedirect, TestPaymentChoice } from "#domain/payments";
import type { App } from "#server/app";
import type { createClient } from "#server/test/client";
import { payOrder } from "#server/test/payments";
import { testShippingAddress } from "#server/test/shipping";

type Client = ReturnType<typeof createClient>;

/**
 * One cart line: the product, how many (1 unless said), the unit price shown (as a number or as stored),
 * and for a recurring product its plan and whether its free trial is taken.
 */
export type OrderLine = {
  productId: string;
  quantity?: number;
  price: number | string;
  planId?: string;
  trial?: boolean;
};

/**
 * What a test says about its checkout: the lines, and any field of the request it cares about
 * (payment method, country, currency, business buyer, idempotency key, shipping address...).
 */
export type OrderOptions = Omit<Partial<PlaceOrderInput>, "items"> & { items: OrderLine[] };

/** The billing details every test checkout uses unless it says otherwise. */
export const testBilling = {
  fullName: "Bianca Buyer",
  email: "buyer@stackbay.test",
  address: "12 Harbour Street",
  city: "Dubai",
  country: "United Arab Emirates",
} as const;

/**
 * The body of `POST /api/orders` as the checkout sends it: the test billing details, card payment,
 * USD, a fresh idempotency key and the test shipping address (ignored for carts without hardware),
 * with the test's own fields over them.
 */
export function orderBody({ items, ...fields }: OrderOptions) {
  return {
    ...testBilling,
    paymentMethod: "stripe",
    currency: "USD",
    idempotencyKey: randomUUID(),
    shippingAddress: testShippingAddress,
    ...fields,
    items: items.map((line) => ({
      productId: line.productId,
      quantity: line.quantity ?? 1,
      price: Number(line.price),
      ...(line.planId ? { planId: line.planId } : {}),
      ...(line.trial ? { trial: true } : {}),
    })),
  } satisfies PlaceOrderInput;
}

/**
 * Places an order as `client` (checking the status code, 201 unless said) and answers the order's id
 * and where its payment page is; the order is not paid.
 */
export async function placeOrder(client: Client, options: OrderOptions, expectedStatus = 201) {
  const res = await client.post("/api/orders", orderBody(options));
  if (res.statusCode !== expectedStatus) {
    throw new Error(`placing the order answered ${res.statusCode}, not ${expectedStatus}: ${res.body}`);
  }
  return res.json() as PaymentRedirect;
}

/**
 * Places an order and pays it (or declines, or cancels) on the test provider's page like a buyer
 * (see `payOrder`); answers the order as it then is.
 */
export async function placeAndPay(
  app: App,
  client: Client,
  options: OrderOptions,
  choice: TestPaymentChoice = "pay",
): Promise<Order> {
  const { orderId } = await placeOrder(client, options);
  return payOrder(app, client, orderId, choice);
}
