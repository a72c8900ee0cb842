import { describe, expect, test } from "vitest";
import type { ProductDetail, ProductList } from "#domain/catalog-schemas";
import { paths } from "#domain/routes";
import { holdRequests, setupBrowser, snapshot, viewports } from "./browser";

const browser = setupBrowser();

/**
 * Public pages are drawn on the server (decision 0020): what a visitor sees before the app's code runs,
 * and what a crawler reads, is the page itself; the app then takes it over without drawing it again.
 */
describe("pages drawn on the server", () => {
  test("with no script at all, the catalogue and a product page show their products, prices and filters", async () => {
    for (const { width } of viewports().filter((v) => v.theme === "light")) {
      const page = await browser.newPage({ width, javaScript: false });
      const list = (await (await page.request.get("/api/products")).json()) as ProductList;
      const first = list.items[0]!;
      await page.goto(paths.products());
      await expect.poll(() => page.getByTestId("product-card").count()).toBe(list.items.length);
      await expect.poll(() => page.getByRole("heading", { name: first.name }).isVisible()).toBe(true);
      await expect.poll(() => page.getByTestId("product-count").textContent()).toMatch(/Showing/);
      await snapshot(page, `ssr-products-nojs-${width}`);

      const detail = (await (await page.request.get(`/api/products/${first.id}`)).json()) as ProductDetail;
      await page.goto(paths.product(first.id));
      await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe(detail.name);
      await snapshot(page, `ssr-product-nojs-${width}`, { fullPage: true });
    }
  });

  test("the app takes the drawn page over without redrawing it, then applies what this browser stored", async () => {
    for (const { width, theme } of viewports()) {
      const page = await browser.newPage({ width, theme });
      // Elements the app removes while taking over: none, if it adopted the server's markup.
      await page.addInitScript(() => {
        const removed: string[] = [];
        (window as unknown as { removedCards: string[] }).removedCards = removed;
        new MutationObserver((records) => {
          for (const record of records)
            for (const node of record.removedNodes)
              if (node instanceof HTMLElement && node.matches("article, main, header, footer"))
                removed.push(node.tagName);
        }).observe(document, { childList: true, subtree: true });
        localStorage.setItem("stackbay.currency", "EUR");
      });
      const response = await page.goto(paths.products());
      expect(await response?.text()).toContain("data-ssr");
      // Drawn in US dollars by the server, shown in the visitor's euros once the app has taken over.
      await expect.poll(() => page.getByTestId("product-card").first().textContent()).toContain("€");
      expect(
        await page.evaluate(() => (window as unknown as { removedCards: string[] }).removedCards),
      ).toEqual([]);
      await snapshot(page, `ssr-products-${width}-${theme}`);

      // The cards answer: their buttons were given their handlers.
      const card = page.getByTestId("product-card").first();
      const name = (await card.getByRole("heading").textContent()) ?? "";
      await card.getByRole("button", { name: `Add ${name} to cart` }).click();
      await expect.poll(() => page.getByTestId("cart-count").first().textContent()).toBe("1");
    }
  });

  test("a tap before the app has taken the page over is not lost: it acts once the app has", async () => {
    const page = await browser.newPage({ width: 375 });
    // The app's code is held back, so the drawn page stays without handlers until released.
    const release = await holdRequests(page, "**/assets/boot-*.js");
    // The page's small entry script asks for that code once it listens for taps (src/web/main.tsx);
    // before it has run, no script at all is there to hear a tap. On a busy machine the drawn page can
    // be tapped before then, so the tap waits for the entry's request.
    const entryRan = page.waitForRequest("**/assets/boot-*.js");
    await page.goto(paths.home(), { waitUntil: "commit" });
    await entryRan;
    await page.getByTestId("mobile-menu-toggle").click();
    expect(await page.locator("#root[data-ssr]").count()).toBe(1);
    expect(await page.getByTestId("mobile-menu").count()).toBe(0);
    release();
    await page.getByTestId("mobile-menu").getByRole("link", { name: "Login" }).waitFor();
  });
});
