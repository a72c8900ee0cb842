import { beforeAll, describe, expect, test } from "vitest";
import { routePatterns } from "#domain/routes";
import { baseUrl, setupBrowser } from "./browser";

const browser = setupBrowser();

let productId = "";
beforeAll(async () => {
  const list = await (await fetch(`${baseUrl()}/api/products?pageSize=1`)).json();
  productId = list.items[0].id;
});

const concrete = (pattern: string) =>
  pattern
    .replace("/vendors/:slug", "/vendors/cinderpath-security")
    .replace(":id", productId)
    .replace(":slug", "buyer-protection")
    .replace(":view", "saved");

const publicPatterns = Object.entries(routePatterns)
  .filter(
    ([name]) => !name.startsWith("legacy") && !name.startsWith("admin") && !name.startsWith("dashboard"),
  )
  .filter(([name]) => name !== "checkout")
  .map(([, pattern]) => pattern);

describe("routing", () => {
  test("every public route of the table renders its screen, not the 404 screen", async () => {
    const page = await browser.newPage();
    for (const path of publicPatterns.map(concrete)) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await expect.poll(() => page.locator("main h1").first().isVisible(), { message: path }).toBe(true);
      expect(await page.getByTestId("not-found").count(), path).toBe(0);
    }
  });

  test("signed-in and admin routes send a visitor to /login, remembering where they were going", async () => {
    const page = await browser.newPage();
    const guarded = Object.entries(routePatterns)
      .filter(([name]) => name.startsWith("admin") || name.startsWith("dashboard") || name === "checkout")
      .map(([, pattern]) => concrete(pattern));
    for (const path of guarded) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await expect.poll(() => new URL(page.url()).pathname, { message: path }).toBe("/login");
    }
  });

  test("an unknown path shows the 404 screen with HTTP status 404", async () => {
    const page = await browser.newPage({ allowErrors: [/status of 404/] });
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await expect.poll(() => page.getByTestId("not-found").isVisible()).toBe(true);
    expect(await page.getByRole("heading", { name: "Oops! Page not found" }).isVisible()).toBe(true);
    await page.getByRole("link", { name: "Return to Home" }).click();
    // (Home, as it opens, is checked for accessibility by the width sweep.)
    await expect.poll(() => new URL(page.url()).pathname).toBe("/");
  });

  test("legacy link shapes land on the route table's screens", async () => {
    const page = await browser.newPage();
    const cases: [string, string][] = [
      [`/product/${productId}`, `/products/${productId}`],
      ["/page/buyer-protection", "/pages/buyer-protection"],
    ];
    for (const [from, to] of cases) {
      await page.goto(from);
      await expect.poll(() => new URL(page.url()).pathname, { message: from }).toBe(to);
    }
  });

  test("the unauthorized screen offers the way home", async () => {
    const page = await browser.newPage();
    await page.goto("/unauthorized");
    await page.getByRole("heading", { name: "Unauthorized Access" }).waitFor();
    expect(await page.getByText("You don't have permission to access this page.").isVisible()).toBe(true);
    expect(await page.getByRole("link", { name: "Go to Home" }).getAttribute("href")).toBe("/");
    expect(baseUrl()).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  test("a new page starts at its top, Back returns to where the page was left, a ticked filter does not move the page", async () => {
    const page = await browser.newPage({ width: 1366, height: 700 });
    const scrollY = () => page.evaluate(() => Math.round(window.scrollY));
    const scrollTo = (y: number) =>
      expect
        .poll(async () => {
          await page.evaluate((top) => window.scrollTo(0, top), y);
          return scrollY();
        })
        .toBe(y);
    await page.goto("/products");
    await page.waitForLoadState("networkidle");
    await scrollTo(400);
    // The filter panel keeps its place when a box is ticked (the list changes under it).
    const filters = page.getByRole("complementary", { name: "Filters" });
    await filters.getByRole("checkbox").first().click();
    await expect.poll(() => new URL(page.url()).search).not.toBe("");
    expect(await scrollY()).toBeGreaterThan(0);
    const listed = page.url();
    await page.waitForLoadState("networkidle");
    await scrollTo(300);
    await page.getByTestId("product-card").first().getByRole("link").first().click();
    await expect.poll(() => page.url()).not.toBe(listed);
    await expect.poll(scrollY).toBe(0);
    await page.goBack();
    await expect.poll(() => page.url()).toBe(listed);
    await expect.poll(scrollY).toBe(300);
  });

  test("a reload returns to where the page was, once its list (asked for by the browser) has come", async () => {
    const page = await browser.newPage({ as: "admin", width: 1366, height: 700 });
    const scrollY = () => page.evaluate(() => Math.round(window.scrollY));
    await page.goto("/admin/products");
    await page.getByTestId("managed-product-row").nth(20).waitFor();
    await page.evaluate(() => window.scrollTo(0, 900));
    await expect.poll(scrollY).toBe(900);
    // The list comes a moment after the page: at first the page is too short to be scrolled that far.
    await page.route("**/api/manage/products?*", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await route.continue();
    });
    await page.reload();
    await page.getByTestId("managed-product-row").nth(20).waitFor();
    await expect.poll(scrollY).toBe(900);
  });
});
