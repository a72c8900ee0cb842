import type { Page } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import type { ProductList } from "#domain/catalog-schemas";
import { computeTotals, formatOwed, formatUsd } from "#domain/money";
import type { TaxFacts } from "#domain/tax";
import { DEMO_OPERATOR_TRN } from "#server/env";
import { baseUrl, expectAccessible, newAccount, setupBrowser, snapshot, toast, viewports } from "./browser";
import { payOnTestPage } from "./payments";

const browser = setupBrowser();

let product: ProductList["items"][number];
beforeAll(async () => {
  // A digital product (no shipping address at checkout), whatever other journeys have listed since.
  const list = (await (
    await fetch(`${baseUrl()}/api/products?pageSize=1&category=software`)
  ).json()) as ProductList;
  const first = list.items[0];
  if (!first) throw new Error("the demo catalogue is empty");
  product = first;
});

/**
 * Puts the product in the stored cart before the page's first load (no load of its own just to reach the
 * storage); only while nothing is stored, so what the app writes afterwards (a paid cart) stands.
 */
async function seedCart(page: Page) {
  const cart = [
    {
      id: product.id,
      name: product.name,
      price: product.price,
      quantity: 2,
      vendor: product.vendor ?? "Unknown Vendor",
      image_url: product.imageUrl ?? "",
    },
  ];
  await page.addInitScript((value) => {
    if (localStorage.getItem("stackbay.cart") === null) localStorage.setItem("stackbay.cart", value);
  }, JSON.stringify(cart));
}

