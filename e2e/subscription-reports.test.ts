import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ProductList } from "#domain/catalog-schemas";
import { formatDate } from "#domain/dates";
import { formatOwed, formatUsd, toUnits } from "#domain/money";
import type { AdminSubscriptionReport, SellerSubscriptionReport } from "#domain/subscription-report-schemas";
import { SAMIR_VENDOR } from "#server/db/seed/vendor-data";
import { readOutbox, waitForMail } from "#server/test/outbox";
import {
  baseUrl,
  dataDir,
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

// The dunning journey moves this server's clock on: the journeys its worker runs next start from now.
afterAll(async () => {
  expect((await demoApi("superadmin", "POST", "/api/test/clock/reset")).status).toBe(200);
});

let product: ProductList["items"][number];
/** The buyer this file makes: a first name of its own, so the seller's rows are told apart by it. */
let buyer: { email: string; firstName: string; subscriptionId: string } | undefined;

beforeAll(async () => {
  // The demo seller Samir's product sold per month, found as any shopper would find it.
  const query = new URLSearchParams({ unit: "month", vendor: SAMIR_VENDOR, pageSize: "20" });
  const list = (await (await fetch(`${baseUrl()}/api/products?${query}`)).json()) as ProductList;
  const found = list.items.find((item) => item.pricingUnit === "month" && item.vendor === SAMIR_VENDOR);
  if (!found) throw new Error(`the demo seller (${SAMIR_VENDOR}) sells nothing per month`);
  product = found;
});

async function sellerReport(): Promise<SellerSubscriptionReport> {
  const res = await demoApi("seller", "GET", "/api/seller/subscriptions");
  expect(res.status).toBe(200);
  return (await res.json()) as SellerSubscriptionReport;
}

async function adminReport(query: string): Promise<AdminSubscriptionReport> {
  const res = await demoApi("admin", "GET", `/api/admin/subscriptions?${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as AdminSubscriptionReport;
}

/** A new buyer subscribes to the product, once per file; answers who they are and the subscription. */
async function subscribeOnce() {
  if (buyer) return buyer;
  const page = await browser.newPage();
  const firstName = "Quillon";
  const { email } = await newAccount(page, { firstName, accountType: "buyer" });
  const order = await placeAndPay(page.request, {
    email,
    items: [{ productId: product.id, price: product.price }],
  });
  const mine = (await (await page.request.get("/api/subscriptions")).json()) as {
    items: { id: string; orderId: string }[];
  };
  const subscription = mine.items.find((s) => s.orderId === order.id);
  if (!subscription) throw new Error(`order ${order.id} started no subscription`);
  buyer = { email, firstName, subscriptionId: subscription.id };
  return buyer;
}

const figure = (page: Page, testId: string) => page.getByTestId(testId).locator("dd").first();
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe("the seller's and the admin's subscription views", () => {
  test("a new buyer's subscription to the demo seller's monthly product: in the seller's live list, and in the MRR", async () => {
    const before = await sellerReport();
    const { firstName } = await subscribeOnce();
    const after = await sellerReport();
    // A monthly plan counts its whole price, before tax.
    expect(toUnits(after.figures.mrr) - toUnits(before.figures.mrr)).toBe(toUnits(product.price));
    expect(after.figures.active).toBe(before.figures.active + 1);

    const page = await browser.newPage({ as: "seller" });
    await page.goto("/dashboard/recurring");
    await page.getByRole("heading", { level: 2, name: "Recurring revenue" }).waitFor();
    expect(await page.title()).toBe("Recurring revenue · Dashboard | Stackbay");
    const menu = page.getByRole("navigation", { name: "Dashboard menu" });
    expect(await menu.getByRole("link", { name: "Recurring revenue" }).getAttribute("aria-current")).toBe(
      "page",
    );
    await expect.poll(() => figure(page, "figure-mrr").textContent()).toBe(formatOwed(after.figures.mrr));
    expect(await figure(page, "figure-active").textContent()).toBe(String(after.figures.active));

    const row = page.getByTestId("live-row").filter({ hasText: product.name }).filter({ hasText: firstName });
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    expect(await row.getByTestId("subscription-status").textContent()).toBe("Active");
    expect(await row.getByTestId("live-mrr").textContent()).toBe(formatOwed(product.price));
    // A seller knows the buyer by first name, and nothing that reaches them.
    expect(await page.getByTestId("recurring-report").textContent()).not.toContain("@");

    for (const viewport of viewports()) {
      await showAt(page, viewport, 900);
      expect(await pageWidth(page), `${viewport.width} ${viewport.theme}`).toBeLessThanOrEqual(
        viewport.width,
      );
      await snapshot(page, `recurring-${viewport.width}-${viewport.theme}`, { fullPage: true });
    }
  });

  test("the admin's subscriptions page passes axe on a phone in the dark and on a desktop, and lists the subscription", async () => {
    const { email } = await subscribeOnce();
    const page = await browser.newPage({ as: "admin", width: 375, height: 812, theme: "dark" });
    await page.goto(`/admin/subscriptions?q=${encodeURIComponent(email)}`);
    await page.getByRole("heading", { level: 1, name: "Subscriptions" }).waitFor();
    expect(await page.title()).toBe("Subscriptions | Stackbay");
    const row = page.getByTestId("admin-live-row").filter({ hasText: email });
    await row.waitFor();
    expect(await row.textContent()).toContain(product.name);
    expect(await page.getByTestId("dunning-empty").textContent()).toBe(
      "No past-due renewal matches the search.",
    );
    const { figures } = await adminReport(`q=${encodeURIComponent(email)}`);
    expect(await figure(page, "figure-mrr").textContent()).toBe(formatUsd(figures.mrr));
    for (const viewport of viewports()) {
      await showAt(page, viewport, 812);
      const stacked = page.locator('[data-slot="table-frame"][data-stacked]');
      await expect.poll(() => stacked.count()).toBe(viewport.width < 768 ? 1 : 0);
      expect(await pageWidth(page), `${viewport.width} ${viewport.theme}`).toBeLessThanOrEqual(
        viewport.width,
      );
      // axe: the sweep checks this page at 375 px dark and 1366 px light.
      await snapshot(page, `admin-subscriptions-${viewport.width}-${viewport.theme}`, { fullPage: true });
    }
  });

  test("past its due date the renewal is in the dunning queue: Send reminder e-mails the buyer, Cancel subscription (asked first) takes it out", async () => {
    const { email, subscriptionId } = await subscribeOnce();
    // A month and a bit on: the renewal is invoiced, falls due unpaid and the renewal job reminds the buyer.
    const moved = await demoApi("superadmin", "POST", "/api/test/clock", { advanceDays: 32 });
    expect(moved.status).toBe(200);
    const { dunning } = await adminReport(`q=${encodeURIComponent(email)}`);
    expect(dunning.items.map((entry) => entry.subscriptionId)).toEqual([subscriptionId]);
    const entry = dunning.items[0];
    if (!entry) throw new Error("the renewal is not in the dunning queue");

    const page = await browser.newPage({ as: "admin", width: 375, height: 812, theme: "dark" });
    await page.goto(`/admin/subscriptions?q=${encodeURIComponent(email)}`);
    const row = page.getByTestId("dunning-row").filter({ hasText: email });
    await row.waitFor();
    expect(await row.textContent()).toContain(product.name);
    expect(await row.textContent()).toContain(formatUsd(entry.amountDue));
    expect(await row.getByTestId("dunning-reminders").textContent()).toBe(
      `${entry.remindersSent} sent${entry.nextReminderAt ? `next ${formatDate(entry.nextReminderAt)}` : "none left"}`,
    );
    expect(await pageWidth(page)).toBeLessThanOrEqual(375);
    await snapshot(page, "admin-dunning-375-dark", { fullPage: true });

    const reminders = async () =>
      (await readOutbox(dataDir())).filter((m) => m.to === email && m.subject.startsWith("Payment due:"))
        .length;
    // The renewal job's own reminders go out by the mail job, a moment after the clock moved.
    await expect.poll(reminders).toBe(entry.remindersSent);
    const sentBefore = entry.remindersSent;
    await row.getByRole("button", { name: `Send reminder for ${product.name} for ${email}` }).click();
    await toast(page, "Reminder sent", `the payment reminder is on its way to ${email}`).waitFor();
    await expect.poll(reminders).toBe(sentBefore + 1);

    const cancel = row.getByRole("button", { name: `Cancel subscription ${product.name} for ${email}` });
    await cancel.click();
    const dialog = page.getByRole("alertdialog");
    await dialogReady(dialog);
    expect(await dialog.getByRole("heading").textContent()).toBe(`Cancel ${product.name}?`);
    expect(await dialog.textContent()).toContain("Nothing is refunded");
    await expectAccessible(page);
    await snapshot(page, "admin-dunning-cancel-dialog-375-dark");
    // Go back changes nothing.
    await dialog.getByRole("button", { name: "Go back" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await row.count()).toBe(1);

    await cancel.click();
    await dialogReady(dialog);
    await dialog.getByRole("button", { name: "Cancel subscription" }).click();
    await toast(page, "Subscription cancelled", `${product.name} for ${email} has ended`).waitFor();
    await page.getByTestId("dunning-empty").waitFor();
    expect(await row.count()).toBe(0);
    // The keyboard is on the queue's heading, not lost at the top of the page.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent ?? ""))
      .toBe("Dunning queue");
    expect((await adminReport(`q=${encodeURIComponent(email)}`)).live.items).toEqual([]);
    await waitForMail(
      dataDir(),
      (m) => m.to === email && m.subject === `Your ${product.name} subscription has been cancelled`,
    );
  });
});
