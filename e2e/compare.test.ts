import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import type { ProductDetail, ProductList } from "#domain/catalog-schemas";
import type { CompareAnswer } from "#domain/compare";
import { expectAccessible, setupBrowser, snapshot, toast, viewports } from "./browser";

const browser = setupBrowser();

/** Three products on sale with specifications, of one category so they share some keys. */
async function threeWithSpecifications(page: Page): Promise<ProductDetail[]> {
  const list = (await (
    await page.request.get("/api/products?category=hardware&pageSize=48")
  ).json()) as ProductList;
  const found: ProductDetail[] = [];
  for (const item of list.items) {
    const detail = (await (await page.request.get(`/api/products/${item.id}`)).json()) as ProductDetail;
    if (detail.specifications.length > 0) found.push(detail);
    if (found.length === 3) return found;
  }
  throw new Error("fewer than three hardware products with specifications");
}

const sideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

/** The table's rows as the page shows them: label, whether marked as differing, and each product's text. */
const rowsShown = (page: Page) =>
  page.getByTestId("compare-row").evaluateAll((rows) =>
    rows.map((row) => ({
      label: row.querySelector('[data-testid="compare-row-label"]')?.textContent ?? "",
      differs: row.hasAttribute("data-differs"),
      values: [...row.querySelectorAll("td")].map((td) => (td.textContent ?? "").trim()),
    })),
  );

