import type { APIRequestContext, Page } from "playwright-core";
import { expect } from "vitest";
import type { Order } from "#domain/checkout";

/**
 * Pays an order placed through the API in test mode, as its buyer would on the test payment page
 * (with the page's cookies): presses Pay, then waits for the webhook to confirm it. Answers the order.
 */
export async function payPlacedOrder(
  request: APIRequestContext,
  placed: { orderId: string; redirectUrl: string },
): Promise<Order> {
  const ref = new URL(placed.redirectUrl).pathname.split("/").at(-1);
  const chose = await request.post(`/api/payments/test/sessions/${ref}/choice`, { data: { choice: "pay" } });
  expect(chose.status()).toBe(200);
  let order: Order | undefined;
  await expect
    .poll(async () => {
      order = ((await (await request.get(`/api/orders/${placed.orderId}`)).json()) as { order: Order }).order;
      return order.paymentStatus;
    })
    .toBe("mock_confirmed");
  if (!order) throw new Error("the order vanished");
  return order;
}

/** On the test payment page the checkout sent the browser to: Pay, then the confirmed return page. */
export async function payOnTestPage(page: Page): Promise<string> {
  await page.waitForURL((url) => url.pathname.startsWith("/pay/test/"));
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await page.waitForURL((url) => url.pathname === "/checkout/complete");
  await page.getByTestId("payment-confirmed").waitFor();
  return new URL(page.url()).searchParams.get("order") ?? "";
}
