import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import type { ProductList } from "#domain/catalog-schemas";
import type { FinanceSummary, Reconciliation } from "#domain/finance";
import { formatUsd } from "#domain/money";
import { expectAccessible, setupBrowser, snapshot, toast, viewports } from "./browser";
import { placeAndPay } from "./orders";

const browser = setupBrowser();

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

async function openFinance(page: Page) {
  await page.goto("/admin/finance");
  await page.getByRole("heading", { level: 1, name: "Finance" }).waitFor();
  await page.getByTestId("figure-platformFees").waitFor();
  await page.getByTestId("reconciliation").waitFor();
  await page.getByTestId("fee-rules").waitFor();
}

describe("the operator's finance screen", () => {
  test("after a paid order a super admin sees its fee and tax due, reconciled; then sets a category fee", async () => {
    // A buyer pays an order for a software product.
    const buyer = await browser.newPage({ as: "buyer" });
    const list = (await (
      await buyer.request.get("/api/products?category=software&pageSize=1")
    ).json()) as ProductList;
    const product = list.items[0];
    if (!product) throw new Error("no software product");
    const order = await placeAndPay(buyer.request, {
      items: [{ productId: product.id, price: product.price }],
    });
    const page = await browser.newPage({ as: "superadmin" });
    await openFinance(page);
    expect(await page.title()).toBe("Finance | Stackbay");
    // The screen shows this month by default: the API's figures for the same month.
    const month = new Date().toISOString().slice(0, 7);
    expect(await page.getByTestId("finance-period").textContent()).toContain(`${month}-01`);
    const thisMonth = (await (
      await page.request.get(
        `/api/admin/finance?from=${month}-01&to=${new Date().toISOString().slice(0, 10)}`,
      )
    ).json()) as FinanceSummary;
    expect(thisMonth.platformFees).toBeGreaterThan(0);
    expect(await page.getByTestId("figure-platformFees").textContent()).toContain("Platform fees");
    const fees = await page.getByTestId("figure-platformFees").textContent();
    expect(fees).toMatch(/\$\d/);
    const taxRow = page.getByTestId("tax-due");
    await taxRow.waitFor();
    const jurisdiction = thisMonth.taxByJurisdiction[0];
    if (!jurisdiction) throw new Error("no tax collected this month");
    expect(await taxRow.textContent()).toContain(jurisdiction.label);
    expect(await taxRow.textContent()).toContain(formatUsd(jurisdiction.due));

    // The paid order reconciles: it is not among the differences; with none, the panel says so.
    const books = (await (
      await page.request.get("/api/admin/finance/reconciliation")
    ).json()) as Reconciliation;
    expect(books.differences.some((d) => d.orderId === order.id)).toBe(false);
    if (books.differences.length === 0) {
      expect(await page.getByTestId("reconciled").textContent()).toContain("Reconciled: no difference");
    }
    await expectAccessible(page);
    await snapshot(page, "h16-finance-1280-light", { fullPage: true });

    // A custom period with the end before the start is refused on the screen.
    await page.getByLabel("Period", { exact: true }).selectOption("custom");
    await page.getByLabel("From").fill("2026-03-10");
    await page.getByLabel("To (included)").fill("2026-03-01");
    await page.getByRole("button", { name: "Show" }).click();
    await page.getByText("The start date must be on or before the end date").waitFor();
    await page.getByLabel("Period", { exact: true }).selectOption("this-month");

    // Sets a 12.5% fee on Software.
    await page.getByRole("button", { name: "Add fee rule" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Add fee rule" });
    await dialog.waitFor();
    await dialog.getByLabel("Applies to").selectOption("category");
    await dialog.getByLabel("Category").selectOption("software");
    await dialog.getByLabel("Fee (%)").fill("60");
    await dialog.getByRole("button", { name: "Save fee" }).click();
    await dialog.getByText("The fee can be at most 50%").waitFor();
    await dialog.getByLabel("Fee (%)").fill("12.5");
    await dialog.getByRole("button", { name: "Save fee" }).click();
    await toast(page, "Fee saved").waitFor();
    const rule = page.getByTestId("fee-rule").filter({ hasText: "Software" });
    await rule.waitFor();
    expect(await rule.textContent()).toContain("12.5%");

    // The seller sees the new fee under the price of a product they are adding.
    const seller = await browser.newPage({ as: "seller" });
    await seller.goto("/seller/products/new");
    await seller.getByLabel("Category").selectOption("software");
    await seller.getByLabel("Price (USD)", { exact: true }).fill("200");
    await expect
      .poll(() => seller.getByTestId("seller-fee").textContent())
      .toBe(
        "Stackbay fee for Software Licenses: 12.5% — you receive $175.00 of each sale before any reseller commission.",
      );

    for (const { width, theme } of viewports()) {
      const shot = await browser.newPage({ as: "superadmin", width, height: 900, theme });
      await openFinance(shot);
      expect(await pageWidth(shot)).toBeLessThanOrEqual(width);
      if (theme === "dark") await expectAccessible(shot);
      await snapshot(shot, `h16-finance-${width}-${theme}`, { fullPage: true });
    }

    // Removing the rule asks first; afterwards the default applies again.
    await rule.getByRole("button", { name: "Remove fee: Software Licenses" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Remove this fee rule?" });
    await confirm.getByRole("button", { name: "Remove" }).click();
    await toast(page, "Fee rule removed").waitFor();
    await expect.poll(() => rule.count()).toBe(0);
  });
});
