import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import type { OrderList } from "#domain/checkout";
import { newAccount, setupBrowser, snapshot, toast, viewports } from "./browser";
import { placeOrder } from "./orders";

// Issue 30: a seller's orders received (item 3), and Pay now / Cancel for an order awaiting payment (item 7).

const browser = setupBrowser();

const setWidth = async (page: Page, width: number, theme: "light" | "dark") => {
  await page.setViewportSize({ width, height: 800 });
  await page.evaluate((value) => localStorage.setItem("theme", value), theme);
};

describe("a seller's orders received", () => {
  test("the dashboard shows the seller's own orders and figures, not a buyer's empty history; the full list is a menu link away", async () => {
    for (const { width, theme } of viewports()) {
      const page = await browser.newPage({ as: "seller", width, theme });
      const bought = ((await (await page.request.get("/api/orders")).json()) as OrderList).stats.totalOrders;
      await page.goto("/dashboard");
      const received = page.getByRole("region", { name: "Orders received", exact: true });
      await received.getByTestId("received-order-row").first().waitFor();
      // Amounts by the one money rule: to the cent.
      for (const amount of await received.getByTestId("received-order-amount").allTextContents()) {
        expect(amount).toMatch(/^\$[\d,]+\.\d\d$/);
      }
      expect(await page.getByRole("region", { name: "Sales summary" }).isVisible()).toBe(true);
      if (bought === 0) {
        // A seller who never bought reads no empty buyer history nor buyer figures.
        expect(await page.getByText("No orders yet", { exact: true }).count()).toBe(0);
        expect(await page.getByRole("heading", { name: "Order History" }).count()).toBe(0);
        expect(await page.getByRole("region", { name: "Order summary" }).count()).toBe(0);
      } else {
        await page.getByRole("heading", { name: "Your purchases" }).first().waitFor();
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await snapshot(page, `i30-orders-received-${width}-${theme}`, { fullPage: true });

      const nav =
        width < 768
          ? page.getByRole("navigation", { name: "Dashboard views" })
          : page.getByRole("navigation", { name: "Dashboard menu" });
      await nav.getByRole("link", { name: "Orders received" }).click();
      await page.waitForURL((url) => url.pathname === "/dashboard/sales");
      await page.getByTestId("received-order-row").first().waitFor();
      // The dashboard's first screen shows received orders too: the title says the view has changed.
      await expect.poll(() => page.title()).toBe("Orders received · Dashboard | Stackbay");
      const items = await page.getByTestId("received-order-items").first().textContent();
      expect(items).toMatch(/× \d+ at \$/);
      // axe: the sweep checks this view as it opens, as the seller at 375 px dark and 1366 px light.
    }
  });
});

describe("an order awaiting payment", () => {
  test("the buyer cancels one from the order list and resumes another's payment with Pay now", async () => {
    const page = await browser.newPage();
    await newAccount(page, { firstName: "Penny", accountType: "buyer" });
    const [product] = (await (await page.request.get("/api/products?pageSize=1&category=saas")).json()).items;
    const place = async () => {
      return placeOrder(page.request, { items: [{ productId: product.id, price: product.price }] });
    };

    for (const { width, theme } of viewports()) {
      await page.goto("/");
      await setWidth(page, width, theme);
      const abandoned = await place();
      const resumed = await place();
      await page.goto("/dashboard");
      const row = (id: string) => page.getByTestId("order-row").filter({ hasText: id.slice(0, 8) });
      await row(abandoned.orderId).waitFor();
      // The row names what was bought.
      expect(await row(abandoned.orderId).getByTestId("order-products").textContent()).toContain(
        product.name,
      );
      expect(await row(abandoned.orderId).getByTestId("order-status").textContent()).toBe("Pending");
      await snapshot(page, `i30-order-awaiting-payment-${width}-${theme}`, { fullPage: true });

      await row(abandoned.orderId)
        .getByRole("button", { name: /^Cancel/ })
        .click();
      const dialog = page.getByRole("alertdialog");
      await dialog.waitFor();
      await dialog.getByRole("button", { name: "Cancel order" }).click();
      await toast(page, `Order ${abandoned.orderId.slice(0, 8)} cancelled`).waitFor();
      await expect
        .poll(() => row(abandoned.orderId).getByTestId("order-status").textContent())
        .toBe("Cancelled");
      expect(
        await row(abandoned.orderId)
          .getByRole("button", { name: /^Pay now/ })
          .count(),
      ).toBe(0);
      expect(page.viewportSize()?.width).toBe(width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

      // Pay now opens the same payment page the checkout opened.
      await row(resumed.orderId)
        .getByRole("button", { name: /^Pay now/ })
        .click();
      await page.waitForURL((url) => url.pathname.startsWith("/pay/test/"));
      expect(new URL(page.url()).pathname).toBe(new URL(resumed.redirectUrl).pathname);
    }
  });
});
