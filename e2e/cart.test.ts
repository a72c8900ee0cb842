import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import type { CartItem } from "#domain/cart";
import { computeTotals, formatOwed, formatPrice, lineTotal } from "#domain/money";
import type { PricingUnit } from "#domain/pricing-units";
import { dialogReady, expectAccessible, setupBrowser } from "./browser";

const browser = setupBrowser();

/** Sets a stored value as the page loads, unless one is stored already. */
const storeOnce = (page: Page, key: string, value: string) =>
  page.addInitScript(
    ([key, value]) => {
      if (localStorage.getItem(key) === null) localStorage.setItem(key, value);
    },
    [key, value] as const,
  );

/**
 * Puts two real catalogue products in the stored cart (quantity 1 each) before the page's first load
 * (no load of its own just to reach the storage), and returns them. Only while nothing is stored: what
 * the app writes afterwards (a quantity, a removal, a cleared cart) stands on the next loads and tabs.
 */
async function seedCart(page: Page): Promise<[CartItem, CartItem]> {
  const body = (await (await page.request.get("/api/products?pageSize=2")).json()) as {
    items: {
      id: string;
      name: string;
      vendor: string;
      price: number;
      pricingUnit: PricingUnit | null;
      imageUrl: string | null;
    }[];
  };
  const items: CartItem[] = body.items.map((p) => ({
    id: p.id,
    name: p.name,
    price: p.price,
    unit: p.pricingUnit,
    quantity: 1,
    vendor: p.vendor,
    image_url: p.imageUrl ?? "",
  }));
  await storeOnce(page, "stackbay.cart", JSON.stringify(items));
  const [first, second] = items;
  if (!first || !second) throw new Error("the demo catalogue should have at least two products");
  return [first, second];
}

const usd = (items: { price: number; quantity: number }[]) => {
  // The cart knows no country yet: no tax, the total is the subtotal ("Total before tax").
  const totals = computeTotals(
    items.map((i) => ({ price: String(i.price), quantity: i.quantity })),
    "0",
  );
  return {
    subtotal: formatOwed(totals.subtotal),
    tax: "Calculated at checkout",
    total: formatOwed(totals.total),
  };
};

const rows = (page: Page) => page.getByTestId("cart-item");
const itemsHeading = (page: Page, count: number) =>
  page.getByRole("heading", { level: 2, name: `Cart Items (${count})` });

