import type { Page } from "playwright-core";
import { afterAll, describe, expect, test } from "vitest";
import type { ProductList } from "#domain/catalog-schemas";
import type { PaymentMethodList } from "#domain/payment-methods";
import { paths } from "#domain/routes";
import type { SubscriptionList } from "#domain/subscription-schemas";
import {
  demoApi,
  dialogReady,
  expectAccessible,
  newAccount,
  setupBrowser,
  showAt,
  snapshot,
  toast,
  viewports,
} from "./browser";
import { placeAndPay } from "./orders";

const browser = setupBrowser();

// Ending a subscription moves this server's clock on: the journeys its worker runs next start from now.
afterAll(async () => {
  expect((await demoApi("superadmin", "POST", "/api/test/clock/reset")).status).toBe(200);
});

let product: ProductList["items"][number];

async function monthlyProduct(page: Page) {
  const list = (await (
    await page.request.get("/api/products?unit=month&category=saas&pageSize=20")
  ).json()) as ProductList;
  const found = list.items.find((item) => item.pricingUnit === "month");
  if (!found) throw new Error("the demo catalogue has no SaaS product priced per month");
  return found;
}

const methodRows = (page: Page) => page.getByTestId("payment-method");

/** Add Payment Method on the wallet, then the test provider's page, as a buyer does. */
async function saveOnTestPage(page: Page, kind: "Card" | "PayPal") {
  await page.getByTestId("add-payment-method").click();
  const choices = page.getByTestId("payment-method-choices");
  await choices.waitFor();
  await choices.getByRole("button", { name: new RegExp(`^${kind}`) }).click();
  await page.waitForURL(/\/pay\/test\/setup\//);
  await page.getByTestId("test-setup").waitFor();
  return page;
}

describe("saved payment methods", () => {
  test("a new buyer saves a card and a PayPal account on the wallet, then renews a subscription on PayPal from the desk", async () => {
    const page = await browser.newPage();
    await newAccount(page, { firstName: "Wanda", accountType: "buyer" });
    product = await monthlyProduct(page);
    const order = await placeAndPay(page.request, {
      items: [{ productId: product.id, price: product.price }],
    });

    await page.goto(paths.dashboard("wallet"));
    await expect.poll(() => page.getByTestId("payment-methods-empty").isVisible()).toBe(true);

    // A card: the test page offers Stripe's kinds of test card; the first always pays.
    await saveOnTestPage(page, "Card");
    await snapshot(page, "payment-methods-test-setup");
    await expectAccessible(page);
    await page.getByRole("button", { name: "Save card" }).click();
    await page.waitForURL(/\/dashboard\/wallet/);
    await toast(page, "Visa •••• 4242 saved").waitFor();
    await expect.poll(() => methodRows(page).count()).toBe(1);
    await expect.poll(() => methodRows(page).first().textContent()).toContain("Default");
    // The setup's id leaves the address once answered: a reload asks nothing again.
    await expect.poll(() => new URL(page.url()).search).toBe("");

    // A PayPal account: saved, not the default.
    await saveOnTestPage(page, "PayPal");
    await page.getByRole("button", { name: "Save PayPal account" }).click();
    await page.waitForURL(/\/dashboard\/wallet/);
    await expect.poll(() => methodRows(page).count()).toBe(2);
    const saved = (await (await page.request.get("/api/payment-methods")).json()) as PaymentMethodList;
    expect(saved.methods.map((m) => [m.kind, m.isDefault])).toEqual([
      ["card", true],
      ["paypal", false],
    ]);
    for (const viewport of viewports()) {
      await showAt(page, viewport, 900);
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBe(viewport.width);
      await snapshot(page, `payment-methods-wallet-${viewport.width}-${viewport.theme}`, { fullPage: true });
    }
    await expectAccessible(page);

    // The renewal desk: the subscription renews on the default card until PayPal is chosen for it.
    await showAt(page, { width: 1280, theme: "light" }, 900);
    await page.goto(paths.dashboard("subscriptions"));
    const row = page.getByTestId("subscription-row").filter({ hasText: `Order ${order.id.slice(0, 8)}` });
    const method = row.getByTestId("subscription-payment-method");
    await expect.poll(() => method.textContent()).toMatch(/Visa •••• 4242.*\(default\)/);
    await row.getByTestId("change-payment-method").click();
    const dialog = page.getByTestId("payment-method-dialog");
    await dialogReady(dialog);
    await dialog.getByTestId("payment-method-option").filter({ hasText: "PayPal" }).click();
    await snapshot(page, "payment-methods-desk-dialog");
    await dialog.getByRole("button", { name: "Save" }).click();
    await toast(page, "Payment method changed").waitFor();
    await expect.poll(() => method.textContent()).toMatch(/PayPal/);
    const desk = (await (await page.request.get("/api/subscriptions")).json()) as SubscriptionList;
    expect(desk.items.find((s) => s.orderId === order.id)?.paymentMethod).toMatchObject({
      kind: "paypal",
      chosen: true,
    });
    for (const viewport of viewports()) {
      await showAt(page, viewport, 900);
      await snapshot(page, `payment-methods-desk-${viewport.width}-${viewport.theme}`, { fullPage: true });
    }
  });

  test("an ended subscription is subscribed again in one step, charged on the saved card", async () => {
    const page = await browser.newPage({ width: 375, theme: "dark" });
    await newAccount(page, { firstName: "Ezra", accountType: "buyer" });
    product ??= await monthlyProduct(page);
    const order = await placeAndPay(page.request, {
      items: [{ productId: product.id, price: product.price }],
    });
    await page.goto(paths.dashboard("wallet"));
    await saveOnTestPage(page, "Card");
    await page.getByRole("button", { name: "Save card" }).click();
    await page.waitForURL(/\/dashboard\/wallet/);
    await expect.poll(() => methodRows(page).count()).toBe(1);

    // Cancelled, and its period runs out.
    const desk = (await (await page.request.get("/api/subscriptions")).json()) as SubscriptionList;
    const mine = desk.items.find((s) => s.orderId === order.id);
    expect((await page.request.post(`/api/subscriptions/${mine?.id}/cancel`)).status()).toBe(200);
    expect((await demoApi("superadmin", "POST", "/api/test/clock", { advanceDays: 32 })).status).toBe(200);

    await page.goto(paths.dashboard("subscriptions"));
    const row = page.getByTestId("subscription-row").filter({ hasText: `Order ${order.id.slice(0, 8)}` });
    await row.getByTestId("subscribe-again").click();
    const confirm = page.getByRole("alertdialog");
    await dialogReady(confirm);
    await snapshot(page, "payment-methods-subscribe-again-375-dark");
    await confirm.getByRole("button", { name: "Subscribe again" }).click();
    // Charged on the card: straight to the order's confirmation, no payment page.
    await page.waitForURL(/\/checkout\/complete\?order=/);
    const again = new URL(page.url()).searchParams.get("order") ?? "";
    await expect
      .poll(async () => {
        const list = (await (await page.request.get("/api/subscriptions")).json()) as SubscriptionList;
        return list.items.find((s) => s.orderId === again)?.status;
      })
      .toBe("active");
    await snapshot(page, "payment-methods-subscribed-again-375-dark");
  });
});
