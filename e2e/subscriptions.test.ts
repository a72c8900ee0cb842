import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ProductList } from "#domain/catalog-schemas";
import type { Order } from "#domain/checkout";
import { formatDate } from "#domain/dates";
import { LICENSE_KEY_PATTERN, LICENSED_CATEGORIES } from "#domain/licenses";
import { formatOwed } from "#domain/money";
import type { Subscription, SubscriptionList } from "#domain/subscription-schemas";
import {
  baseUrl,
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
import { payOnTestPage } from "./payments";

const browser = setupBrowser();

// The renewal journey moves this server's clock on: the journeys its worker runs next start from now.
afterAll(async () => {
  expect((await demoApi("superadmin", "POST", "/api/test/clock/reset")).status).toBe(200);
});

let product: ProductList["items"][number];
/** The order this file's buyer started a subscription with: its row is found by the order, not the product. */
let order: Order | undefined;

beforeAll(async () => {
  // A product sold per month in a licensed category, so the subscription comes with keys.
  const list = (await (
    await fetch(`${baseUrl()}/api/products?unit=month&category=saas&pageSize=20`)
  ).json()) as ProductList;
  const found = list.items.find((item) => item.pricingUnit === "month");
  if (!found) throw new Error("the demo catalogue has no SaaS product priced per month");
  product = found;
  expect(LICENSED_CATEGORIES).toContain(product.category);
});

/** Two seats of the monthly product, bought and paid by the demo buyer through the API (once per file). */
async function buyOnce(page: Page): Promise<Order> {
  order ??= await placeAndPay(page.request, {
    items: [{ productId: product.id, quantity: 2, price: product.price }],
  });
  return order;
}

async function subscriptionOf(page: Page, orderId: string): Promise<Subscription> {
  const res = await page.request.get("/api/subscriptions");
  expect(res.status(), await res.text()).toBe(200);
  const mine = ((await res.json()) as SubscriptionList).items.find((s) => s.orderId === orderId);
  if (!mine) throw new Error(`no subscription started by order ${orderId}`);
  return mine;
}

const rowOf = (page: Page, orderId: string) =>
  page.getByTestId("subscription-row").filter({ hasText: `Order ${orderId.slice(0, 8)}` });

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe("the renewal desk", () => {
  test("a bought monthly plan shows as Active with its renewal and keys; cancel, reload, keep", async () => {
    const page = await browser.newPage({ as: "buyer" });
    const bought = await buyOnce(page);
    const started = await subscriptionOf(page, bought.id);
    expect(started).toMatchObject({ status: "active", interval: "month", quantity: 2, due: null });
    expect(started.licenseKeys).toHaveLength(2);
    for (const key of started.licenseKeys) expect(key).toMatch(LICENSE_KEY_PATTERN);
    const renews = formatDate(started.paidThrough);

    await page.goto("/dashboard/subscriptions");
    await page.getByRole("heading", { level: 2, name: "Subscriptions" }).waitFor();
    expect(await page.title()).toBe("Subscriptions · Dashboard | Stackbay");
    expect(
      await page.getByText("Every subscription you hold, what it costs and when it renews.").isVisible(),
    ).toBe(true);
    const menu = page.getByRole("navigation", { name: "Dashboard menu" });
    expect(await menu.getByRole("link", { name: "Subscriptions" }).getAttribute("aria-current")).toBe("page");

    const row = rowOf(page, bought.id);
    await row.waitFor();
    expect(await row.getByTestId("subscription-product").textContent()).toBe(product.name);
    expect(await row.getByTestId("subscription-plan").textContent()).toBe("Monthly × 2");
    expect(await row.getByTestId("subscription-status").textContent()).toBe("Active");
    expect(await row.getByTestId("subscription-date").textContent()).toBe(`Renews on ${renews}`);
    expect(started.nextTotal).not.toBeNull();
    expect(await row.getByTestId("subscription-next").textContent()).toBe(
      formatOwed(started.nextTotal ?? "0"),
    );
    expect(await row.getByTestId("subscription-key").allTextContents()).toEqual(started.licenseKeys);
    expect(await row.getByTestId("subscription-order").getAttribute("href")).toBe(
      `/dashboard/orders/${bought.id}/invoice`,
    );
    expect(await row.getByRole("button", { name: "Pay now" }).count()).toBe(0);
    // axe: the sweep checks the demo buyer's desk, with subscriptions, at 1366 px light and 375 px dark.

    // Cancel renewal asks first, saying it stays usable until the paid period ends.
    await row.getByRole("button", { name: `Cancel renewal of ${product.name}` }).click();
    const dialog = page.getByRole("alertdialog");
    await dialogReady(dialog);
    expect(await dialog.getByRole("heading").textContent()).toBe(`Cancel the renewal of ${product.name}?`);
    expect(await dialog.textContent()).toContain(`until the period you paid for ends on ${renews}`);
    await expectAccessible(page);
    await snapshot(page, "subscriptions-cancel-dialog");
    await dialog.getByRole("button", { name: "Cancel renewal" }).click();
    await toast(page, "Renewal cancelled", `${product.name} ends on ${renews}.`).waitFor();
    await expect.poll(() => row.getByTestId("subscription-status").textContent()).toBe("Cancelling");
    expect(await row.getByTestId("subscription-date").textContent()).toBe(`Ends on ${renews}`);
    await snapshot(page, "subscriptions-cancelling", { fullPage: true });
    // The keyboard stays where it was: on the button, which now undoes the cancellation.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent ?? ""))
      .toContain("Keep subscription");
    expect((await subscriptionOf(page, bought.id)).status).toBe("cancelling");

    // The server keeps it.
    await page.reload();
    await rowOf(page, bought.id).waitFor();
    expect(await rowOf(page, bought.id).getByTestId("subscription-status").textContent()).toBe("Cancelling");
    expect(await rowOf(page, bought.id).getByTestId("subscription-date").textContent()).toBe(
      `Ends on ${renews}`,
    );

    await rowOf(page, bought.id)
      .getByRole("button", { name: `Keep subscription to ${product.name}` })
      .click();
    await toast(page, "Subscription will renew", `${product.name} renews on ${renews}.`).waitFor();
    await expect
      .poll(() => rowOf(page, bought.id).getByTestId("subscription-status").textContent())
      .toBe("Active");
    expect(await rowOf(page, bought.id).getByTestId("subscription-date").textContent()).toBe(
      `Renews on ${renews}`,
    );
    expect((await subscriptionOf(page, bought.id)).status).toBe("active");
  });

  test("on a phone in the dark the desk stacks into cards, fits the screen and passes axe", async () => {
    const page = await browser.newPage({ as: "buyer", width: 375, height: 812, theme: "dark" });
    const bought = await buyOnce(page);
    const { licenseKeys } = await subscriptionOf(page, bought.id);
    await page.goto("/dashboard/subscriptions");
    const row = rowOf(page, bought.id);
    await row.waitFor();
    for (const viewport of viewports()) {
      await showAt(page, viewport, 812);
      // Narrower than the table, the frame stacks it as cards.
      const stacked = page.locator('[data-slot="table-frame"][data-stacked]');
      await expect.poll(() => stacked.count()).toBe(viewport.width < 768 ? 1 : 0);
      expect(await pageWidth(page), `${viewport.width} ${viewport.theme}`).toBeLessThanOrEqual(
        viewport.width,
      );
      expect(await row.getByTestId("subscription-key").allTextContents()).toEqual(licenseKeys);
      expect(await row.getByRole("button", { name: `Cancel renewal of ${product.name}` }).isVisible()).toBe(
        true,
      );
      // axe: the sweep checks the desk at 375 px dark and 1366 px light.
      await snapshot(page, `subscriptions-${viewport.width}-${viewport.theme}`, { fullPage: true });
    }
  });

  test("a buyer who holds none is told so and pointed at the products", async () => {
    const page = await browser.newPage({ width: 375, height: 812, theme: "dark" });
    await newAccount(page, { firstName: "Sunny", accountType: "buyer" });
    await page.goto("/dashboard/subscriptions");
    await page.getByRole("heading", { level: 3, name: "No subscriptions yet" }).waitFor();
    expect(await page.getByRole("link", { name: "Browse Products" }).getAttribute("href")).toBe("/products");
    expect(await pageWidth(page)).toBeLessThanOrEqual(375);
    await expectAccessible(page);
    await snapshot(page, "subscriptions-empty-375-dark", { fullPage: true });
  });

  test("a renewal falls due: the desk asks for it, Pay now pays it on the payment page, and the subscription renews (phone)", async () => {
    const page = await browser.newPage({ width: 375, height: 812 });
    await newAccount(page, { firstName: "Rhea", accountType: "buyer" });
    const bought = await placeAndPay(page.request, {
      items: [{ productId: product.id, quantity: 1, price: product.price }],
    });
    const started = await subscriptionOf(page, bought.id);
    // Three days before the period ends its renewal is invoiced (the server's renewal job, run by the clock).
    const moved = await demoApi("superadmin", "POST", "/api/test/clock", { advanceDays: 28 });
    expect(moved.status).toBe(200);
    const due = await subscriptionOf(page, bought.id);
    expect(due.due?.dueAt).toBe(started.paidThrough);

    await page.goto("/dashboard/subscriptions");
    const row = rowOf(page, bought.id);
    await row.waitFor();
    expect(await row.getByTestId("subscription-status").textContent()).toBe("Active");
    expect(await row.getByTestId("subscription-date").textContent()).toBe(
      `Payment due on ${formatDate(started.paidThrough)}`,
    );
    expect(await row.getByTestId("subscription-next").textContent()).toBe(formatOwed(due.due?.total ?? "0"));
    expect(await pageWidth(page)).toBeLessThanOrEqual(375);
    // axe: the sweep checks a desk with a renewal to pay (the demo buyer's past-due one).
    await row.getByRole("button", { name: "Pay now" }).click();
    expect(await payOnTestPage(page)).toBe(due.due?.orderId);

    const renewed = await subscriptionOf(page, bought.id);
    expect(renewed).toMatchObject({ status: "active", due: null, licenseKeys: started.licenseKeys });
    expect(new Date(renewed.paidThrough).getTime()).toBeGreaterThan(new Date(started.paidThrough).getTime());
    await page.goto("/dashboard/subscriptions");
    await expect
      .poll(() => rowOf(page, bought.id).getByTestId("subscription-date").textContent())
      .toBe(`Renews on ${formatDate(renewed.paidThrough)}`);
    expect(await rowOf(page, bought.id).getByRole("button", { name: "Pay now" }).count()).toBe(0);
  });
});
