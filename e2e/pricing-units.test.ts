import { describe, expect, test } from "vitest";
import { computeTotals, formatOwed, lineTotal } from "#domain/money";
import { expectAccessible, setupBrowser, snapshot, toast, viewports } from "./browser";
import { payOnTestPage } from "./payments";

const browser = setupBrowser();

const PRODUCT = "Nimbus CRM Pro";
const PRICE = 49;
const UAE_VAT = "0.05";

describe("pricing units and exact amounts owed", () => {
  test.each(viewports())(
    "cards and detail name the unit; cart, checkout and the order show exact amounts ($width px, $theme)",
    async ({ width, theme }) => {
      const page = await browser.newPage({ as: "buyer", width, height: 900, theme });
      const name = `units-${width}-${theme}`;
      const noSideways = async () =>
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

      // A card row of APIs: each price says what it buys.
      await page.goto("/products?category=apis");
      const geocode = page.getByTestId("product-card").filter({ hasText: "Geocode API" });
      await expect.poll(() => geocode.getByTestId("price").textContent()).toBe("$0.004 / API call");
      const voice = page.getByTestId("product-card").filter({ hasText: "Programmable Voice API" });
      expect(await voice.getByTestId("price").textContent()).toBe("$0.012 / minute");
      await snapshot(page, `${name}-cards`);

      // The detail page: the unit beside the price; Add to cart keeps the buyer here and offers the cart.
      await page.goto("/products?search=Nimbus%20CRM%20Pro");
      await page.getByRole("link", { name: PRODUCT, exact: true }).first().click();
      await page.getByRole("heading", { level: 1, name: PRODUCT }).waitFor();
      const detailPath = new URL(page.url()).pathname;
      await expect.poll(() => page.getByTestId("price").first().textContent()).toBe("$49 / user / month");
      await page.getByRole("button", { name: "Add to cart", exact: true }).click();
      await toast(page, "Added to cart!", `${PRODUCT} has been added to your cart.`).waitFor();
      expect(new URL(page.url()).pathname).toBe(detailPath);
      await noSideways();
      await snapshot(page, `${name}-detail`);

      // The cart: the unit price exact with its unit, and a line total once there are two.
      await page.getByRole("button", { name: "View cart" }).click();
      await page.waitForURL((url) => url.pathname === "/cart");
      const row = page.getByTestId("cart-item").filter({ hasText: PRODUCT });
      expect(await row.getByTestId("price").textContent()).toBe("$49.00 / user / month");
      await page.getByRole("button", { name: `Increase quantity of ${PRODUCT}` }).click();
      const twice = formatOwed(lineTotal(PRICE, 2));
      await expect.poll(() => row.getByTestId("cart-item-total").textContent()).toBe(twice);
      expect(twice).toBe("$98.00");
      expect(await page.getByTestId("cart-subtotal").textContent()).toBe("$98.00");
      await noSideways();
      await expectAccessible(page);
      await snapshot(page, `${name}-cart`, { fullPage: true });

      // The checkout: the line says what each unit buys; subtotal, tax and total to the cent.
      await page.getByRole("link", { name: "Proceed to Checkout" }).click();
      await page.getByRole("heading", { level: 1, name: "Checkout" }).waitFor();
      await page.getByLabel("Full name").fill("Bianca Buyer");
      await page.getByLabel("Address").fill("12 Harbour Street");
      await page.getByLabel("City").fill("Dubai");
      await page.getByLabel("Country").selectOption("United Arab Emirates");
      const totals = computeTotals([{ price: String(PRICE), quantity: 2 }], UAE_VAT);
      await expect
        .poll(() => page.getByTestId("checkout-total").textContent())
        .toBe(formatOwed(totals.total));
      expect(await page.getByTestId("checkout-tax").textContent()).toBe("$4.90");
      expect(await page.getByTestId("checkout-total").textContent()).toBe("$102.90");
      const line = page.getByTestId("checkout-line").filter({ hasText: PRODUCT });
      expect(await line.getByTestId("checkout-line-unit").textContent()).toBe(
        "Qty: 2 × $49.00 / user / month",
      );
      await noSideways();
      await expectAccessible(page);
      await snapshot(page, `${name}-checkout`, { fullPage: true });

      // Paid, the order detail reads as it was bought.
      await page.getByRole("radio", { name: "Credit/Debit Card" }).check();
      await page.getByRole("button", { name: "Place Order" }).click();
      const orderId = await payOnTestPage(page);
      await page.goto("/dashboard");
      const orderRow = page.getByTestId("order-row").filter({ hasText: orderId.slice(0, 8) });
      await orderRow.getByRole("button", { name: "View" }).click();
      const detail = page.getByTestId("order-detail");
      const cells = await detail.getByTestId("order-line").first().locator("td").allTextContents();
      expect(cells.slice(2)).toEqual(["2", "$49.00 / user / month", "$98.00"]);
      expect(await detail.getByTestId("order-detail-tax").textContent()).toBe("$4.90");
      expect(await detail.getByTestId("order-detail-total").textContent()).toBe("$102.90");
      expect(await detail.getByTestId("order-detail-charged").textContent()).toBe("Charged: $102.90 USD");
      await noSideways();
      await snapshot(page, `${name}-order`, { fullPage: true });
    },
  );
});
