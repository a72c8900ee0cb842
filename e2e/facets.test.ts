import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import type { ProductList } from "#domain/catalog-schemas";
import { pricingUnitLabels } from "#domain/pricing-units";
import { baseUrl, expectAccessible, setupBrowser, snapshot, viewports } from "./browser";

const browser = setupBrowser();

const api = async (query: string): Promise<ProductList> =>
  (await fetch(`${baseUrl()}/api/products?facets=true${query}`)).json() as Promise<ProductList>;
const countText = (page: Page) => page.getByTestId("product-count").textContent();
const showing = (n: number) => `Showing ${n} ${n === 1 ? "product" : "products"}`;
const shown = (list: ProductList) =>
  list.totalCapped ? `Showing ${list.total.toLocaleString("en-US")}+ products` : showing(list.total);

describe("facets on the products page", () => {
  test("desktop: a vendor and a rating narrow the list, survive a reload, a chip widens it, Back undoes; numbered pages link by cursor", async () => {
    const everything = await api("");
    const vendor = everything.facets!.vendors[0]!;
    const page = await browser.newPage({ width: 1366, height: 900 });
    await page.goto("/products");
    await expect.poll(() => countText(page)).toBe(shown(everything));

    const filters = page.getByRole("complementary", { name: "Filters" });
    await filters.getByRole("checkbox", { name: vendor.value }).click();
    await expect.poll(() => new URL(page.url()).searchParams.getAll("vendor")).toEqual([vendor.value]);
    await expect.poll(() => countText(page)).toBe(showing(vendor.count));

    const byVendor = await api(`&vendor=${encodeURIComponent(vendor.value)}`);
    const fourUp = byVendor.facets!.ratings.find((r) => r.value === 4)!;
    await filters.getByRole("radio", { name: /4\s*& up/ }).click();
    const narrowed = await api(`&vendor=${encodeURIComponent(vendor.value)}&minRating=4`);
    expect(narrowed.total).toBe(fourUp.count);
    await expect.poll(() => countText(page)).toBe(shown(narrowed));

    await page.reload();
    await expect.poll(() => countText(page)).toBe(shown(narrowed));
    expect(await filters.getByRole("checkbox", { name: vendor.value }).isChecked()).toBe(true);
    expect(await filters.getByRole("radio", { name: /4\s*& up/ }).isChecked()).toBe(true);
    await snapshot(page, "facets-1366-light");

    // Removing the vendor chip widens to every vendor rated 4 and up.
    await page.getByRole("button", { name: `Remove filter ${vendor.value}` }).click();
    await expect.poll(() => countText(page)).toBe(shown(await api("&minRating=4")));
    await page.goBack();
    await expect.poll(() => countText(page)).toBe(shown(narrowed));

    // The price range narrows too, and Clear all brings everything back.
    await filters.getByLabel("Min price (USD)").fill("1");
    await filters.getByLabel("Max price (USD)").fill("500");
    await filters.getByRole("button", { name: "Apply" }).click();
    const priced = await api(
      `&vendor=${encodeURIComponent(vendor.value)}&minRating=4&minPrice=1&maxPrice=500`,
    );
    await expect.poll(() => countText(page)).toBe(shown(priced));
    await page.getByRole("button", { name: "Clear all" }).click();
    await expect.poll(() => countText(page)).toBe(shown(everything));
    // Back to every product, as the page opens: the width sweep checks that state for accessibility.

    // Numbered pages link by cursor: page 2 follows page 1 without overlap (a catalogue of one page has
    // nothing to page through).
    const first = await api("&pageSize=24");
    if (!first.nextCursor) return;
    await page.getByTestId("product-card").first().waitFor();
    await page.getByRole("navigation", { name: "Pagination" }).getByRole("link", { name: "Next" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("page")).toBe("2");
    expect(new URL(page.url()).searchParams.get("after")).toBe(first.nextCursor);
    const second = await api(`&page=2&after=${first.nextCursor}`);
    await expect
      .poll(() => page.getByTestId("product-card").first().getByRole("heading").textContent())
      .toBe(second.items[0]!.name);
  });

  test("phone: the filter sheet narrows by pricing unit and the choice survives a reload", async () => {
    const everything = await api("");
    const unit = everything.facets!.units[0];
    if (!unit) throw new Error("the seeded catalogue has no product with a pricing unit");
    const page = await browser.newPage({ width: 375, height: 800 });
    await page.goto("/products");
    await expect.poll(() => countText(page)).toBe(shown(everything));

    await page.getByRole("button", { name: /^Filters/ }).click();
    const sheet = page.getByRole("dialog", { name: "Filters" });
    await sheet.getByRole("checkbox", { name: pricingUnitLabels[unit.value] }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("unit")).toBe(unit.value);
    await sheet.getByRole("button", { name: /^Show (\d|about )/ }).click();
    await expect.poll(() => countText(page)).toBe(showing(unit.count));

    await page.reload();
    await expect.poll(() => countText(page)).toBe(showing(unit.count));
    await page.getByRole("button", { name: `Remove filter ${pricingUnitLabels[unit.value]}` }).waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
    await page.getByRole("button", { name: /^Filters/ }).click();
    await sheet.waitFor();
    await expectAccessible(page);
  });

  test.each(viewports())("looks right at $width px, $theme", async ({ width, theme }) => {
    const page = await browser.newPage({ width: width === 1280 ? 1366 : width, height: 900, theme });
    await page.goto("/products?minRating=3");
    await page.getByTestId("product-card").first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      width === 1280 ? 1366 : width,
    );
    await snapshot(page, `facets-${width}-${theme}`);
    if (width < 1024) {
      await page.getByRole("button", { name: /^Filters/ }).click();
      await page.getByRole("dialog", { name: "Filters" }).waitFor();
      await snapshot(page, `facets-${width}-${theme}-sheet`);
    }
    await expectAccessible(page);
  });
});
