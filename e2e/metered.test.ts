import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import type { ProductDetail, ProductList } from "#domain/catalog-schemas";
import { rateUsage, type UsageSummary, usageLabel } from "#domain/metering";
import { formatOwed, formatUsd, toUnits } from "#domain/money";
import type { PlanList } from "#domain/plan-schemas";
import { paths } from "#domain/routes";
import type { SellerApiKeyIssued } from "#domain/seller-api";
import type { Subscription, SubscriptionList } from "#domain/subscription-schemas";
import { baseUrl, demoApi, expectAccessible, setupBrowser, showAt, snapshot, toast } from "./browser";
import { placeAndPay } from "./orders";

const browser = setupBrowser();

const PRODUCT = "Cinderpath Threat Intel API";

type Metered = Subscription & { usage: UsageSummary };

/** The demo buyer's live metered subscription to the product, as the desk's own call answers it. */
async function metered(
  page: Page,
  which: { orderId?: string; id?: string } = {},
): Promise<Metered | undefined> {
  const { items } = (await (await page.request.get("/api/subscriptions")).json()) as SubscriptionList;
  return items.find(
    (s) =>
      s.productName === PRODUCT &&
      s.usage !== null &&
      s.status !== "ended" &&
      (which.orderId === undefined || s.orderId === which.orderId) &&
      (which.id === undefined || s.id === which.id),
  ) as Metered | undefined;
}

/**
 * The seeded subscription, or, once a journey before this one in the worker has moved the server's clock
 * on past its period (and it ended), a new one on the product's metered plan, bought and paid now.
 */
async function liveMetered(page: Page): Promise<Metered> {
  const seeded = await metered(page);
  if (seeded) return seeded;
  const found = await (await page.request.get(`/api/products?search=${encodeURIComponent(PRODUCT)}`)).json();
  const id = (found as ProductList).items.find((p) => p.name === PRODUCT)?.id ?? "";
  const product = (await (await page.request.get(`/api/products/${id}`)).json()) as ProductDetail;
  const plan = product.plans.find((p) => p.meter !== null);
  if (!plan) throw new Error(`${PRODUCT} has no metered plan`);
  const order = await placeAndPay(page.request, {
    items: [{ productId: id, planId: plan.id, price: plan.price }],
  });
  const bought = await metered(page, { orderId: order.id });
  if (!bought) throw new Error(`The order ${order.id} started no metered subscription`);
  return bought;
}

async function byId(page: Page, id: string): Promise<Metered> {
  const found = await metered(page, { id });
  if (!found) throw new Error(`Subscription ${id} is not a live metered one`);
  return found;
}

/** A record of use, as the seller's own system sends it: the key as a bearer token. */
const report = (secret: string, record: Record<string, unknown>) =>
  fetch(`${baseUrl()}/api/seller/v1/usage`, {
    method: "POST",
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
    body: JSON.stringify({ usedAt: new Date().toISOString(), idempotencyKey: randomUUID(), ...record }),
  });

