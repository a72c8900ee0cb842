import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ProductDetail, ProductList, ProductPlan } from "#domain/catalog-schemas";
import type { Order } from "#domain/checkout";
import { formatDate } from "#domain/dates";
import { LICENSE_KEY_PATTERN, LICENSED_CATEGORIES } from "#domain/licenses";
import { centsAmount, computeTotals, formatOwed } from "#domain/money";
import { CALENDAR_CSV_HEADER, calendarByMonth, renewalCalendar } from "#domain/renewal-calendar";
import { paths } from "#domain/routes";
import type { Subscription, SubscriptionChangePreview, SubscriptionList } from "#domain/subscription-schemas";
import { trialEndsAt } from "#domain/subscriptions";
import { demoProductId } from "#server/db/seed/demo";
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
import { placeAndPay, placeOrder } from "./orders";
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

/** A per-seat product with a monthly and a yearly plan, each with a 14-day trial the demo buyer has not had. */
const TRIAL_PRODUCT = "Nimbus CRM Pro";
const trialProductId = demoProductId("nimbus-crm-pro");
/** The buyer of these journeys is in the UAE: 5% VAT. */
const UAE_VAT = "0.05";

const cartOf = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem("stackbay.cart") ?? "[]") as Record<string, unknown>[]);

/** The checkout's billing details, filled in as the buyer would; card payment. */
async function fillCheckout(page: Page) {
  await page.getByRole("heading", { level: 1, name: "Checkout" }).waitFor();
  await page.getByLabel("Full name").fill("Bianca Buyer");
  await page.getByLabel("Address").fill("12 Harbour Street");
  await page.getByLabel("City").fill("Dubai");
  await page.getByLabel("Country").selectOption("United Arab Emirates");
  await page.getByRole("radio", { name: "Credit/Debit Card" }).check();
}

/** One of the trial product's plans, by name, as the API gives it. */
async function planOf(page: Page, name: string): Promise<ProductPlan> {
  const res = await page.request.get(`/api/products/${trialProductId}`);
  const plan = ((await res.json()) as ProductDetail).plans.find((p) => p.name === name);
  if (!plan) throw new Error(`${TRIAL_PRODUCT} has no plan named ${name}`);
  return plan;
}

const orderAnswer = (page: Page) =>
  page.waitForResponse((r) => new URL(r.url()).pathname === "/api/orders" && r.request().method() === "POST");

