import type { Cookie, Page } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import type { ProductList } from "#domain/catalog-schemas";
import type { Order } from "#domain/checkout";
import { formatDateTime } from "#domain/dates";
import { computeTotals, formatOwed, formatPrice, formatUnitPrice, formatUsd } from "#domain/money";
import { baseUrl, expectAccessible, setupBrowser, submitLogin, toast } from "./browser";
import { placeAndPay } from "./orders";

const browser = setupBrowser();

// Two sign-ins in all (sign-in is rate-limited): the buyer's journey logs in once and keeps its cookies
// for the refusal at /admin/orders; the admin logs in once.
const buyer = { email: "buyer@stackbay.test", password: "stackbay-demo" };
const admin = { email: "admin@stackbay.test", password: "stackbay-demo" };
let buyerSession: Cookie[] | undefined;
let order: Order;

// Two seeded products no other journey changes: the newest ones are not, as journeys running alongside
// add products (which then come first) and take them away again.
const PRODUCTS = ["Meridian Forge API Designer", "Speech Transcription API"];
let products: ProductList["items"];
beforeAll(async () => {
  const found = await Promise.all(
    PRODUCTS.map(async (name) => {
      const list = (await (
        await fetch(`${baseUrl()}/api/products?search=${encodeURIComponent(name)}&pageSize=48`)
      ).json()) as ProductList;
      return list.items.find((item) => item.name === name);
    }),
  );
  products = found.filter((item) => item !== undefined);
  expect(products.map((p) => p.name)).toEqual(PRODUCTS);
});

async function logIn(page: Page, who: { email: string; password: string }) {
  await page.goto("/login");
  await submitLogin(page, who.email, who.password);
  await page.waitForURL((url) => url.pathname === "/");
}

