import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { expectAccessible, setupBrowser, snapshot } from "./browser";

const browser = setupBrowser();

/** A phone in the dark and a desktop in the light; with SCREENSHOTS=1 both themes at both widths. */
const views: { width: number; theme: "light" | "dark" }[] =
  process.env.SCREENSHOTS === "1"
    ? [
        { width: 375, theme: "dark" },
        { width: 1366, theme: "light" },
        { width: 375, theme: "light" },
        { width: 1366, theme: "dark" },
      ]
    : [
        { width: 375, theme: "dark" },
        { width: 1366, theme: "light" },
      ];

const PHONE = 768;

/** The header's search box; on a phone it first opens from its button. */
async function searchBox(page: Page, width: number) {
  if (width < PHONE) await page.getByRole("button", { name: "Open search" }).click();
  const box = page.getByRole("combobox", { name: "Search products, vendors and categories" });
  await box.waitFor();
  // A phone's box takes the focus as it opens; on a desktop the person clicks into it.
  if (width >= PHONE) await box.click();
  return box;
}

describe("header search", () => {
  for (const { width, theme } of views) {
    test(`a typo in the header search finds the product (${width} px, ${theme})`, async () => {
      const page = await browser.newPage({ width, theme });
      await page.goto("/");
      await page.locator("main h1").first().waitFor();

      const box = await searchBox(page, width);
      await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
      await box.pressSequentially("kubernets");
      const meant = page.getByRole("option", { name: /Kubernetes Launch Package/ });
      await meant.waitFor();
      expect(await box.getAttribute("aria-expanded")).toBe("true");
      await snapshot(page, `search-suggestions-${width}-${theme}`);
      await expectAccessible(page);
      // Nothing in the header pushes the page sideways while the list is open.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

      if (width < PHONE) {
        await meant.click();
      } else {
        // The keyboard: Escape closes the list, ArrowDown reopens it and highlights the first suggestion.
        await box.press("Escape");
        expect(await box.getAttribute("aria-expanded")).toBe("false");
        await box.press("ArrowDown");
        await expect.poll(() => meant.getAttribute("aria-selected")).toBe("true");
        expect(await box.getAttribute("aria-activedescendant")).toBe(await meant.getAttribute("id"));
        await box.press("Enter");
      }
      await page.waitForURL(/\/products\/[0-9a-f-]{36}$/);
      await page.getByRole("heading", { level: 1, name: "Kubernetes Launch Package" }).waitFor();
    });
  }

  test("Enter without a highlighted suggestion searches all products, and the page offers the spelling meant", async () => {
    const page = await browser.newPage({ width: 1366 });
    await page.goto("/about");
    await page.locator("main h1").first().waitFor();
    const box = await searchBox(page, 1366);
    await box.fill("kubernets");
    await box.press("Enter");
    await page.waitForURL(
      (url) => url.pathname === "/products" && url.searchParams.get("search") === "kubernets",
    );
    await page.getByRole("heading", { name: "Kubernetes Launch Package" }).first().waitFor();
    const didYouMean = page.getByTestId("did-you-mean");
    await didYouMean.waitFor();
    expect(await didYouMean.textContent()).toBe("Did you mean kubernetes?");
    await snapshot(page, "search-did-you-mean-1366");
    await didYouMean.getByRole("link", { name: "kubernetes" }).click();
    await page.waitForURL((url) => url.searchParams.get("search") === "kubernetes");
    await expect.poll(() => didYouMean.count()).toBe(0);
  });
});
