import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { expectAccessible, setupBrowser, snapshot } from "./browser";
import { placeAndPay } from "./orders";

const browser = setupBrowser();

/** Nothing on the page may push it sideways: the document is no wider than the window. */
async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

const looks = [
  { width: 375, theme: "dark" },
  { width: 1366, theme: "light" },
] as const;

describe("admin overview", () => {
  test("an admin sees today's and this month's figures and the chart, and follows pending moderation to the queue", async () => {
    // A sale of today's, on the server's clock: other journeys move that clock past the refund window,
    // possibly into the next month, where the demo's paid orders are no longer "this month".
    const buyer = await browser.newPage({ as: "buyer" });
    const list = (await (await buyer.request.get("/api/products?category=software&pageSize=1")).json()) as {
      items: { id: string; price: number }[];
    };
    const product = list.items[0];
    if (!product) throw new Error("no software product");
    await placeAndPay(buyer.request, {
      country: "PT",
      items: [{ productId: product.id, price: product.price }],
    });
    for (const { width, theme } of looks) {
      const page = await browser.newPage({ as: "admin", width, height: 900, theme });
      await page.goto("/admin");
      const today = page.getByTestId("overview-today");
      await today.getByText("Gross sales").waitFor();
      expect(await today.getByTestId("figure-Orders").textContent()).toMatch(/Orders\d+/);
      expect(
        await page.getByTestId("overview-month").getByTestId("figure-Gross sales").textContent(),
      ).toMatch(/Gross sales\$[\d,.]+/);
      // Today's sale is inside the 30 days, so the chart is drawn, its figures summarised.
      await page.getByTestId("overview-chart").locator("svg").first().waitFor();
      expect(await page.getByTestId("overview-daily-summary").textContent()).toMatch(/\d+ orders? and \$/);
      // The sale is booked by the server's clock, as the overview counts, so it is this month's
      // whatever another journey did to that clock.
      expect(await page.getByTestId("overview-top-products").getByRole("listitem").count()).toBeGreaterThan(
        0,
      );
      // The admin shell: admin navigation, and no marketing footer or newsletter box.
      expect(await page.getByTestId("footer").count()).toBe(0);
      expect(await page.getByLabel("Get deals and product news").count()).toBe(0);
      await page.getByRole("navigation", { name: "Admin" }).waitFor();
      await expectNoSidewaysScroll(page);
      // axe: the sweep checks this screen as it opens, at 1366 px light and 375 px dark.
      await snapshot(page, `h18-admin-overview-${width}-${theme}`, { fullPage: true });

      if (width === 1366) {
        await page.getByRole("link", { name: /Pending moderation/ }).click();
        await page.waitForURL((url) => url.pathname === "/admin/moderation");
        await page.getByRole("heading", { level: 1 }).waitFor();
      }
    }
  });

  test("an admin finds a buyer's orders by e-mail and sees their items without opening them", async () => {
    for (const { width, theme } of looks) {
      const page = await browser.newPage({ as: "admin", width, height: 900, theme });
      await page.goto("/admin/orders");
      const rows = page.getByTestId("admin-order-row");
      // The newest order's buyer, searched in capitals: the search ignores case.
      const email = (await rows.first().getByTestId("admin-order-buyer-email").textContent()) ?? "";
      expect(email).toContain("@");
      await page.getByLabel("Search orders").fill(email.toUpperCase());
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await page.waitForURL((url) => url.searchParams.get("q") === email.toUpperCase());
      await page.waitForFunction((wanted) => {
        const found = [...document.querySelectorAll('[data-testid="admin-order-buyer-email"]')];
        return found.length > 0 && found.every((cell) => cell.textContent === wanted);
      }, email);
      const items = rows.first().getByTestId("admin-order-items").getByRole("listitem");
      expect(await items.count()).toBeGreaterThan(0);
      expect(await items.first().textContent()).toMatch(/× \d+ at \$/);
      await expectNoSidewaysScroll(page);
      if (theme === "dark") await expectAccessible(page);
      await snapshot(page, `h18-admin-orders-search-${width}-${theme}`);
    }
  });
});
