import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ProductList } from "#domain/catalog-schemas";
import type { Order } from "#domain/checkout";
import { computeTotals, formatOwed, formatPrice, formatUsd } from "#domain/money";
import type { EditableProduct } from "#domain/product-admin";
import { baseUrl, expectAccessible, sessionCookie, setupBrowser, snapshot, toast } from "./browser";
import { payOnTestPage } from "./payments";

const browser = setupBrowser();

// A mid-priced seeded product that no other journey picks (they take the newest, the cheapest, the
// dearest, a software product or Nimbus CRM Pro), so moving its price here changes nothing they check.
const PRODUCT = "Kestrelbyte Goals";
let product: ProductList["items"][number];
let originalPrice: number;

async function adminApi<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(`${baseUrl()}/api${path}`, {
    method: init.method ?? "GET",
    headers: {
      cookie: sessionCookie("admin"),
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!response.ok)
    throw new Error(`${init.method ?? "GET"} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The admin changes the product's price, as the product form would (a full replacement). */
async function setPrice(price: number) {
  const { product: editable } = await adminApi<{ product: EditableProduct }>(
    `/manage/products/${product.id}`,
  );
  await adminApi(`/manage/products/${product.id}`, { method: "PATCH", body: { ...editable, price } });
}

beforeAll(async () => {
  const list = (await (
    await fetch(`${baseUrl()}/api/products?search=${encodeURIComponent(PRODUCT)}&pageSize=48`)
  ).json()) as ProductList;
  const found = list.items.find((item) => item.name === PRODUCT);
  if (!found) throw new Error(`the demo catalogue has no ${PRODUCT}`);
  product = found;
  originalPrice = found.price;
});
afterAll(async () => {
  if (product) await setPrice(originalPrice);
});

const placeOrder = (page: Page) => page.getByRole("button", { name: "Place Order" });
const orderAnswer = (page: Page) =>
  page.waitForResponse((r) => new URL(r.url()).pathname === "/api/orders" && r.request().method() === "POST");
const shot = async (page: Page, name: string) => {
  if (process.env.SCREENSHOTS !== "1") return;
  await page.getByTestId("price-change-notice").scrollIntoViewIfNeeded();
  await snapshot(page, name);
};

const viewports = [
  { label: "desktop", width: 1280, height: 800, delta: 3 },
  // Under a dollar: the notice's prices are exact, so even this small change shows without the USD line.
  { label: "375px", width: 375, height: 812, delta: 0.4 },
];

describe("a price that changes between the cart and the checkout", () => {
  test.each(viewports)(
    "the buyer is told, sees the new total, and orders at the new price ($label)",
    async ({ label, width, height, delta }) => {
      const page = await browser.newPage({ as: "buyer", width, height, allowErrors: [/status of 409/] });
      await page.goto(`/products?search=${encodeURIComponent(PRODUCT)}`);
      await page.getByRole("button", { name: `Add ${PRODUCT} to cart` }).click();
      await toast(page, "Added to cart!", `${PRODUCT} has been added to your cart.`).waitFor();
      const shown = Number(
        await page.evaluate(
          () => (JSON.parse(localStorage.getItem("stackbay.cart") ?? "[]") as { price: number }[])[0]?.price,
        ),
      );

      // Meanwhile the price moves.
      const newPrice = Number((shown + delta).toFixed(4));
      await setPrice(newPrice);

      await page.goto("/checkout");
      await placeOrder(page).waitFor();
      await page.getByLabel("Full name").fill("Bianca Buyer");
      await page.getByLabel("Address").fill("7 Harbour Road");
      await page.getByLabel("City").fill("Lisbon");
      await page.getByLabel("Country").selectOption("Portugal");
      await page.getByRole("radio", { name: "Credit/Debit Card" }).check();

      const refused = orderAnswer(page);
      await placeOrder(page).click();
      const refusal = await refused;
      expect(refusal.status()).toBe(409);
      const sent = refusal.request().postDataJSON() as { idempotencyKey: string; items: unknown[] };
      expect(sent.items).toEqual([{ productId: product.id, quantity: 1, price: shown }]);

      const notice = page.getByRole("alert").filter({ hasText: "A price has changed" });
      await notice.waitFor();
      const change = notice.getByTestId("price-change");
      expect(await change.getByText(PRODUCT).isVisible()).toBe(true);
      expect(await change.getByTestId("price-change-old").textContent()).toBe(
        formatPrice(shown, "USD", [], { productName: PRODUCT, exact: true }),
      );
      expect(await change.getByTestId("price-change-new").textContent()).toBe(
        formatPrice(newPrice, "USD", [], { productName: PRODUCT, exact: true }),
      );
      const usdLine = change.getByTestId("price-change-usd");
      if (
        formatPrice(shown, "USD", [], { exact: true }) === formatPrice(newPrice, "USD", [], { exact: true })
      ) {
        expect(await usdLine.textContent()).toBe(`${formatUsd(shown)} → ${formatUsd(newPrice)} USD`);
      } else {
        expect(await usdLine.count()).toBe(0);
      }
      // The buyer is in Portugal: 23% VAT.
      const totalUsd = Number(computeTotals([{ price: String(newPrice), quantity: 1 }], "0.23").total);
      const total = formatOwed(totalUsd);
      expect(await notice.getByTestId("price-change-total").textContent()).toBe(total);
      expect(await notice.getByTestId("price-change-total-usd").textContent()).toBe(
        `(${formatUsd(totalUsd)} USD)`,
      );
      // The summary beside it has the new prices too.
      expect(await page.getByTestId("checkout-total").textContent()).toBe(total);

      // Nothing the buyer typed is lost.
      expect(await page.getByLabel("Full name").inputValue()).toBe("Bianca Buyer");
      expect(await page.getByLabel("Address").inputValue()).toBe("7 Harbour Road");
      expect(await page.getByLabel("City").inputValue()).toBe("Lisbon");
      expect(await page.getByLabel("Country").inputValue()).toBe("PT");
      expect(await page.getByRole("radio", { name: "Credit/Debit Card" }).isChecked()).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await expectAccessible(page);

      await shot(page, `price-change-${label}-light`);
      await page.evaluate(() => document.documentElement.classList.add("dark"));
      await expectAccessible(page);
      await shot(page, `price-change-${label}-dark`);
      await page.evaluate(() => document.documentElement.classList.remove("dark"));

      // The cart page, in another tab, already shows the new price.
      const cartTab = await page.context().newPage();
      await cartTab.goto("/cart");
      const row = cartTab.getByTestId("cart-item").filter({ hasText: PRODUCT });
      await expect
        .poll(() => row.getByTestId("price").textContent())
        .toBe(
          formatPrice(newPrice, "USD", [], { productName: PRODUCT, unit: product.pricingUnit, exact: true }),
        );
      await cartTab.close();

      // A new click orders it, at the price now shown, with the same checkout key (the refusal wrote nothing).
      const accepted = orderAnswer(page);
      await placeOrder(page).click();
      const answer = await accepted;
      expect(answer.status()).toBe(201);
      const resent = answer.request().postDataJSON() as { idempotencyKey: string; items: unknown[] };
      expect(resent.idempotencyKey).toBe(sent.idempotencyKey);
      expect(resent.items).toEqual([{ productId: product.id, quantity: 1, price: newPrice }]);
      const orderId = await payOnTestPage(page);
      const order = ((await (await page.request.get(`/api/orders/${orderId}`)).json()) as { order: Order })
        .order;
      expect(order.items).toEqual([
        expect.objectContaining({ productName: PRODUCT, price: newPrice, quantity: 1 }),
      ]);
      await page.goto("/dashboard");

      const orderRow = page.getByTestId("order-row").filter({ hasText: order.id.slice(0, 8) });
      await orderRow.getByRole("button", { name: "View" }).click();
      const detail = page.getByTestId("order-detail");
      const line = detail.getByTestId("order-line").filter({ hasText: PRODUCT });
      expect((await line.locator("td").allTextContents())[3]).toBe(
        formatPrice(newPrice, "USD", [], { productName: PRODUCT, unit: product.pricingUnit, exact: true }),
      );
      expect(await detail.getByTestId("order-detail-total").textContent()).toBe(total);
      expect(await detail.getByTestId("order-detail-charged").textContent()).toBe(
        `Charged: ${formatUsd(order.totalAmount)} USD`,
      );
    },
  );
});
