import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { formatDate } from "#domain/dates";
import type { SaleLine } from "#domain/earnings";
import { formatOwed, formatUsd } from "#domain/money";
import { expectAccessible, newAccount, setupBrowser, snapshot, viewports } from "./browser";
import { placeAndPay } from "./orders";

const browser = setupBrowser();

const statFigure = (page: Page, label: string) =>
  page
    .getByRole("region", { name: "Sales summary" })
    .getByText(label, { exact: true })
    .locator("xpath=following-sibling::dd")
    .textContent();

describe("earnings", () => {
  test("a new seller's sale: pending with its date and the 10% fee, seller figures on the dashboard, a CSV to download", async () => {
    const seller = await browser.newPage();
    await newAccount(seller, { firstName: "Sela", lastName: "Seller", accountType: "seller" });
    const name = `Earnings Test Suite ${randomUUID().slice(0, 6)}`;
    const created = await seller.request.post("/api/manage/products", {
      data: { name, category: "software", price: 80 },
    });
    expect(created.status()).toBe(201);
    const product = ((await created.json()) as { product: { id: string } }).product;
    // A new seller's listing is public only once an admin approves it (decision 0013).
    const admin = await browser.newPage({ as: "admin" });
    expect((await admin.request.post(`/api/admin/moderation/${product.id}/approve`)).status()).toBe(200);

    // Before any sale the view says where sales will appear.
    await seller.goto("/dashboard/earnings");
    await seller.getByRole("heading", { level: 2, name: "Earnings" }).waitFor();
    await seller.getByText("No sales yet — your sales and what you earn from each appear here.").waitFor();

    const buyer = await browser.newPage({ as: "buyer" });
    await placeAndPay(buyer.request, { country: "Portugal", items: [{ productId: product.id, price: 80 }] });
    // The dashboard's cards are the seller's: what they sold, not what they bought.
    await seller.goto("/dashboard");
    await expect.poll(() => statFigure(seller, "Orders Received")).toBe("1");
    expect(await statFigure(seller, "Gross Sales")).toBe(formatOwed(80));
    expect(await statFigure(seller, "Net Earnings")).toBe(formatOwed(72));
    expect(await seller.getByText("Total Spent").count()).toBe(0);

    await seller
      .getByRole("navigation", { name: "Dashboard menu" })
      .getByRole("link", { name: "Earnings" })
      .click();
    await seller.waitForURL("**/dashboard/earnings");
    const row = seller.getByTestId("sale-row").filter({ hasText: name });
    await row.waitFor();
    const line = ((await (await seller.request.get("/api/earnings/sales")).json()) as { items: SaleLine[] })
      .items[0] as SaleLine;
    expect(line).toMatchObject({ gross: 80, fee: 8, feeRate: 0.1, net: 72, status: "pending" });
    const text = (await row.textContent()) ?? "";
    expect(text).toContain("$8.00 (10%)");
    expect(text).toContain("$72.00");
    expect(text).toContain("Pending");
    expect(text).toContain(formatDate(line.availableAt ?? ""));
    const pending = seller.getByTestId("balances-seller").getByTestId("balance-pending");
    expect(await pending.textContent()).toContain(formatUsd(72));
    const day = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" }).format(
      new Date(line.availableAt ?? ""),
    );
    expect(await pending.textContent()).toContain(`next: ${formatUsd(72)} on ${day}`);
    await seller.getByTestId("earnings-chart").waitFor();
    await expectAccessible(seller);

    // Export CSV downloads every sale.
    const [download] = await Promise.all([
      seller.waitForEvent("download"),
      seller.getByTestId("export-csv").click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^stackbay-sales-\d{4}-\d\d-\d\d\.csv$/);
    const csv = await readFile((await download.path()) ?? "", "utf8");
    const rows = csv.trimEnd().split("\r\n");
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain(`"${name}",1,80.00,0.1000,8.00,0.00,`);
    expect(rows[1]).toContain(`,72.00,"Pending",`);

    for (const { width, theme } of viewports()) {
      const page = await browser.newPage({ width, height: 900, theme });
      await page.context().addCookies(await seller.context().cookies());
      await page.goto("/dashboard/earnings");
      await page
        .getByTestId(width < 768 ? "sale-card" : "sale-row")
        .first()
        .waitFor();
      await page.getByTestId("earnings-chart").waitFor();
      if (width < 768) {
        expect(await page.getByTestId("sales-table").isVisible()).toBe(false);
        // No sideways scrolling of the page on a phone.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      }
      await snapshot(page, `h16-earnings-${width}-${theme}`, { fullPage: true });
      if (theme === "dark") await expectAccessible(page);
    }

    // The wallet shows the real balances and leads to Earnings.
    await seller.goto("/dashboard/wallet");
    await seller.getByTestId("wallet-balances").waitFor();
    expect(await seller.getByTestId("wallet-pending").textContent()).toBe(formatUsd(72));
    await snapshot(seller, "h16-wallet-seller");
    await seller.getByRole("link", { name: "See your earnings" }).click();
    await seller.waitForURL("**/dashboard/earnings");
  });

  test("a buyer has no Earnings view in the menu and their figures stay a buyer's", async () => {
    const page = await browser.newPage({ as: "buyer" });
    await page.goto("/dashboard");
    await page.getByRole("region", { name: "Order summary" }).getByText("Total Spent").waitFor();
    const menu = page.getByRole("navigation", { name: "Dashboard menu" });
    await menu.getByRole("link", { name: "Wallet" }).waitFor();
    expect(await menu.getByRole("link", { name: "Earnings" }).count()).toBe(0);
  });
});