describe("order detail and the admin orders screen", () => {
  test("a buyer opens an order's detail in the Order History, on a 375 px phone too", async () => {
    const page = await browser.newPage({ width: 375, height: 812 });
    await logIn(page, buyer);
    buyerSession = await page.context().cookies();

    const quantityOf = (index: number) => (index === 0 ? 2 : 1);
    order = await placeAndPay(page.request, {
      email: buyer.email,
      // The address the order's detail shows.
      address: "7 Harbour Road",
      paymentMethod: "apple-pay",
      items: products.map((p, i) => ({ productId: p.id, quantity: quantityOf(i), price: p.price })),
    });
    const totals = computeTotals(
      products.map((p, i) => ({ price: String(p.price), quantity: quantityOf(i) })),
      "0.05",
    );

    await page.goto("/dashboard");
    const row = page.getByTestId("order-row").filter({ hasText: order.id.slice(0, 8) });
    await row.waitFor();
    // The table scrolls inside its region; the page itself stays phone-wide (open or closed).
    const pageWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
    expect(await pageWidth()).toBeLessThanOrEqual(375);
    const toggle = row.getByRole("button", { name: "View" });
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    const detailId = await toggle.getAttribute("aria-controls");
    // Keyboard: focus the button and press Enter.
    await toggle.focus();
    await page.keyboard.press("Enter");
    const detail = page.locator(`[id="${detailId}"]`);
    await detail.waitFor();
    expect(await row.getByRole("button", { name: "Hide" }).getAttribute("aria-expanded")).toBe("true");

    for (const [i, product] of products.entries()) {
      const line = detail.getByTestId("order-line").filter({ hasText: product.name });
      const cells = await line.locator("td").allTextContents();
      // The first cell also holds the vendor and unit price that phones show under the name.
      expect(cells[0]?.startsWith(product.name)).toBe(true);
      expect(cells.slice(1)).toEqual([
        product.vendor ?? "Unknown Vendor",
        String(quantityOf(i)),
        formatPrice(product.price, "USD", [], {
          productName: product.name,
          unit: product.pricingUnit,
          exact: true,
        }),
        formatOwed(
          computeTotals([{ price: String(product.price), quantity: quantityOf(i) }], "0.05").subtotal,
        ),
      ]);
    }
    expect(await detail.getByTestId("order-detail-subtotal").textContent()).toBe(formatOwed(totals.subtotal));
    expect(await detail.getByTestId("order-detail-tax").textContent()).toBe(formatOwed(totals.tax));
    expect(await detail.getByTestId("order-detail-total").textContent()).toBe(formatOwed(totals.total));
    expect(await detail.getByTestId("order-detail-charged").textContent()).toBe(
      `Charged: ${formatUsd(order.totalAmount)} USD`,
    );
    const text = await detail.textContent();
    for (const expected of [
      "UAE VAT (5%)",
      "Apple Pay",
      "Confirmed",
      formatDateTime(order.createdAt),
      "Bianca Buyer",
      "7 Harbour Road",
      "Dubai, United Arab Emirates",
      buyer.email,
    ]) {
      expect(text).toContain(expected);
    }
    expect(await pageWidth()).toBeLessThanOrEqual(375);
    await expectAccessible(page);

    await row.getByRole("button", { name: "Hide" }).click();
    await detail.waitFor({ state: "detached" });
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
  });

  test("a buyer at /admin/orders is turned away", async () => {
    const page = await browser.newPage();
    if (!buyerSession) throw new Error("the buyer's journey did not sign in");
    await page.context().addCookies(buyerSession);
    await page.goto("/admin/orders");
    await page.getByRole("heading", { name: "Unauthorized Access" }).waitFor();
    expect(await page.getByTestId("admin-orders-table").count()).toBe(0);
  });

  test("an admin filters the orders and is offered only the moves the order state machine allows", async () => {
    const page = await browser.newPage({ allowErrors: [/status of 409/, /status of 500/] });
    await logIn(page, admin);
    await page.goto("/admin/orders");
    await page.getByRole("heading", { level: 1, name: "Orders" }).waitFor();
    expect(await page.title()).toBe("Orders | Stackbay");

    const shortId = order.id.slice(0, 8);
    const row = page.getByTestId("admin-order-row").filter({ hasText: shortId });
    await row.waitFor();
    const cells = await row.locator("td").allTextContents();
    expect(cells.slice(0, 7)).toEqual([
      shortId,
      `Bianca Buyer${buyer.email}`,
      // The items read without opening the order: name, quantity and price.
      order.items
        .map((item) => `${item.productName} × ${item.quantity} at ${formatUnitPrice(item.price)}`)
        .join(""),
      formatUsd(order.totalAmount),
      "Apple Pay",
      "Confirmed",
      "Yes",
    ]);
    // A confirmed order only moves through refunds: nothing to pick by hand.
    const select = row.getByRole("combobox", { name: `Status of order ${shortId}` });
    expect(await select.count()).toBe(0);
    expect(await row.getByTestId("admin-order-fixed").textContent()).toBe(
      "Paid; changes only through a refund",
    );
    // axe: the sweep checks this screen as it opens, at 1366 px light and 375 px dark.

    // The filter lives in the URL; a confirmed order is not among the failed ones.
    const filter = page.getByLabel("Show");
    await filter.selectOption("failed");
    await page.waitForURL((url) => url.searchParams.get("status") === "failed");
    await expect.poll(() => row.count()).toBe(0);
    await filter.selectOption("mock_confirmed");
    await page.waitForURL((url) => url.searchParams.get("status") === "mock_confirmed");
    await row.waitFor();
    await filter.selectOption("");
    await page.waitForURL((url) => !url.searchParams.has("status"));
    await row.waitFor();

    // The list as another admin's stale screen would show it: the order still pending. The choices are
    // the pending order's moves; the server, which has it confirmed, refuses and the toast says why.
    await page.route("**/api/admin/orders?*", async (route) => {
      const answer = await route.fetch();
      const list = (await answer.json()) as { items: Order[] };
      for (const item of list.items) {
        if (item.id === order.id) Object.assign(item, { paymentStatus: "pending", isPaid: false });
      }
      await route.fulfill({ response: answer, json: list });
    });
    await page.reload();
    await select.waitFor();
    expect(await select.locator("option").allTextContents()).toEqual([
      "Pending",
      "Processing",
      "Failed",
      "Confirmed",
    ]);
    const patches: unknown[] = [];
    page.on("request", (r) => {
      if (r.method() === "PATCH" && new URL(r.url()).pathname === `/api/admin/orders/${order.id}`) {
        patches.push(r.postDataJSON());
      }
    });
    await select.selectOption("processing");
    await toast(page, "Error updating order", "A confirmed order cannot be set to Processing.").waitFor();
    expect(patches).toEqual([{ paymentStatus: "processing" }]);
    await expect.poll(() => select.inputValue()).toBe("pending");
    await expect.poll(() => select.isEnabled()).toBe(true);

    // Any other failure keeps the spec's text.
    await page.route(`**/api/admin/orders/${order.id}`, (route) =>
      route.request().method() === "PATCH"
        ? route.fulfill({
            status: 500,
            contentType: "application/json",
            body: JSON.stringify({ code: "INTERNAL", message: "Something went wrong." }),
          })
        : route.fallback(),
    );
    await select.selectOption("failed");
    await toast(page, "Error updating order", "Failed to update order status.").waitFor();
    await expect.poll(() => select.inputValue()).toBe("pending");
    await page.unrouteAll();

    // The server's own view is unchanged.
    const mine = await page.request.get(`/api/orders/${order.id}`);
    expect(((await mine.json()) as { order: Order }).order).toMatchObject({
      paymentStatus: "mock_confirmed",
      isPaid: true,
    });
    await expectAccessible(page);
  });
});
