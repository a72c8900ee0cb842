import type { APIRequestContext } from "playwright-core";
import { expect } from "vitest";
import type { Order } from "#domain/checkout";
import type { PaymentRedirect } from "#domain/payments";
import { type OrderOptions, orderBody } from "#server/test/orders";
import { payPlacedOrder } from "./payments";

/**
 * Places an order through the API as the page's signed-in user (with its cookies), with the same
 * request body the API tests build; answers the order's id and its payment page. Not paid.
 */
export async function placeOrder(
  request: APIRequestContext,
  options: OrderOptions,
): Promise<PaymentRedirect> {
  const res = await request.post("/api/orders", { data: orderBody(options) });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as PaymentRedirect;
}

/** Places an order and pays it on the test payment page; answers the confirmed order. */
export async function placeAndPay(request: APIRequestContext, options: OrderOptions): Promise<Order> {
  return payPlacedOrder(request, await placeOrder(request, options));
}