describe("plans and free trials", () => {
  test("a buyer picks the yearly plan, starts its free trial with nothing to pay, and the desk shows the trial; cancelling it charges nothing", async () => {
    const page = await browser.newPage({ as: "buyer", width: 1280, height: 900 });
    await page.goto(paths.product(trialProductId));
    await page.getByRole("heading", { level: 1, name: TRIAL_PRODUCT }).waitFor();
    const summary = page.getByTestId("product-summary");
    const picker = summary.getByRole("group", { name: "Choose a plan" });
    const monthly = picker.getByRole("radio", { name: "Per seat", exact: true });
    const yearly = picker.getByRole("radio", { name: "Yearly", exact: true });
    // The first plan is chosen to begin with, and it is the listed price.
    expect(await monthly.isChecked()).toBe(true);
    await expect.poll(() => summary.getByTestId("price").first().textContent()).toBe("$49 / user / month");
    expect(await picker.getByTestId("plan-price").allTextContents()).toEqual([
      "$49 / user / month",
      "$490 / user / year",
    ]);
    expect(await picker.getByTestId("plan-trial").allTextContents()).toEqual([
      "14-day free trial",
      "14-day free trial",
    ]);
    expect(await yearly.getAttribute("aria-describedby")).toBeTruthy();

    // A radio group: the arrow key moves the choice, and the price at the top follows it.
    await monthly.focus();
    await page.keyboard.press("ArrowDown");
    expect(await yearly.isChecked()).toBe(true);
    await expect.poll(() => summary.getByTestId("price").first().textContent()).toBe("$490 / user / year");
    // The listed price's discount is the first plan's: the yearly plan shows none struck through.
    expect(await summary.getByTestId("original-price").count()).toBe(0);
    const startTrial = summary.getByRole("button", { name: "Start 14-day free trial" });
    for (const viewport of viewports()) {
      await showAt(page, viewport, 900);
      expect(await pageWidth(page), `${viewport.width} ${viewport.theme}`).toBeLessThanOrEqual(
        viewport.width,
      );
      expect(await startTrial.isVisible()).toBe(true);
      await snapshot(page, `plans-product-${viewport.width}-${viewport.theme}`);
    }
    await showAt(page, { width: 1280, theme: "light" }, 900);
    await expectAccessible(page);

    // The trial goes to the cart: nothing to pay now, the plan's price after it.
    await startTrial.click();
    await page.waitForURL((url) => url.pathname === "/cart");
    const line = page.getByTestId("cart-item").filter({ hasText: TRIAL_PRODUCT });
    await line.waitFor();
    expect(await line.getByTestId("cart-item-plan").textContent()).toBe("Yearly plan · 1–99 seats");
    expect(await line.getByTestId("cart-item-trial").textContent()).toBe(
      "Free for 14 days, then $490.00 / user / year",
    );
    expect(await line.getByTestId("cart-item-total").textContent()).toBe("$0.00");
    expect(await page.getByTestId("cart-subtotal").textContent()).toBe("$0.00");
    await snapshot(page, "plans-cart-trial", { fullPage: true });

    await page.getByRole("link", { name: "Proceed to Checkout" }).click();
    await fillCheckout(page);
    const checkoutLine = page.getByTestId("checkout-line").filter({ hasText: TRIAL_PRODUCT });
    const firstCharge = formatDate(trialEndsAt(new Date(), 14));
    expect(await checkoutLine.getByTestId("checkout-line-plan").textContent()).toBe("Yearly plan");
    expect(await checkoutLine.getByTestId("checkout-line-trial").textContent()).toBe(
      "Free trial — $0.00 today",
    );
    expect(await checkoutLine.getByTestId("checkout-line-first-charge").textContent()).toBe(
      `First charge on ${firstCharge}`,
    );
    await expect.poll(() => page.getByTestId("checkout-total").textContent()).toBe("$0.00");
    expect(await page.getByTestId("trials-only-note").isVisible()).toBe(true);
    await snapshot(page, "plans-checkout-trial", { fullPage: true });

    // Nothing to pay: the order is confirmed at once, without a payment page.
    const answer = orderAnswer(page);
    await page.getByRole("button", { name: "Place Order" }).click();
    const placed = await answer;
    expect(placed.status()).toBe(201);
    const sent = placed.request().postDataJSON() as { items: unknown[] };
    const yearlyPlan = (await planOf(page, "Yearly")).id;
    expect(sent.items).toEqual([
      { productId: trialProductId, quantity: 1, price: 490, planId: yearlyPlan, trial: true },
    ]);
    await page.waitForURL((url) => url.pathname === "/checkout/complete");
    await page.getByTestId("payment-confirmed").waitFor();
    expect(await page.getByTestId("confirmed-total").textContent()).toBe("$0.00");
    await expect.poll(() => cartOf(page)).toEqual([]);
    const orderId = new URL(page.url()).searchParams.get("order") ?? "";

    const started = await subscriptionOf(page, orderId);
    expect(started).toMatchObject({
      status: "trialing",
      planName: "Yearly",
      interval: "year",
      quantity: 1,
      due: null,
      priceChange: null,
    });
    expect(started.trialEndsAt).toBe(started.paidThrough);
    const ends = formatDate(started.trialEndsAt ?? "");
    expect(ends).toBe(firstCharge);
    expect(started.nextTotal).toBe(computeTotals([{ price: "490.00", quantity: 1 }], "0.05").total);

    // The desk: a Trial, when it ends and what is charged then, and the plan beside the product.
    await page.goto("/dashboard/subscriptions");
    const row = rowOf(page, orderId);
    await row.waitFor();
    expect(await row.getByTestId("subscription-product").textContent()).toBe(TRIAL_PRODUCT);
    // The plan is called what its interval is: the Plan column says it once.
    expect(await row.getByTestId("subscription-plan").textContent()).toBe("Yearly");
    expect(await row.getByTestId("subscription-plan-name").count()).toBe(0);
    expect(await row.getByTestId("subscription-status").textContent()).toBe("Trial");
    expect(await row.getByTestId("subscription-date").textContent()).toBe(
      `Trial ends ${ends}, then ${formatOwed(started.nextTotal ?? "0")}`,
    );
    expect(await row.getByTestId("subscription-next").textContent()).toBe(
      formatOwed(started.nextTotal ?? "0"),
    );
    for (const viewport of viewports()) {
      await showAt(page, viewport, 900);
      expect(await pageWidth(page), `${viewport.width} ${viewport.theme}`).toBeLessThanOrEqual(
        viewport.width,
      );
      await row.getByTestId("subscription-status").scrollIntoViewIfNeeded();
      expect(await row.getByTestId("subscription-status").isVisible()).toBe(true);
      await snapshot(page, `plans-desk-${viewport.width}-${viewport.theme}`);
    }
    await showAt(page, { width: 1280, theme: "light" }, 900);

    // Cancelling a trial says nothing will be charged; it then ends with the trial.
    await row.getByRole("button", { name: `Cancel trial of ${TRIAL_PRODUCT}` }).click();
    const dialog = page.getByRole("alertdialog");
    await dialogReady(dialog);
    expect(await dialog.getByRole("heading").textContent()).toBe(
      `Cancel the free trial of ${TRIAL_PRODUCT}?`,
    );
    const said = await dialog.textContent();
    expect(said).toContain("Nothing will be charged.");
    expect(said).toContain(`It ends with its free trial on ${ends}; until then you can keep using it`);
    await expectAccessible(page);
    await snapshot(page, "plans-cancel-trial-dialog");
    await dialog.getByRole("button", { name: "Cancel trial" }).click();
    await toast(
      page,
      "Trial cancelled",
      `${TRIAL_PRODUCT} ends on ${ends}. Nothing will be charged.`,
    ).waitFor();
    await expect.poll(() => row.getByTestId("subscription-status").textContent()).toBe("Cancelling");
    expect(await row.getByTestId("subscription-date").textContent()).toBe(`Ends on ${ends}`);
    expect(await row.getByTestId("subscription-date-note").textContent()).toBe(
      "Trial cancelled: nothing will be charged",
    );
    expect(await row.getByTestId("subscription-next").count()).toBe(0);

    // Kept after all, it is a trial again.
    await row.getByRole("button", { name: `Keep subscription to ${TRIAL_PRODUCT}` }).click();
    await toast(page, "Trial continues").waitFor();
    await expect.poll(() => row.getByTestId("subscription-status").textContent()).toBe("Trial");
    expect((await subscriptionOf(page, orderId)).status).toBe("trialing");
  });

  test("a second free trial of the same product is refused: the checkout says so, drops the trial and places the order at the plan's price (phone, dark)", async () => {
    const page = await browser.newPage({
      as: "buyer",
      width: 375,
      height: 812,
      theme: "dark",
      allowErrors: [/status of 409/],
    });
    // The buyer has had this product's trial (the journey before, or here when it runs alone).
    const { items } = (await (await page.request.get("/api/subscriptions")).json()) as SubscriptionList;
    if (!items.some((s) => s.productId === trialProductId && s.trialEndsAt !== null)) {
      const plan = await planOf(page, "Per seat");
      await placeOrder(page.request, {
        items: [{ productId: trialProductId, price: plan.price, planId: plan.id, trial: true }],
      });
    }

    await page.goto(paths.product(trialProductId));
    const summary = page.getByTestId("product-summary");
    await summary.getByRole("button", { name: "Start 14-day free trial" }).click();
    await page.waitForURL((url) => url.pathname === "/cart");
    const line = page.getByTestId("cart-item").filter({ hasText: TRIAL_PRODUCT });
    expect(await line.getByTestId("cart-item-trial").textContent()).toBe(
      "Free for 14 days, then $49.00 / user / month",
    );
    await page.getByRole("link", { name: "Proceed to Checkout" }).click();
    await fillCheckout(page);

    const refused = orderAnswer(page);
    await page.getByRole("button", { name: "Place Order" }).click();
    const refusal = await refused;
    expect(refusal.status()).toBe(409);
    const { code, message } = (await refusal.json()) as { code: string; message: string };
    expect(code).toBe("TRIAL_USED");

    // The server's words; the cart now buys the plan outright, and the summary shows the new total.
    const notice = page.getByRole("alert").filter({ hasText: "Free trial already used" });
    await notice.waitFor();
    expect(await notice.getByTestId("trial-used-message").textContent()).toBe(message);
    const total = formatOwed(computeTotals([{ price: "49.00", quantity: 1 }], UAE_VAT).total);
    expect(total).toBe("$51.45");
    await expect.poll(() => page.getByTestId("checkout-total").textContent()).toBe(total);
    expect(await notice.getByTestId("trial-used-total").textContent()).toBe(total);
    const checkoutLine = page.getByTestId("checkout-line").filter({ hasText: TRIAL_PRODUCT });
    expect(await checkoutLine.getByTestId("checkout-line-trial").count()).toBe(0);
    expect((await cartOf(page))[0]?.trial).toBe(false);
    expect(await page.getByTestId("trials-only-note").count()).toBe(0);
    expect(await pageWidth(page)).toBeLessThanOrEqual(375);
    await expectAccessible(page);
    await snapshot(page, "plans-trial-used-375-dark", { fullPage: true });

    // Placed again, it is paid at the plan's price and starts without a trial.
    await page.getByRole("button", { name: "Place Order" }).click();
    const orderId = await payOnTestPage(page);
    const bought = await subscriptionOf(page, orderId);
    expect(bought).toMatchObject({ status: "active", planName: "Per seat", trialEndsAt: null, quantity: 1 });
    // On the desk its plan's name is beside its interval.
    await page.goto("/dashboard/subscriptions");
    const row = rowOf(page, orderId);
    await row.waitFor();
    expect(await row.getByTestId("subscription-plan-name").textContent()).toBe("Per seat");
    expect(await row.getByTestId("subscription-plan").textContent()).toBe("Monthly");
    expect(await row.getByTestId("subscription-status").textContent()).toBe("Active");
  });
});

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

    // The renewal calendar lists what the desk's own answer gives for the coming 12 months, by month,
    // and its .csv link downloads the same renewals.
    const { items, asOf } = (await (await page.request.get("/api/subscriptions")).json()) as SubscriptionList;
    const renewals = renewalCalendar(items, new Date(asOf));
    const calendar = page.getByTestId("renewal-calendar");
    await calendar.getByRole("heading", { level: 3, name: "Renewal calendar" }).waitFor();
    expect(await calendar.getByTestId("calendar-renewal").count()).toBe(renewals.length);
    expect(await calendar.getByRole("heading", { level: 4 }).allTextContents()).toEqual(
      calendarByMonth(renewals).map((month) => month.label),
    );
    expect(await calendar.getByTestId("calendar-ics").getAttribute("href")).toBe(
      "/api/subscriptions/calendar.ics",
    );
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      calendar.getByRole("link", { name: "Download .csv" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("stackbay-renewals.csv");
    const rows = (await readFile((await download.path()) ?? "", "utf8")).trimEnd().split("\r\n");
    expect(rows[0]).toBe(CALENDAR_CSV_HEADER.join(","));
    expect(rows).toHaveLength(renewals.length + 1);
    expect(rows.filter((row) => row.includes(`,"${product.name}",`))).toHaveLength(
      renewals.filter((r) => r.productName === product.name).length,
    );
    expect(renewals.some((r) => r.subscriptionId === items.find((i) => i.orderId === bought.id)?.id)).toBe(
      true,
    );
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

describe("changing plan or seats", () => {
  /** The next preview the desk's dialog asks of the server for `subscriptionId`, and its answer. */
  const previewAnswer = (page: Page, subscriptionId: string) =>
    page.waitForResponse(
      (r) => new URL(r.url()).pathname === `/api/subscriptions/${subscriptionId}/change/preview`,
    );
  const commitAnswer = (page: Page, subscriptionId: string) =>
    page.waitForResponse((r) => new URL(r.url()).pathname === `/api/subscriptions/${subscriptionId}/change`);

  test("a buyer adds a seat from the desk: the exact price first, Confirm change pays it on the payment page and the card shows the seats; fewer seats wait for the period's end, and a price that moved is shown again before it is confirmed (phone and desktop)", async () => {
    const page = await browser.newPage({
      width: 375,
      height: 812,
      theme: "dark",
      // The stale commit below is answered 409 on purpose.
      allowErrors: [/status of 409/],
    });
    await newAccount(page, { firstName: "Cato", accountType: "buyer" });
    const perSeat = await planOf(page, "Per seat");
    const bought = await placeAndPay(page.request, {
      items: [{ productId: trialProductId, quantity: 2, price: perSeat.price, planId: perSeat.id }],
    });
    const started = await subscriptionOf(page, bought.id);
    expect(started).toMatchObject({
      status: "active",
      planId: perSeat.id,
      planName: "Per seat",
      interval: "month",
      quantity: 2,
      pendingChange: null,
    });

    await page.goto("/dashboard/subscriptions");
    const row = rowOf(page, bought.id);
    await row.waitFor();
    expect(await row.getByTestId("subscription-plan").textContent()).toBe("Monthly × 2");
    const changePlan = row.getByRole("button", { name: `Change plan of ${TRIAL_PRODUCT}` });
    // Beside Cancel renewal.
    expect(await row.getByTestId("subscription-actions").getByRole("button").allTextContents()).toEqual([
      `Change plan of ${TRIAL_PRODUCT}`,
      `Cancel renewal of ${TRIAL_PRODUCT}`,
    ]);
    await changePlan.click();
    const dialog = page.getByRole("alertdialog");
    await dialogReady(dialog);
    expect(await dialog.getByRole("heading").textContent()).toBe(`Change the plan of ${TRIAL_PRODUCT}`);
    // The product's plans as a radio group, the one held now chosen and marked, and its seats.
    const picker = dialog.getByRole("group", { name: "Choose a plan" });
    await picker.waitFor();
    expect(await picker.getByRole("radio").count()).toBe(2);
    expect(await picker.getByRole("radio", { name: "Per seat (current plan)" }).isChecked()).toBe(true);
    const seats = dialog.getByLabel("Seats", { exact: true });
    expect(await seats.inputValue()).toBe("2");
    // The terms held now are no change: nothing is priced, nothing can be confirmed.
    await dialog.getByTestId("change-preview-unchanged").waitFor();
    const confirm = dialog.getByRole("button", { name: "Confirm change" });
    expect(await confirm.isDisabled()).toBe(true);

    // One seat more: charged now for the rest of the period, less the unused part of the old terms.
    let priced = previewAnswer(page, started.id);
    await seats.fill("3");
    let answer = await priced;
    expect(answer.status()).toBe(200);
    expect(answer.request().postDataJSON()).toEqual({ planId: perSeat.id, seats: 3 });
    const more = (await answer.json()) as SubscriptionChangePreview;
    expect(more).toMatchObject({
      kind: "now",
      planId: perSeat.id,
      seats: 3,
      perSeat: true,
      interval: "month",
    });
    expect(more.dueCents).toBe(more.chargeCents - more.creditCents);
    expect(more.dueCents).toBeGreaterThan(0);
    expect(more.nextChargeAt).toBe(started.paidThrough);
    const summary = dialog.getByTestId("change-preview-summary");
    await expect
      .poll(() => summary.textContent())
      .toBe(`Charged now: ${formatOwed(more.dueTotal)} (incl. ${formatOwed(more.dueTax)} tax)`);
    expect(await dialog.getByTestId("change-preview-credit").locator("dt").textContent()).toBe(
      "Credit for unused time on your current plan",
    );
    expect(await dialog.getByTestId("change-preview-credit").locator("dd").textContent()).toBe(
      `−${formatOwed(centsAmount(more.creditCents))}`,
    );
    expect(await dialog.getByTestId("change-preview-charge").locator("dt").textContent()).toBe(
      "New plan for the rest of this period",
    );
    expect(await dialog.getByTestId("change-preview-charge").locator("dd").textContent()).toBe(
      formatOwed(centsAmount(more.chargeCents)),
    );
    expect(await dialog.getByTestId("change-preview-next").textContent()).toBe(
      `Then ${formatOwed(more.nextTotal)} on ${formatDate(more.nextChargeAt)}.`,
    );
    expect(await confirm.isEnabled()).toBe(true);
    for (const viewport of viewports()) {
      await showAt(page, viewport, viewport.width < 768 ? 812 : 900);
      expect(await pageWidth(page), `${viewport.width} ${viewport.theme}`).toBeLessThanOrEqual(
        viewport.width,
      );
      // The dialog fits the screen: it scrolls inside itself, never sideways.
      const box = await dialog.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= viewport.width).toBe(true);
      await snapshot(page, `subscription-change-now-${viewport.width}-${viewport.theme}`);
    }
    await showAt(page, { width: 375, theme: "dark" }, 812);
    await expectAccessible(page);

    // Confirmed, the change's order is paid on the test payment page, as the desk's Pay now pays one.
    const committed = commitAnswer(page, started.id);
    await confirm.click();
    const commit = await committed;
    expect(commit.status()).toBe(200);
    expect(commit.request().postDataJSON()).toEqual({
      planId: perSeat.id,
      seats: 3,
      pricedAt: more.pricedAt,
      token: more.token,
    });
    const { change } = (await commit.json()) as { change: { status: string; orderId: string | null } };
    expect(change.status).toBe("awaiting_payment");
    // Confirm change opened the change's payment page; the buyer comes back to the desk before paying:
    // the card says the change waits for its payment, and its Pay now pays it.
    await page.waitForURL((url) => url.pathname.startsWith("/pay/test/"));
    await page.goto("/dashboard/subscriptions");
    const waiting = rowOf(page, bought.id);
    await expect
      .poll(() => waiting.getByTestId("subscription-pending-change").textContent())
      .toBe("Change to Per seat awaits payment");
    expect(await waiting.getByTestId("subscription-plan").textContent()).toBe("Monthly × 2");
    await waiting.getByTestId("subscription-actions").scrollIntoViewIfNeeded();
    await snapshot(page, "subscription-change-awaiting-375-dark");
    await waiting.getByRole("button", { name: `Pay now for the change of plan of ${TRIAL_PRODUCT}` }).click();
    expect(await payOnTestPage(page)).toBe(change.orderId);

    const paid = await subscriptionOf(page, bought.id);
    expect(paid).toMatchObject({ quantity: 3, pendingChange: null, paidThrough: started.paidThrough });
    await page.goto("/dashboard/subscriptions");
    await expect
      .poll(() => rowOf(page, bought.id).getByTestId("subscription-plan").textContent())
      .toBe("Monthly × 3");
    expect(await rowOf(page, bought.id).getByTestId("subscription-pending-change").count()).toBe(0);

    // Fewer seats: nothing is charged now, the change waits for the period's end.
    await rowOf(page, bought.id)
      .getByRole("button", { name: `Change plan of ${TRIAL_PRODUCT}` })
      .click();
    await dialogReady(dialog);
    expect(await seats.inputValue()).toBe("3");
    priced = previewAnswer(page, started.id);
    await seats.fill("1");
    answer = await priced;
    expect(answer.status()).toBe(200);
    const fewer = (await answer.json()) as SubscriptionChangePreview;
    expect(fewer).toMatchObject({
      kind: "at_period_end",
      seats: 1,
      dueCents: 0,
      effectiveAt: started.paidThrough,
    });
    await expect
      .poll(() => summary.textContent())
      .toBe(
        `Nothing is charged now. From ${formatDate(fewer.effectiveAt)} you pay ${formatOwed(fewer.nextTotal)} per month.`,
      );
    expect(fewer.nextTotal).toBe(computeTotals([{ price: perSeat.price, quantity: 1 }], UAE_VAT).total);
    await snapshot(page, "subscription-change-later-375-dark");

    // Meanwhile the subscription moves on (another change, made elsewhere): the price shown is stale. The
    // commit is refused, the dialog says so and shows the new price, and only a second Confirm commits it.
    const elsewhere = await page.request.post(`/api/subscriptions/${started.id}/change/preview`, {
      data: { planId: perSeat.id, seats: 2 },
    });
    const other = (await elsewhere.json()) as SubscriptionChangePreview;
    const made = await page.request.post(`/api/subscriptions/${started.id}/change`, {
      data: { planId: perSeat.id, seats: 2, pricedAt: other.pricedAt, token: other.token },
    });
    expect(made.status(), await made.text()).toBe(200);
    const refused = commitAnswer(page, started.id);
    priced = previewAnswer(page, started.id);
    await confirm.click();
    expect((await refused).status()).toBe(409);
    expect(((await (await refused).json()) as { code: string }).code).toBe("PREVIEW_STALE");
    const again = (await (await priced).json()) as SubscriptionChangePreview;
    expect(again.token).not.toBe(fewer.token);
    expect(await dialog.getByTestId("change-preview-stale").textContent()).toBe(
      "The price changed. Review the new price and confirm again.",
    );
    await expect
      .poll(() => summary.textContent())
      .toBe(
        `Nothing is charged now. From ${formatDate(again.effectiveAt)} you pay ${formatOwed(again.nextTotal)} per month.`,
      );
    // The desk was refreshed with it: confirming replaces that change.
    await expect
      .poll(() => dialog.textContent())
      .toContain("Confirming replaces the change you made before.");
    await expectAccessible(page);
    await snapshot(page, "subscription-change-stale-375-dark");

    const confirmed = commitAnswer(page, started.id);
    await confirm.click();
    const scheduled = await confirmed;
    expect(scheduled.status()).toBe(200);
    expect(scheduled.request().postDataJSON()).toMatchObject({ seats: 1, token: again.token });
    const ends = formatDate(started.paidThrough);
    await toast(
      page,
      "Change scheduled",
      `${TRIAL_PRODUCT} changes to Per seat, 1 seat on ${ends}.`,
    ).waitFor();
    await dialog.waitFor({ state: "detached" });
    const card = rowOf(page, bought.id);
    await expect
      .poll(() => card.getByTestId("subscription-pending-change").textContent())
      .toBe(`Changing to Per seat, 1 seat on ${ends}`);
    // Until then it keeps its three seats.
    expect(await card.getByTestId("subscription-plan").textContent()).toBe("Monthly × 3");
    expect(await subscriptionOf(page, bought.id)).toMatchObject({
      quantity: 3,
      pendingChange: {
        status: "scheduled",
        quantity: 1,
        planName: "Per seat",
        effectiveAt: started.paidThrough,
      },
    });
    for (const viewport of viewports()) {
      await showAt(page, viewport, viewport.width < 768 ? 812 : 900);
      expect(await pageWidth(page), `${viewport.width} ${viewport.theme}`).toBeLessThanOrEqual(
        viewport.width,
      );
      await card.getByTestId("subscription-pending-change").scrollIntoViewIfNeeded();
      expect(await card.getByTestId("subscription-pending-change").isVisible()).toBe(true);
      await snapshot(page, `subscription-change-scheduled-${viewport.width}-${viewport.theme}`);
    }
    await showAt(page, { width: 1280, theme: "light" }, 900);
    await expectAccessible(page);
  });
});
