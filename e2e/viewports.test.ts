import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { type DemoAccount, seriousViolations, setupBrowser } from "./browser";
import { orderConfirmedByHand } from "./route-visits";

const browser = setupBrowser();

/**
 * Widest first: each screen opens at 1024 px (dark) and 1920 px (light) and is then narrowed, as a
 * window is; a layout that only fits when opened narrow (a table stacked at 320 px stays stacked when
 * widened) is caught this way.
 */
const WIDTHS = [1920, 1366, 1024, 900, 768, 375, 320];

/** Every screen of the route table, each with a role that may open it (admin screens by their admins). */
const screens: { who: DemoAccount | "visitor"; paths: string[] }[] = [
  {
    who: "visitor",
    paths: [
      "/",
      "/products",
      "/products/{product}",
      "/compare?ids={three products}",
      "/cart",
      "/login",
      "/signup",
      "/verify",
      "/forgot-password",
      "/about",
      "/contact",
      "/faq",
      "/privacy",
      "/terms",
      "/partner",
      "/pages/buyer-protection",
      "/vendors/cinderpath-security",
      "/unauthorized",
    ],
  },
  {
    who: "buyer",
    paths: [
      "/dashboard",
      "/dashboard/saved",
      "/dashboard/licenses",
      "/dashboard/profile",
      "/dashboard/wallet",
      "/dashboard/settings",
      "/dashboard/refunds",
      "/checkout",
    ],
  },
  {
    who: "seller",
    paths: [
      "/dashboard",
      "/dashboard/earnings",
      "/dashboard/shipping",
      "/dashboard/questions",
      "/dashboard/storefront",
      "/seller/products",
      "/seller/products/new",
    ],
  },
  { who: "reseller", paths: ["/dashboard/reseller"] },
  {
    who: "admin",
    paths: [
      "/admin/products",
      "/admin/add-product",
      "/admin/categories",
      "/admin/pages",
      "/admin/pages/add",
      "/admin/content",
      "/admin/inbox",
      "/admin/orders",
      "/admin/users",
      "/admin/refunds",
      "/admin/commissions",
      "/admin/moderation",
      "/admin/featured",
      "/admin/search",
    ],
  },
  {
    who: "superadmin",
    paths: ["/admin/system", "/admin/audit", "/admin/tax-rates", "/admin/payouts", "/admin/finance"],
  },
];

/**
 * Opens `path` as the app's own links do (a client-side navigation after the first load), so the
 * document, and the axe-core it holds, stays; then waits for the heading and for loading placeholders
 * (busy regions, pulsing skeletons) to be gone.
 */
async function open(page: Page, path: string) {
  if (page.url().startsWith("http")) {
    await page.evaluate((to) => {
      window.history.pushState({}, "", to);
      window.dispatchEvent(new PopStateEvent("popstate"));
    }, path);
  } else await page.goto(path);
  await page.waitForURL((url) => url.pathname === path.split("?")[0]);
  await page.locator("main h1, main h2").first().waitFor();
  await page
    .waitForFunction(() => !document.querySelector('main [aria-busy="true"], main .animate-pulse'), null, {
      timeout: 5_000,
    })
    .catch(() => undefined);
}

/** Two frames: a resize's ResizeObserver callbacks and the renders they cause have run. */
const settled = (page: Page) =>
  page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

/**
 * What scrolls sideways: the page itself, or any region inside it other than a table's frame (a table
 * stacks on a phone and scrolls inside its frame from 768 px; see `TableFrame`).
 */
const sideways = (page: Page) =>
  page.evaluate(() => {
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) found.push(`the page (${root.scrollWidth} px)`);
    for (const element of document.querySelectorAll("main *")) {
      const style = getComputedStyle(element);
      if (style.overflowX !== "auto" && style.overflowX !== "scroll") continue;
      if (element.matches('[data-slot="table-frame"]')) continue;
      if (element.scrollWidth > element.clientWidth + 1)
        found.push(
          `${element.tagName.toLowerCase()}[${element.getAttribute("aria-label") ?? element.className}]`,
        );
    }
    return found;
  });

describe("every screen at every width", () => {
  test("from 320 to 1920 px nothing scrolls sideways, and axe finds nothing serious in the dark on a phone or in the light on a desktop", async () => {
    const list = (await (await (await browser.newPage()).request.get("/api/products?pageSize=3")).json()) as {
      items: { id: string }[];
    };
    const product = list.items[0]?.id ?? "";
    const threeProducts = list.items.map((item) => item.id).join(",");
    await orderConfirmedByHand(browser);
    const problems: string[] = [];
    for (const { who, paths } of screens) {
      const role = who === "visitor" ? undefined : who;
      const dark = await browser.newPage({ as: role, width: 1024, height: 800, theme: "dark" });
      const light = await browser.newPage({ as: role, width: 1920, height: 800, theme: "light" });
      for (const path of paths.map((p) =>
        p.replace("{product}", product).replace("{three products}", threeProducts),
      )) {
        for (const page of [dark, light]) await open(page, path);
        for (const width of WIDTHS) {
          const page = width < 1366 ? dark : light;
          await page.setViewportSize({ width, height: 800 });
          await settled(page);
          for (const what of await sideways(page)) problems.push(`${who} ${path} at ${width} px: ${what}`);
        }
        for (const page of [dark, light]) {
          const theme = page === dark ? "dark" : "light";
          for (const violation of await seriousViolations(page))
            problems.push(`${who} ${path} (${theme}): ${violation}`);
        }
        await dark.setViewportSize({ width: 1024, height: 800 });
        await light.setViewportSize({ width: 1920, height: 800 });
      }
    }
    expect(problems).toEqual([]);
  }, 300_000);

  test("the product grid shows two full rows of cards above the fold at 1366 × 900, their prices in line", async () => {
    const page = await browser.newPage({ width: 1366, height: 900 });
    await page.goto("/products");
    await page.getByTestId("product-card").nth(7).waitFor();
    const cards = await page.getByTestId("product-card").evaluateAll((elements) =>
      elements.slice(0, 8).map((card) => {
        const box = card.getBoundingClientRect();
        const price = card.querySelector('[data-testid="price"]')?.getBoundingClientRect();
        return { top: box.top, bottom: box.bottom, priceTop: price?.top ?? -1 };
      }),
    );
    const rows = [...new Set(cards.map((card) => Math.round(card.top)))];
    expect(rows).toHaveLength(2);
    for (const card of cards) expect(card.bottom).toBeLessThanOrEqual(900);
    // Within a row every price starts at the same height, whatever the names and badges above it.
    for (const top of rows) {
      const prices = cards.filter((card) => Math.round(card.top) === top).map((card) => card.priceTop);
      expect(new Set(prices.map(Math.round)).size).toBe(1);
    }
  });
});