describe("comparing products", () => {
  test("three products picked on their pages compare side by side with specifications aligned and differences marked, from the URL after a reload, on a phone and a desktop", async () => {
    const phone = await browser.newPage({ width: 375, theme: "dark" });
    const three = await threeWithSpecifications(phone);
    const ids = three.map((p) => p.id);

    // Picked on each product's page; the tray follows and leads to the comparison.
    for (const product of three) {
      await phone.goto(`/products/${product.id}`);
      await phone.getByRole("heading", { level: 1, name: product.name }).waitFor();
      await phone.getByRole("button", { name: "Compare", exact: true }).click();
      await expect
        .poll(() => phone.getByRole("button", { name: "Compare", exact: true }).getAttribute("aria-pressed"))
        .toBe("true");
    }
    const tray = phone.getByRole("region", { name: "Compare tray" });
    await tray.getByText("Compare 3 of 4").waitFor();
    // Related products under the details: never the product itself.
    const related = phone.getByTestId("related-products");
    await related.getByTestId("product-card").first().waitFor();
    expect(await related.getByRole("link", { name: three[2]?.name, exact: true }).count()).toBe(0);
    await snapshot(phone, "compare-tray-375-dark");
    await tray.getByRole("link", { name: "Compare now" }).click();
    await phone.waitForURL((url) => url.pathname === "/compare");
    expect(new URL(phone.url()).searchParams.get("ids")).toBe(ids.join(","));

    // What the server aligned is what the table shows, row by row, "—" where a product has no value.
    const answer = (await (
      await phone.request.get(`/api/compare?ids=${ids.join(",")}`)
    ).json()) as CompareAnswer;
    await phone.getByTestId("compare-table").waitFor();
    const expectTable = async (page: Page) => {
      const names = await page.getByTestId("compare-product-name").allTextContents();
      expect(names).toEqual(three.map((p) => p.name));
      const rows = await rowsShown(page);
      const specRows = rows.filter((row) => answer.specifications.some((s) => s.key === row.label));
      expect(specRows.map((row) => row.label)).toEqual(answer.specifications.map((s) => s.key));
      for (const [index, spec] of answer.specifications.entries()) {
        const row = specRows[index];
        expect(row?.values).toEqual(spec.values.map((v) => v ?? "—Not listed"));
        const differs = new Set(spec.values.map((v) => v?.toLowerCase() ?? null)).size > 1;
        expect(row?.differs, spec.key).toBe(differs);
      }
      // Differing rows say so in words, not colour alone.
      const marked = page.locator('[data-testid="compare-row"][data-differs]');
      expect(await marked.count()).toBeGreaterThan(0);
      await marked.first().getByText("Differs").waitFor();
      return rows;
    };
    const rows = await expectTable(phone);
    expect(rows.map((r) => r.label).slice(0, 5)).toEqual([
      "Price",
      "Rating",
      "Vendor",
      "Category",
      "Discount",
    ]);
    // A phone stacks the table rather than scrolling the page sideways.
    expect(await phone.locator('[data-slot="table-frame"][data-stacked]').count()).toBe(1);
    expect(await sideways(phone)).toBe(false);
    await expectAccessible(phone);
    await snapshot(phone, "compare-375-dark", { fullPage: true });

    // Only the differences, by keyboard.
    await phone.getByLabel("Show only differences").focus();
    await phone.keyboard.press("Space");
    await expect.poll(async () => (await rowsShown(phone)).every((row) => row.differs)).toBe(true);
    expect((await rowsShown(phone)).length).toBe(rows.filter((row) => row.differs).length);

    // A reload keeps the comparison: it lives in the URL.
    await phone.reload();
    await phone.getByTestId("compare-table").waitFor();
    await expectTable(phone);

    // The shared link on a desktop: an ordinary table, nothing sideways. Opened directly once per theme;
    // a second width of a theme is the same page resized. Axe looks at the newly opened desktop; the
    // phone above has just checked this table at 375 px dark, and 1366 px is the same layout as 1280 px.
    const opened = new Map<string, Page>();
    for (const { width, theme } of [...viewports(), { width: 1366, theme: "light" as const }]) {
      const reused = opened.get(theme);
      const page = reused ?? (await browser.newPage({ width, theme }));
      if (reused) {
        await page.setViewportSize({ width, height: 800 });
      } else {
        opened.set(theme, page);
        await page.goto(`/compare?ids=${ids.join(",")}`);
      }
      await page.getByTestId("compare-table").waitFor();
      await expectTable(page);
      const stacked = () => page.locator('[data-slot="table-frame"][data-stacked]').count();
      // A resized page lays itself out again a moment after.
      if (reused) await expect.poll(stacked).toBe(width < 768 ? 1 : 0);
      else expect(await stacked()).toBe(width < 768 ? 1 : 0);
      expect(await sideways(page)).toBe(false);
      if (!reused && width >= 768) await expectAccessible(page);
      await snapshot(page, `compare-${width}-${theme}`, { fullPage: true });
    }

    // Removing a product narrows the comparison and its URL (on the desktop in the light, at 1366 px).
    const desk = opened.get("light");
    if (!desk) throw new Error("the desktop in the light was not opened");
    await desk.getByRole("button", { name: `Remove ${three[1]?.name} from the comparison` }).click();
    await desk.waitForURL((url) => url.searchParams.get("ids") === `${ids[0]},${ids[2]}`);
    await expect
      .poll(() => desk.getByTestId("compare-product-name").allTextContents())
      .toEqual([three[0]?.name, three[2]?.name]);
    // One left is no comparison.
    await desk.getByRole("button", { name: `Remove ${three[0]?.name} from the comparison` }).click();
    await desk.getByRole("heading", { name: "Pick at least two products" }).waitFor();
  }, 180_000);

  test("the tray holds four and says so when full; an empty comparison asks for two", async () => {
    const page = await browser.newPage({ width: 1366, theme: "dark" });
    const list = (await (await page.request.get("/api/products?pageSize=5")).json()) as ProductList;
    for (const [index, product] of list.items.entries()) {
      await page.goto(`/products/${product.id}`);
      await page.getByRole("heading", { level: 1, name: product.name }).waitFor();
      await page.getByRole("button", { name: "Compare", exact: true }).click();
      if (index < 4) {
        await page.getByText(`Compare ${index + 1} of 4`).waitFor();
      } else {
        await toast(page, "Compare is full", `Remove one to add ${product.name}`).waitFor();
        expect(
          await page.getByRole("button", { name: "Compare", exact: true }).getAttribute("aria-pressed"),
        ).toBe("false");
      }
    }
    await expectAccessible(page);
    await snapshot(page, "compare-tray-1366-dark");
    await page.goto(`/compare?ids=${list.items.map((p) => p.id).join(",")}`);
    await page.getByRole("heading", { name: "This comparison cannot be shown" }).waitFor();
    await page.getByText("You can compare at most 4 products").waitFor();
    // The empty comparison, opened once: it asks for two and offers the four in the tray.
    await page.goto("/compare");
    await page.getByRole("heading", { name: "Pick at least two products" }).waitFor();
    await snapshot(page, "compare-empty-1366-dark");
    await page.getByRole("link", { name: "Compare the 4 products you picked" }).click();
    await page.getByTestId("compare-table").waitFor();
    expect(await page.getByTestId("compare-product-name").count()).toBe(4);
    expect(await sideways(page)).toBe(false);
    await expectAccessible(page);
    await snapshot(page, "compare-four-1366-dark", { fullPage: true });
  }, 120_000);
});