describe("cart", () => {
  test("an empty cart says so and links to the products", async () => {
    const page = await browser.newPage();
    await page.goto("/cart");
    await page.getByRole("heading", { level: 1, name: "Shopping Cart" }).waitFor();
    expect(await page.title()).toBe("Shopping Cart | Stackbay");
    expect(await page.getByText("Review your items before checkout").isVisible()).toBe(true);
    expect(await page.getByRole("heading", { name: "Your cart is empty" }).isVisible()).toBe(true);
    expect(await page.getByText("Start shopping to add products to your cart").isVisible()).toBe(true);
    const browse = page.getByRole("main").getByRole("link", { name: "Browse Products" });
    expect(await browse.getAttribute("href")).toBe("/products");
    expect(await rows(page).count()).toBe(0);
    // The empty cart as it opens is checked for accessibility by the width sweep (layout-sweep.test.ts).
  });

  test("lists the items, changes quantities, totals in USD, removes with confirmation and survives a reload", async () => {
    const page = await browser.newPage();
    const [first, second] = await seedCart(page);
    await page.goto("/cart");
    await itemsHeading(page, 2).waitFor();
    expect(await rows(page).count()).toBe(2);

    const firstRow = rows(page).filter({ hasText: first.name });
    expect(await firstRow.getByRole("link", { name: first.name }).getAttribute("href")).toBe(
      `/products/${first.id}`,
    );
    expect(await firstRow.getByText(`by ${first.vendor}`).isVisible()).toBe(true);
    expect(await firstRow.getByRole("img", { name: first.name }).isVisible()).toBe(true);
    // What the buyer owes per unit: exact, with what it buys.
    expect(await firstRow.getByTestId("price").textContent()).toBe(
      formatPrice(first.price, "USD", [], { productName: first.name, unit: first.unit, exact: true }),
    );
    expect(await firstRow.getByTestId("cart-item-total").count()).toBe(0);

    const summary = page.getByTestId("order-summary");
    expect(await summary.getByRole("heading", { name: "Order Summary" }).isVisible()).toBe(true);
    const expected = usd([first, second]);
    expect(await page.getByTestId("cart-subtotal").textContent()).toBe(expected.subtotal);
    expect(await page.getByTestId("cart-tax").textContent()).toBe(expected.tax);
    expect(await page.getByTestId("cart-total").textContent()).toBe(expected.total);
    expect(await summary.getByText("Total before tax").isVisible()).toBe(true);
    expect(await summary.getByRole("link", { name: "Proceed to Checkout" }).getAttribute("href")).toBe(
      "/checkout",
    );
    expect(await summary.getByRole("link", { name: "Continue Shopping" }).getAttribute("href")).toBe(
      "/products",
    );
    expect(await summary.getByTestId("currency-note").count()).toBe(0);

    // Quantity: minus is disabled at 1, plus raises it and the heading counts every unit.
    const minus = page.getByRole("button", { name: `Decrease quantity of ${first.name}` });
    const plus = page.getByRole("button", { name: `Increase quantity of ${first.name}` });
    expect(await minus.isDisabled()).toBe(true);
    await plus.click();
    await itemsHeading(page, 3).waitFor();
    expect(await firstRow.getByTestId("cart-item-quantity").textContent()).toBe("2");
    // Above one, the line shows its total.
    expect(await firstRow.getByTestId("cart-item-total").textContent()).toBe(
      formatOwed(lineTotal(first.price, 2)),
    );
    expect(await firstRow.getByTestId("cart-item-quantity").getAttribute("aria-live")).toBe("polite");
    expect(await minus.isDisabled()).toBe(false);
    const raised = usd([{ ...first, quantity: 2 }, second]);
    await expect.poll(() => page.getByTestId("cart-subtotal").textContent()).toBe(raised.subtotal);
    expect(await page.getByTestId("cart-total").textContent()).toBe(raised.total);
    expect(await page.getByTestId("cart-count").first().textContent()).toBe("3");
    // Keyboard: the minus button works with Enter.
    await minus.focus();
    await page.keyboard.press("Enter");
    await itemsHeading(page, 2).waitFor();
    await plus.click();
    await itemsHeading(page, 3).waitFor();

    // Remove asks first, naming the product; Cancel (and Escape) keep it.
    const remove = page.getByRole("button", { name: `Remove ${second.name}` });
    await remove.click();
    const dialog = page.getByRole("alertdialog", { name: "Remove item?" });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(`Remove "${second.name}" from your cart?`);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await rows(page).count()).toBe(2);
    await expect.poll(() => remove.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press("Enter");
    await dialogReady(dialog);
    await page.keyboard.press("Escape");
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await rows(page).count()).toBe(2);

    await remove.click();
    await dialog.getByRole("button", { name: "Remove" }).click();
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).first().textContent()).toContain(first.name);
    await itemsHeading(page, 2).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Cart Items (2)");
    expect(await page.getByTestId("cart-subtotal").textContent()).toBe(
      usd([{ ...first, quantity: 2 }]).subtotal,
    );

    // The cart is stored: a reload shows the same line and quantity.
    await page.reload();
    await itemsHeading(page, 2).waitFor();
    expect(await rows(page).count()).toBe(1);
    expect(await rows(page).first().getByTestId("cart-item-quantity").textContent()).toBe("2");
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("stackbay.cart") ?? "[]"));
    expect(stored).toEqual([{ ...first, quantity: 2 }]);

    // Clear cart has its own confirmation and ends in the empty state. (After the reload the cart
    // checks its prices with the server and redraws its lines: the click waits for that.)
    await page.waitForLoadState("networkidle");
    await page.getByRole("button", { name: "Clear cart" }).click();
    const clear = page.getByRole("alertdialog", { name: "Clear your cart?" });
    await clear.waitFor();
    expect(await clear.getByText("This removes every item from your cart.").isVisible()).toBe(true);
    await clear.getByRole("button", { name: "Clear cart" }).click();
    await page.getByRole("heading", { name: "Your cart is empty" }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem("stackbay.cart"))).toBe("[]");
  });

  test("a change in another tab shows up at once", async () => {
    const page = await browser.newPage();
    const [first] = await seedCart(page);
    await page.goto("/cart");
    await itemsHeading(page, 2).waitFor();
    const other = await page.context().newPage();
    await other.goto("/cart");
    await other.getByRole("button", { name: `Increase quantity of ${first.name}` }).click();
    await itemsHeading(page, 3).waitFor();
    await other.close();
  });

  test("in rupees the summary warns that prices are approximate", async () => {
    const page = await browser.newPage();
    const items = await seedCart(page);
    await storeOnce(page, "stackbay.currency", "INR");
    await page.goto("/cart");
    await itemsHeading(page, 2).waitFor();
    const note = page.getByTestId("currency-note");
    await note.waitFor();
    expect(await note.textContent()).toBe(
      "All prices shown in Indian Rupee are approximate and may vary at your payment provider's end.",
    );
    await expect.poll(() => page.getByTestId("cart-subtotal").textContent()).toMatch(/^₹/);
    expect(await page.getByTestId("cart-total").textContent()).toMatch(/^₹/);
    expect(await rows(page).count()).toBe(items.length);
  });

  test("a corrupt stored cart shows the empty state", async () => {
    const page = await browser.newPage();
    await storeOnce(page, "stackbay.cart", "{not json");
    await page.goto("/cart");
    await page.getByRole("heading", { name: "Your cart is empty" }).waitFor();
    expect(await rows(page).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Browse Products" }).count()).toBeGreaterThan(0);
  });

  test("with items it passes axe in light and dark, dialog included; on a 375 px phone everything fits without horizontal scrolling", async () => {
    // One page: the theme switched as a person does, with the header's button; the phone by resizing.
    const page = await browser.newPage({ theme: "light" });
    const [first] = await seedCart(page);
    await page.goto("/cart");
    await itemsHeading(page, 2).waitFor();
    await page.getByRole("img", { name: first.name }).waitFor();
    const remove = page.getByRole("button", { name: `Remove ${first.name}` });
    const dialog = page.getByRole("alertdialog", { name: "Remove item?" });
    const closeDialog = async () => {
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await expect.poll(() => dialog.count()).toBe(0);
    };
    let units = 2;
    for (const theme of ["light", "dark"] as const) {
      await page.setViewportSize({ width: 1280, height: 800 });
      if (theme === "dark") await page.getByRole("button", { name: "Switch to dark theme" }).click();
      await expect
        .poll(() => page.evaluate(() => document.documentElement.classList.contains("dark")))
        .toBe(theme === "dark");
      await expectAccessible(page);
      await remove.click();
      await dialog.waitFor();
      await expectAccessible(page);
      await closeDialog();

      await page.setViewportSize({ width: 375, height: 740 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      const plus = page.getByRole("button", { name: `Increase quantity of ${first.name}` });
      expect(await plus.isVisible()).toBe(true);
      expect(await page.getByRole("link", { name: "Proceed to Checkout" }).isVisible()).toBe(true);
      await plus.click();
      await itemsHeading(page, ++units).waitFor();
      await remove.click();
      await dialog.waitFor();
      expect(await dialog.getByRole("button", { name: "Remove" }).isVisible()).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await expectAccessible(page);
      await closeDialog();
    }
  });
});
