import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { sellerApiExternalEndpoints } from "#domain/endpoints/seller-api";
import { licenseCheckStatuses, licenseCheckStatusMeaning } from "#domain/license-schemas";
import { href, paths, routePatterns } from "#domain/routes";
import { SELLER_API_KEY_PATTERN, sellerApiScopeInfo, sellerApiScopes } from "#domain/seller-api";
import { baseUrl, expectAccessible, expectNoErrorMarkup, setupBrowser, snapshot, viewports } from "./browser";

const browser = setupBrowser();

const developers = href(routePatterns.developers);
/** Every operation of the seller API as a caller writes it: `GET /api/seller/v1/orders`. */
const operations = Object.keys(sellerApiExternalEndpoints).map((key) => key.replace(" ", " /api"));

/** The part of a page's markup the server drew into `#root`, or "" when it sent the bare shell. */
const drawnRoot = (html: string) =>
  html.split('<div id="root" data-ssr>')[1]?.split('<script type="application/json" id="ssr-state">')[0] ??
  "";

describe("the seller API page for developers", () => {
  test("is drawn by the server with its own head, every scope and operation, and is in the sitemap", async () => {
    // Over HTTP, as a crawler reads it: no browser page needed. A render past its time limit on a busy
    // machine answers the shell, so that is asked again, twice at most.
    const load = async () => {
      const response = await fetch(`${baseUrl()}${developers}`, { headers: { accept: "text/html" } });
      return { status: response.status, html: await response.text() };
    };
    let { status, html } = await load();
    for (let attempt = 0; attempt < 2 && drawnRoot(html) === ""; attempt++) ({ status, html } = await load());
    expect(status).toBe(200);
    expectNoErrorMarkup(html, developers);
    expect(html).toContain("<title>Seller API | Stackbay</title>");
    expect(html).toMatch(
      /<meta name="description" content="[^"]*Stackbay orders and subscriptions[^"]*" \/>/,
    );
    const root = drawnRoot(html);
    expect(root).toMatch(/<main[\s>][\s\S]*<h1[^>]*>Seller API<\/h1>/);
    for (const scope of sellerApiScopes) {
      expect(root, scope).toContain(scope);
      expect(root, scope).toContain(sellerApiScopeInfo[scope].label);
    }
    for (const operation of operations) expect(root, operation).toContain(operation.split(" ")[1]);
    // The public license check, with every status it answers and what each means.
    expect(root).toContain("/api/licenses/validate");
    for (const status of licenseCheckStatuses)
      expect(root, status).toContain(licenseCheckStatusMeaning[status].replaceAll("'", "&#x27;"));

    const sitemap = await (await fetch(`${baseUrl()}/sitemap.xml`)).text();
    expect(sitemap).toContain(`${developers}</loc>`);
  });

  test("the footer leads to it; on a desktop in the light it shows every scope and operation and passes axe", async () => {
    const page = await browser.newPage({ width: 1280, theme: "light" });
    await page.goto(paths.faq());
    const footer = page.getByTestId("footer");
    await footer.scrollIntoViewIfNeeded();
    await footer.getByRole("link", { name: "Seller API" }).click();
    await page.waitForURL((url) => url.pathname === developers);
    await page.getByRole("heading", { level: 1, name: "Seller API" }).waitFor();
    await expect.poll(() => page.title()).toBe("Seller API | Stackbay");

    const scopes = page.getByTestId("scopes-table");
    for (const scope of sellerApiScopes) {
      const row = scopes.getByRole("row").filter({ hasText: scope });
      expect(await row.count(), scope).toBe(1);
      const text = (await row.textContent()) ?? "";
      expect(text).toContain(sellerApiScopeInfo[scope].label);
      expect(text).toContain(sellerApiScopeInfo[scope].grants);
      // Each scope names the operation it opens, and its link leads to that operation.
      const link = row.getByRole("link").first();
      const named = ((await link.textContent()) ?? "").trim();
      expect(operations).toContain(named);
      const target = await link.evaluate(
        (a) =>
          document.getElementById(a.getAttribute("href")?.slice(1) ?? "")?.querySelector("h3")?.textContent,
      );
      expect(target).toBe(named);
    }
    await expectOperations(page);
    await expectCodeBlocks(page, 1280);
    await expectAccessible(page);
    expect(await overflowsSideways(page)).toBe(false);
    await snapshot(page, "developers-1280-light", { fullPage: true });
  });

  test.for(viewports().filter((v) => !(v.width === 1280 && v.theme === "light")))(
    "opened directly at $width px, $theme: its code scrolls inside its box, never the page, and it passes axe",
    async ({ width, theme }) => {
      const page = await browser.newPage({ width, theme });
      const response = await page.goto(developers);
      expect(response?.status()).toBe(200);
      await page.getByRole("heading", { level: 1, name: "Seller API" }).waitFor();
      await expectOperations(page);
      await expectCodeBlocks(page, width);
      await expectAccessible(page);
      expect(await overflowsSideways(page)).toBe(false);
      await snapshot(page, `developers-${width}-${theme}`);
      await snapshot(page, `developers-${width}-${theme}-full`, { fullPage: true });
    },
  );
});

/** Each operation has a heading with its method and path, a scope line, a request and an answer. */
async function expectOperations(page: Page) {
  const shown = page.getByTestId("operation");
  expect(await shown.count()).toBe(operations.length);
  for (const operation of operations) {
    const [method = "", path = ""] = operation.split(" ");
    const block = shown.filter({
      has: page.getByRole("heading", { level: 3, name: `${method} ${path}`, exact: true }),
    });
    expect(await block.count(), operation).toBe(1);
    expect(await block.getByText("Scope:").count(), operation).toBe(1);
    const request = (await block.getByTestId("code-block").first().textContent()) ?? "";
    expect(request, operation).toContain(`curl "${baseUrl()}${path}`);
  }
}

/**
 * Code is monospace, the example key is a key's shape (with this site's address once the app runs), and
 * on a phone a long line scrolls inside its box.
 */
async function expectCodeBlocks(page: Page, width: number) {
  const first = page.getByTestId("code-block").first();
  // The drawn page shows a placeholder address; the app puts this site's in.
  await expect.poll(() => first.textContent()).toContain(baseUrl());
  const key = /Bearer (\S+)"/.exec((await first.textContent()) ?? "")?.[1] ?? "";
  expect(key).toMatch(SELLER_API_KEY_PATTERN);
  const box = await first.evaluate((pre) => ({
    font: getComputedStyle(pre).fontFamily,
    overflowX: getComputedStyle(pre).overflowX,
    scrolls: pre.scrollWidth > pre.clientWidth,
    right: pre.getBoundingClientRect().right,
  }));
  expect(box.font).toMatch(/mono/i);
  expect(box.overflowX).toBe("auto");
  expect(box.right).toBeLessThanOrEqual(width);
  if (width < 768) expect(box.scrolls).toBe(true);
}

const overflowsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