describe("tax at checkout", () => {
  test("an Indian business buys with its GSTIN, pays 18% GST, and its invoice shows the GSTIN, the company and the operator's TRN", async () => {
    const page = await browser.newPage();
    await newAccount(page, { firstName: "Priya", lastName: "Raman", accountType: "buyer" });
    await seedCart(page);
    await page.goto("/checkout");
    await page.getByRole("heading", { level: 1, name: "Checkout" }).waitFor();
    const summary = page.getByTestId("checkout-summary");
    // No country yet: the summary asks for it rather than guessing a tax.
    expect(await page.getByTestId("checkout-tax").textContent()).toBe("Select your country");

    await page.getByLabel("Full name").fill("Priya Raman");
    await page.getByLabel("Address").fill("14 Nariman Point");
    await page.getByLabel("City").fill("Mumbai");
    await page.getByLabel("Country").selectOption("India");
    await page.getByLabel("Buying for a business").check();
    await page.getByLabel("Company name").fill("Acme Software Pvt Ltd");
    // The tax ID field is named after the country's ID, and is checked as typed once submitted.
    const gstin = page.getByLabel("GSTIN");
    await gstin.fill("27AAPFU0939F1ZW");
    await page.getByRole("radio", { name: "PayPal" }).check();

    const totals = computeTotals([{ price: String(product.price), quantity: 2 }], "0.18");
    await expect.poll(() => page.getByTestId("checkout-tax-label").textContent()).toBe("India GST (18%)");
    expect(await page.getByTestId("checkout-tax").textContent()).toBe(formatOwed(Number(totals.tax)));
    expect(await page.getByTestId("checkout-total").textContent()).toBe(formatOwed(Number(totals.total)));

    let posted = 0;
    page.on("request", (r) => {
      if (new URL(r.url()).pathname === "/api/orders" && r.method() === "POST") posted++;
    });
    await page.getByRole("button", { name: "Place Order" }).click();
    await page
      .getByText("This GSTIN's last character does not match the rest: check it for a typo")
      .waitFor();
    expect(await gstin.getAttribute("aria-invalid")).toBe("true");
    expect(posted).toBe(0);
    await gstin.fill("27aapfu0939f1zv");
    await expectAccessible(page);
    await snapshot(page, "h16-tax-checkout-india-business", { fullPage: true });

    // A German business whose VAT number VIES confirms owes no VAT here: the summary says reverse charge.
    await page.getByLabel("Country").selectOption("Germany");
    await page.getByLabel("VAT number").fill("DE 136 695 976");
    await expect.poll(() => page.getByTestId("checkout-tax-label").textContent()).toBe("Reverse charge");
    expect(await summary.getByTestId("checkout-tax-note").textContent()).toContain("Article 196");
    // A made-up number with valid check digits is not registered: German VAT, and how to reclaim it.
    await page.getByLabel("VAT number").fill("DE 811 907 980");
    await expect.poll(() => page.getByTestId("checkout-tax-label").textContent()).toBe("Germany VAT (19%)");
    expect(await summary.getByTestId("checkout-tax-note").textContent()).toContain("VIES does not list");
    await page.getByLabel("Country").selectOption("India");
    await page.getByLabel("GSTIN").fill("27aapfu0939f1zv");
    await expect.poll(() => page.getByTestId("checkout-tax-label").textContent()).toBe("India GST (18%)");

    const answer = page.waitForResponse(
      (r) => new URL(r.url()).pathname === "/api/orders" && r.request().method() === "POST",
    );
    await page.getByRole("button", { name: "Place Order" }).click();
    expect((await answer).status()).toBe(201);
    const orderId = await payOnTestPage(page);

    // From the confirmation to the invoice by its link, as the buyer goes.
    await page.getByRole("link", { name: "View invoice" }).click();
    await page.waitForURL((url) => url.pathname === `/dashboard/orders/${orderId}/invoice`);
    await page.getByRole("heading", { level: 1, name: "Invoice" }).waitFor();
    await expect
      .poll(() => page.getByTestId("invoice-seller-trn").textContent())
      .toBe(`TRN: ${DEMO_OPERATOR_TRN}`);
    expect(await page.getByTestId("invoice-buyer-company").textContent()).toBe("Acme Software Pvt Ltd");
    expect(await page.getByTestId("invoice-buyer-tax-id").textContent()).toBe("GSTIN: 27AAPFU0939F1ZV");
    expect(await page.getByTestId("invoice-bill-to").textContent()).toContain("Mumbai, India");
    expect(await page.getByTestId("invoice-tax-label").textContent()).toBe("India GST (18%)");
    expect(await page.getByTestId("invoice-tax").textContent()).toBe(formatUsd(Number(totals.tax)));
    expect(await page.getByTestId("invoice-total").textContent()).toBe(
      `${formatUsd(Number(totals.total))} USD`,
    );
    await expectAccessible(page);
    await snapshot(page, "h16-tax-invoice-1280-light", { fullPage: true });

    // The same invoice on a phone and in the dark. The desktop in the light is the page above, which
    // opened the invoice directly already.
    const cookies = await page.context().cookies();
    for (const { width, theme } of viewports()) {
      const desktopLight = width === 1280 && theme === "light";
      const view = desktopLight ? page : await browser.newPage({ width, height: 800, theme });
      if (!desktopLight) {
        await view.context().addCookies(cookies);
        await view.goto(`/dashboard/orders/${orderId}/invoice`);
      }
      await expect
        .poll(() => view.getByTestId("invoice-seller-trn").textContent())
        .toBe(`TRN: ${DEMO_OPERATOR_TRN}`);
      expect(await view.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await snapshot(view, `h16-tax-invoice-${width}-${theme}`, { fullPage: true });
    }
  });

  test("the checkout's tax at phone width, dark: a country without tax ID says so", async () => {
    const page = await browser.newPage({ width: 375, height: 812, theme: "dark" });
    await newAccount(page, { firstName: "Priya", lastName: "Raman", accountType: "buyer" });
    await seedCart(page);
    await page.goto("/checkout");
    await page.getByLabel("Country").selectOption("United States of America");
    await page.getByLabel("Buying for a business").check();
    await page.getByTestId("no-tax-id").waitFor();
    expect(await page.getByTestId("no-tax-id").textContent()).toBe(
      "No tax ID is needed for United States of America: Stackbay charges no tax there.",
    );
    await expect.poll(() => page.getByTestId("checkout-tax-label").textContent()).toBe("No tax (0%)");
    await page.getByLabel("Country").selectOption("India");
    await page.getByLabel("Company name").fill("Acme Software Pvt Ltd");
    await page.getByLabel("GSTIN").fill("27AAPFU0939F1ZV");
    await expect.poll(() => page.getByTestId("checkout-tax-label").textContent()).toBe("India GST (18%)");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectAccessible(page);
    await snapshot(page, "h16-tax-checkout-375-dark", { fullPage: true });
  });
});

describe("tax rates screen", () => {
  test("a super admin changes India's rate in the dialog, sees it listed and audited, then goes back to the default", async () => {
    const page = await browser.newPage({ as: "superadmin" });
    await page.goto("/admin/tax-rates");
    await page.getByRole("heading", { level: 1, name: "Tax rates" }).waitFor();
    const row = page.getByTestId("tax-rate-IN");
    await row.waitFor();
    expect(await row.getByTestId("tax-rate-value").textContent()).toBe("18%");
    expect(await page.getByTestId("tax-rate-FI").getByTestId("tax-rate-value").textContent()).toBe("25.5%");
    // The screen as it opens is checked for accessibility by the width sweep (layout-sweep.test.ts).
    await snapshot(page, "h16-tax-rates-1280-light", { fullPage: true });

    await row.getByRole("button", { name: "Edit rate: India GST" }).click();
    const dialog = page.getByRole("alertdialog");
    const field = dialog.getByLabel("Rate (%)");
    expect(await field.inputValue()).toBe("18");
    await field.fill("50.5");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.getByText("Enter a rate from 0 to 50%, with at most 2 decimals").waitFor();
    await field.fill("12.5");
    await expectAccessible(page);
    await dialog.getByRole("button", { name: "Save" }).click();
    await toast(page, "Tax rate saved", "India GST: 12.5%.").waitFor();
    await expect.poll(() => row.getByTestId("tax-rate-value").textContent()).toBe("12.5%");
    expect(await row.textContent()).toContain("by superadmin@stackbay.test");
    const rates = (await (await page.request.get("/api/tax/rates")).json()) as TaxFacts;
    expect(rates.items.find((r) => r.jurisdiction === "IN")?.rate).toBe("0.1250");

    // To the audit log and back through the admin menu, as a person goes.
    const adminNav = page.getByRole("navigation", { name: "Admin" });
    await adminNav.getByRole("link", { name: "Audit Log" }).click();
    await page.getByRole("heading", { level: 1, name: "Audit Log" }).waitFor();
    await page.getByText("India GST").first().waitFor();

    await adminNav.getByRole("link", { name: "Tax rates" }).click();
    await page.getByRole("heading", { level: 1, name: "Tax rates" }).waitFor();
    await row.getByRole("button", { name: "Edit rate: India GST" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Use default (18%)" }).click();
    await toast(page, "Tax rate saved", "India GST: 18% (default).").waitFor();
    await expect.poll(() => row.getByTestId("tax-rate-value").textContent()).toBe("18%");
  });

  test("the screen on a phone, dark", async () => {
    const page = await browser.newPage({ as: "superadmin", width: 375, height: 812, theme: "dark" });
    await page.goto("/admin/tax-rates");
    await page.getByTestId("tax-rate-AE").waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // The screen as it opens is checked for accessibility by the width sweep, at this width and theme.
    await snapshot(page, "h16-tax-rates-375-dark");
    await page.getByRole("button", { name: "Edit rate: UAE VAT" }).click();
    await page.getByRole("alertdialog").getByLabel("Rate (%)").waitFor();
    await expectAccessible(page);
    await snapshot(page, "h16-tax-rate-dialog-375-dark");
  });
});
