import { describe, expect, test } from "vitest";
import type { ProductList } from "#domain/catalog-schemas";
import type { ResellerLinks } from "#domain/referrals";
import { baseUrl, expectAccessible, setupBrowser, snapshot } from "./browser";

const browser = setupBrowser();

const api = async (query: string): Promise<ProductList> =>
  (await fetch(`${baseUrl()}/api/products${query}`)).json() as Promise<ProductList>;

// Issue 30's low items that only a browser shows: a page past the end of the products list, the vendor
// facet's "Show all", the footer without social links nobody configured, and the reseller links' search.
describe("catalogue edges", () => {
  test("desktop: a page past the end leads back to the last page; all vendors can be shown and hidden by keyboard", async () => {
    const everything = await api("?facets=true");
    const lastPage = Math.ceil(everything.total / everything.pageSize);
    const page = await browser.newPage({ width: 1366, height: 900, theme: "light" });
    await page.goto("/products?page=99");
    await page.getByTestId("past-the-end").waitFor();
    expect(await page.getByTestId("product-count").textContent()).toBe(
      `No products on page 99: the list has ${everything.total} products on ${lastPage} pages`,
    );
    expect(await page.getByText("No products found").count()).toBe(0);
    // The demo sets no SOCIAL_*_URL: the footer links to no social account.
    expect(await page.getByRole("list", { name: "Stackbay on social media" }).count()).toBe(0);
    await expectAccessible(page);
    await snapshot(page, "i30-past-the-end-1366-light");
    await page.getByRole("link", { name: `Go to the last page (${lastPage})` }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("page")).toBe(String(lastPage));
    await page.getByTestId("product-card").first().waitFor();
    expect(await page.getByTestId("past-the-end").count()).toBe(0);

    const filters = page.getByRole("complementary", { name: "Filters" });
    const vendors = filters.getByRole("group", { name: "Vendor" }).getByRole("checkbox");
    const total = everything.facets!.vendorsTotal;
    expect(total).toBeGreaterThan(20);
    await expect.poll(() => vendors.count()).toBe(20);
    const showAll = filters.getByRole("button", { name: `Show all vendors (${total})` });
    expect(await showAll.getAttribute("aria-expanded")).toBe("false");
    await showAll.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => vendors.count()).toBe(total);
    const showFewer = filters.getByRole("button", { name: "Show fewer" });
    expect(await showFewer.getAttribute("aria-expanded")).toBe("true");
    // The last vendor, out of reach before, can be chosen.
    const last = everything.facets!.vendors.at(-1)!;
    // A click, not check(): the list is drawn again around the choice (chosen vendors first), so the box
    // clicked is not the one that ends up ticked.
    await filters.getByRole("checkbox", { name: last.value }).click();
    await expect.poll(() => new URL(page.url()).searchParams.getAll("vendor")).toEqual([last.value]);
    await expect.poll(() => filters.getByRole("checkbox", { name: last.value }).isChecked()).toBe(true);
    await showFewer.press("Space");
    await expect.poll(() => vendors.count()).toBeLessThanOrEqual(20);
  });

  test("phone, dark: the reseller searches their links, pages through them, and is told when nothing matches", async () => {
    const page = await browser.newPage({ width: 375, height: 800, theme: "dark", as: "reseller" });
    await page.goto("/dashboard/reseller");
    const rows = page.getByTestId("reseller-link-row");
    await rows.first().waitFor();
    await expect.poll(() => rows.count()).toBe(20);
    const links = (await (
      await page.request.get("/api/reseller/links?pageSize=100")
    ).json()) as ResellerLinks;
    await page.getByText(`${links.total} in all · page 1 of ${Math.ceil(links.total / 20)}`).waitFor();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByText(`page 2 of ${Math.ceil(links.total / 20)}`).waitFor();

    const wanted = links.items.at(-1)!;
    const search = page.getByRole("searchbox", { name: "Search your links" });
    await search.fill(wanted.name);
    await expect.poll(() => rows.first().getByRole("link").first().textContent()).toBe(wanted.name);
    await search.fill("no product is called this");
    await page.getByText('No products match "no product is called this".').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectAccessible(page);
    await snapshot(page, "i30-reseller-search-375-dark", { fullPage: true });
  });
});