describe("metered plans", () => {
  test("the buyer's desk shows the period's use and estimate; use the seller reports shows on reload; a cap passed at 80% alerts on the desk and in notifications, and raising it clears the alert", async () => {
    const page = await browser.newPage({ as: "buyer", width: 1280, theme: "light" });
    const before = await liveMetered(page);
    let added = 20_000;

    // The seller's system reports with a key of its own holding usage:write (the demo key reads only).
    const issued = await demoApi("seller", "POST", "/api/seller-api/keys", {
      name: `Metering ${randomUUID().slice(0, 6)}`,
      scopes: ["usage:write"],
    });
    expect(issued.status).toBe(201);
    const { key, secret } = (await issued.json()) as SellerApiKeyIssued;
    try {
      // The product page: the metered plan's fee "+ use", and its tiers.
      await page.goto(paths.product(before.productId ?? ""));
      // Its one plan offers no choice: the price says "+ use" and the plan's facts give the tiers.
      expect(await page.getByTestId("price-meter").textContent()).toBe(
        "+ use, charged with each monthly renewal for the month before",
      );
      expect(await page.getByTestId("plan-meter").textContent()).toBe(
        "Use: first 10,000 calls $0.002 each, next 90,000 $0.0015, then $0.001",
      );
      await snapshot(page, "metered-product-1280-light");

      await page.goto(paths.dashboard("subscriptions"));
      const card = page.getByTestId("usage-card").filter({ hasText: PRODUCT });
      await card.waitFor();
      expect(await card.getByTestId("usage-quantity").textContent()).toBe(
        usageLabel(before.usage.quantity, before.usage.unit),
      );
      expect(await card.getByTestId("usage-amount").textContent()).toBe(formatOwed(before.usage.usageAmount));
      expect(await card.getByTestId("usage-estimate").textContent()).toBe(formatOwed(before.usage.estimate));
      expect(await card.getByTestId("usage-tiers").textContent()).toContain("first 10,000 calls $0.002 each");
      expect(
        await page
          .getByTestId("subscription-row")
          .filter({ hasText: `Order ${before.orderId.slice(0, 8)}` })
          .textContent(),
      ).toContain(`${usageLabel(before.usage.quantity, "call")} so far`);
      await snapshot(page, "metered-desk-1280-light", { fullPage: true });

      const reported = await report(secret, { subscriptionId: before.id, quantity: added });
      expect(reported.status).toBe(200);
      expect(((await reported.json()) as { status: string }).status).toBe("recorded");
      const after = (await byId(page, before.id)).usage;
      expect(after.quantity).toBe(before.usage.quantity + added);
      await page.reload();
      await expect
        .poll(() => card.getByTestId("usage-quantity").textContent())
        .toBe(usageLabel(after.quantity, after.unit));
      expect(await card.getByTestId("usage-estimate").textContent()).toBe(formatOwed(after.estimate));

      // A cap the use is at 75% of; then a report takes it past 80%, which alerts (once, on that report).
      const cap = String(Math.ceil(Number(after.usageAmount) / 0.75));
      await card.getByTestId("usage-cap-input").fill(cap);
      await card.getByRole("button", { name: /^(Set|Save) cap/ }).click();
      await toast(page, "Spending cap saved").waitFor();
      await expect.poll(() => card.getByText(`${formatUsd(cap)} a period`).count()).toBe(1);
      expect(await card.getByTestId("usage-alert").count()).toBe(0);

      // A cap below $1 is refused beside the field, before anything is sent.
      await card.getByTestId("usage-cap-input").fill("0.5");
      await card.getByRole("button", { name: /^(Set|Save) cap/ }).click();
      expect(await card.getByTestId("usage-cap-error").textContent()).toBe("A cap must be at least $1");

      // Enough more use for 85% to 95% of the cap, by the plan's own tiers.
      let more = 1000;
      while (toUnits(rateUsage(after.quantity + more, after.tiers)) < toUnits(cap) * 0.85) more += 1000;
      expect(toUnits(rateUsage(after.quantity + more, after.tiers))).toBeLessThan(toUnits(cap) * 0.95);
      expect((await report(secret, { subscriptionId: before.id, quantity: more })).status).toBe(200);
      added += more;
      await page.reload();
      const alert = card.getByTestId("usage-alert");
      await alert.waitFor();
      expect(await alert.textContent()).toContain(`You have used 80% of your ${formatUsd(cap)} cap.`);
      const spent = (await byId(page, before.id)).usage.usageAmount;
      expect(await card.getByRole("progressbar").getAttribute("aria-valuenow")).toBe(
        String(Math.floor((toUnits(spent) / toUnits(cap)) * 100)),
      );
      await snapshot(page, "metered-alert-1280-light");

      // Notifications: the alert is there too.
      await page.goto(paths.dashboard("notifications"));
      await page
        .getByTestId("notification")
        .filter({ hasText: `${PRODUCT} used 80% of your spending cap` })
        .first()
        .waitFor();
      await snapshot(page, "metered-notification-1280-light");

      // Raised well above the use: the alert clears.
      await page.goto(paths.dashboard("subscriptions"));
      await card.waitFor();
      const high = String(Math.ceil(Number(spent) / 0.6));
      await card.getByTestId("usage-cap-input").fill(high);
      await card.getByRole("button", { name: /^(Set|Save) cap/ }).click();
      await toast(page, "Spending cap saved").waitFor();
      await card.getByTestId("usage-alert").waitFor({ state: "detached" });
      await expect.poll(() => card.getByText(`${formatUsd(high)} a period`).count()).toBe(1);
      await expectAccessible(page);

      await showAt(page, { width: 375, theme: "dark" }, 900);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await card.scrollIntoViewIfNeeded();
      await expectAccessible(page);
      await snapshot(page, "metered-desk-375-dark");
    } finally {
      // The demo subscription as it was, for the journeys after this one: the use corrected back, its cap.
      await report(secret, {
        subscriptionId: before.id,
        quantity: -added,
        reason: "End-to-end journey: corrected back",
      });
      await demoApi("buyer", "PUT", `/api/subscriptions/${before.id}/spending-cap`, {
        cap: before.usage.cap,
      });
      await demoApi("seller", "DELETE", `/api/seller-api/keys/${key.id}`);
    }
  });

  test("the seller makes a plan metered in the plan editor: its unit, two tiers and a monthly fee, saved", async () => {
    const created = await demoApi("seller", "POST", "/api/manage/products", {
      name: `Metered Lookup API ${randomUUID().slice(0, 6)}`,
      category: "software",
      price: 29,
      pricingUnit: "month",
    });
    expect(created.status).toBe(201);
    const product = ((await created.json()) as { product: { id: string } }).product;
    try {
      const page = await browser.newPage({ as: "seller", width: 375, theme: "dark" });
      await page.goto(paths.seller.editProduct(product.id));
      const plan = page.getByTestId("plan-item").first();
      await plan.waitFor();
      await plan.getByLabel("Metered (billed for use)").check();
      await plan.getByTestId("plan-interval-fixed").waitFor();
      expect(await plan.getByLabel("Free trial (days)").count()).toBe(0);
      expect(await plan.getByLabel("Fixed monthly fee (USD)").inputValue()).toBe("29");
      await plan.getByLabel("Charged for").selectOption("call");

      // Saved with no unit price: the tier's field says why.
      await page.getByRole("button", { name: "Save plans" }).click();
      await plan
        .getByText("A unit price is at most $99.9999, with at most four decimals, e.g. 0.004")
        .waitFor();

      const tiers = plan.getByTestId("plan-tier");
      await tiers.nth(0).getByLabel("Price each").fill("0.002");
      await plan.getByRole("button", { name: "Add tier" }).click();
      await tiers.nth(0).getByLabel("Up to (calls)").fill("10000");
      await tiers.nth(1).getByLabel("Price each").fill("0.001");
      expect(await tiers.nth(1).textContent()).toContain("and above");
      await snapshot(page, "metered-plan-editor-375-dark", { fullPage: true });
      await page.getByRole("button", { name: "Save plans" }).click();
      await toast(page, "Plans saved").waitFor();

      const { plans } = (await (
        await demoApi("seller", "GET", `/api/manage/products/${product.id}/plans`)
      ).json()) as PlanList;
      expect(plans[0]?.meter).toEqual({
        unit: "call",
        tiers: [
          { upTo: 10_000, unitPrice: "0.002" },
          { upTo: null, unitPrice: "0.001" },
        ],
      });
      expect(plans[0]?.interval).toBe("month");
      expect(plans[0]?.trialDays).toBe(0);
      await showAt(page, { width: 1280, theme: "light" }, 900);
      await expectAccessible(page);
      await snapshot(page, "metered-plan-editor-1280-light", { fullPage: true });
    } finally {
      await demoApi("seller", "DELETE", `/api/manage/products/${product.id}`);
    }
  });

  test("pay as you go: the seller sets a metered plan's fee to $0 by keyboard, told buyers pay only for use; the listing reads its unit price, not $0 a month", async () => {
    const name = `Payg Lookup API ${randomUUID().slice(0, 6)}`;
    const created = await demoApi("seller", "POST", "/api/manage/products", {
      name,
      category: "software",
      price: 29,
      pricingUnit: "month",
    });
    expect(created.status).toBe(201);
    const product = ((await created.json()) as { product: { id: string } }).product;
    try {
      const page = await browser.newPage({ as: "seller", width: 375, theme: "dark" });
      await page.goto(paths.seller.editProduct(product.id));
      const plan = page.getByTestId("plan-item").first();
      await plan.waitFor();
      await plan.getByLabel("Metered (billed for use)").check();
      await plan.getByLabel("Charged for").selectOption("call");
      await plan.getByTestId("plan-tier").nth(0).getByLabel("Price each").fill("0.004");
      // The fee, by keyboard: emptied and typed as 0.
      const fee = plan.getByLabel("Fixed monthly fee (USD)");
      await fee.focus();
      await page.keyboard.press("ControlOrMeta+a");
      await page.keyboard.type("0");
      await plan
        .getByText("Fee $0: buyers pay only for use, charged each month for the month before.")
        .waitFor();
      await snapshot(page, "payg-plan-editor-375-dark", { fullPage: true });
      await page.getByRole("button", { name: "Save plans" }).click();
      await toast(page, "Plans saved").waitFor();
      const { plans } = (await (
        await demoApi("seller", "GET", `/api/manage/products/${product.id}/plans`)
      ).json()) as PlanList;
      expect(plans[0]).toMatchObject({ price: "0.00", meter: { unit: "call" } });

      // The seller's list reads the unit price, at 375 px without a page wider than the screen.
      await page.goto(`${paths.seller.products()}?search=${encodeURIComponent(name)}`);
      const row = page.getByTestId("managed-product-row").filter({ hasText: name });
      await row.waitFor();
      expect(await row.getByTestId("managed-product-payg").textContent()).toBe(
        "$0.004 / call, pay as you go",
      );
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await expectAccessible(page);
      await showAt(page, { width: 1280, theme: "light" }, 900);
      await expectAccessible(page);
    } finally {
      await demoApi("seller", "DELETE", `/api/manage/products/${product.id}`);
    }
  });
});
