import { createPublicKey, verify } from "node:crypto";
import { readFile } from "node:fs/promises";
import { beforeAll, describe, expect, test } from "vitest";
import type { ProductList } from "#domain/catalog-schemas";
import type { Order } from "#domain/checkout";
import { buildInvoice, invoiceNumber } from "#domain/invoice";
import type { LicenseFile, LicenseKeySet, LicenseList } from "#domain/license-schemas";
import { LICENSE_KEY_PATTERN } from "#domain/licenses";
import { formatUsd } from "#domain/money";
import { DEMO_OPERATOR_TRN } from "#server/env";
import { baseUrl, expectAccessible, setupBrowser, snapshot, toast } from "./browser";
import { placeAndPay } from "./orders";

const browser = setupBrowser();

let product: ProductList["items"][number];
let order: Order;
let keys: string[];

beforeAll(async () => {
  const list = (await (
    await fetch(`${baseUrl()}/api/products?category=software&unit=one_time&pageSize=1`)
  ).json()) as ProductList;
  const [first] = list.items;
  if (!first) throw new Error("the demo catalogue has no software product");
  product = first;
});

const pageWidth = (page: import("playwright-core").Page) =>
  page.evaluate(() => document.documentElement.scrollWidth);

describe("licenses and invoices", () => {
  test("a buyer's software order delivers keys they can see and copy in Licenses", async () => {
    const page = await browser.newPage({ as: "buyer" });
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl() });
    order = await placeAndPay(page.request, {
      items: [{ productId: product.id, quantity: 2, price: product.price }],
      currency: "EUR",
    });
    const mine = (await (await page.request.get("/api/licenses")).json()) as LicenseList;
    keys = mine.items.filter((l) => l.orderId === order.id).map((l) => l.key);
    expect(keys).toHaveLength(2);
    for (const key of keys) expect(key).toMatch(LICENSE_KEY_PATTERN);

    await page.goto("/dashboard/licenses");
    await page.getByRole("heading", { level: 2, name: "Licenses" }).waitFor();
    const card = page.getByTestId("license-card").filter({ hasText: keys[0] });
    await card.waitFor();
    expect(await card.getByRole("heading", { level: 3 }).textContent()).toBe(product.name);
    expect(await card.getByTestId("license-status").textContent()).toBe("Active");
    expect(await card.getByTestId("license-renews").textContent()).toBe("Perpetual");
    expect(await card.getByRole("link", { name: invoiceNumber(order.id) }).getAttribute("href")).toBe(
      `/dashboard/orders/${order.id}/invoice`,
    );
    await expectAccessible(page);
    await snapshot(page, "h5-licenses", { fullPage: true });

    await card.getByRole("button", { name: `Copy license key for ${product.name}` }).click();
    await toast(page, "License key copied", product.name).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(keys[0]);

    const phone = await browser.newPage({ as: "buyer", width: 375, height: 812, theme: "dark" });
    await phone.goto("/dashboard/licenses");
    await phone.getByTestId("license-card").filter({ hasText: keys[1] }).waitFor();
    expect(await pageWidth(phone)).toBeLessThanOrEqual(375);
    await expectAccessible(phone);
    await snapshot(phone, "h5-licenses-375-dark", { fullPage: true });
  });

  test("a buyer sees the machines a key is activated on, deactivates one, and downloads the signed offline file", async () => {
    const [desktopKey = "", phoneKey = ""] = keys;
    // The vendor's software activates each key on a machine, with the key alone.
    for (const [key, machine, label] of [
      [desktopKey, "e2e-laptop-01", "Design laptop"],
      [phoneKey, "e2e-tower-02", "Render tower"],
    ] as const) {
      const res = await fetch(`${baseUrl()}/api/licenses/activate`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ key, machine, label }),
      });
      expect(res.status).toBe(200);
    }

    const page = await browser.newPage({ as: "buyer" });
    await page.goto("/dashboard/licenses");
    const card = page.getByTestId("license-card").filter({ hasText: desktopKey });
    const machine = card.getByTestId("license-activation").filter({ hasText: "Design laptop" });
    await machine.waitFor();
    expect(await machine.textContent()).toContain("e2e-laptop-01");
    expect(await card.getByTestId("license-seats").textContent()).toBe("1 of 1 in use");
    await expectAccessible(page);
    await snapshot(page, "h5-licenses-activations", { fullPage: true });

    await machine.getByRole("button", { name: `Deactivate: Design laptop (${product.name})` }).click();
    const dialog = page.getByRole("alertdialog");
    await dialog.getByRole("heading", { name: "Deactivate this machine?" }).waitFor();
    await dialog.getByRole("button", { name: "Deactivate" }).click();
    await toast(page, "Machine deactivated", "Design laptop").waitFor();
    await card.getByTestId("no-activations").waitFor();
    expect(await card.getByTestId("license-seats").textContent()).toBe("0 of 1 in use");

    // The offline file verifies with the published key.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      card.getByRole("button", { name: `Download offline license file for ${product.name}` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`stackbay-license-${desktopKey}.json`);
    const file = JSON.parse(await readFile((await download.path()) ?? "", "utf8")) as LicenseFile;
    const set = (await (
      await fetch(`${baseUrl()}/.well-known/stackbay-license-keys.json`)
    ).json()) as LicenseKeySet;
    const jwk = set.keys.find((key) => key.kid === file.kid);
    expect(jwk).toBeDefined();
    const publicKey = createPublicKey({
      key: { kty: "OKP", crv: "Ed25519", x: jwk?.x ?? "" },
      format: "jwk",
    });
    expect(verify(null, Buffer.from(file.payload), publicKey, Buffer.from(file.signature, "base64"))).toBe(
      true,
    );
    expect(JSON.parse(file.payload)).toMatchObject({ key: desktopKey, expiresAt: null, seats: 1 });

    const phone = await browser.newPage({ as: "buyer", width: 375, height: 812, theme: "dark" });
    await phone.goto("/dashboard/licenses");
    const phoneCard = phone.getByTestId("license-card").filter({ hasText: phoneKey });
    const tower = phoneCard.getByTestId("license-activation").filter({ hasText: "Render tower" });
    await tower.waitFor();
    expect(await pageWidth(phone)).toBeLessThanOrEqual(375);
    await expectAccessible(phone);
    await snapshot(phone, "h5-licenses-activations-375-dark", { fullPage: true });
    await tower.getByRole("button", { name: `Deactivate: Render tower (${product.name})` }).click();
    await phone.getByRole("alertdialog").getByRole("button", { name: "Deactivate" }).click();
    await toast(phone, "Machine deactivated", "Render tower").waitFor();
    await phoneCard.getByTestId("no-activations").waitFor();
    const [phoneDownload] = await Promise.all([
      phone.waitForEvent("download"),
      phoneCard.getByRole("button", { name: `Download offline license file for ${product.name}` }).click(),
    ]);
    expect(phoneDownload.suggestedFilename()).toBe(`stackbay-license-${phoneKey}.json`);
  });

  test("the buyer follows the Invoice link from Order History, downloads and prints the invoice", async () => {
    const page = await browser.newPage({ as: "buyer" });
    await page.goto("/dashboard");
    const short = order.id.slice(0, 8);
    const row = page.getByTestId("order-row").filter({ hasText: short });
    await row.getByRole("button", { name: `View order ${short}` }).click();
    await page.getByRole("link", { name: `Invoice of order ${short}` }).click();
    await page.waitForURL((url) => url.pathname === `/dashboard/orders/${order.id}/invoice`);
    await page.getByRole("heading", { level: 1, name: "Invoice" }).waitFor();
    const expected = buildInvoice(order, { trn: DEMO_OPERATOR_TRN });
    expect(await page.title()).toBe(`Invoice ${expected.number} | Stackbay`);
    expect(await page.getByTestId("invoice-number").textContent()).toBe(invoiceNumber(order.id));
    await expect
      .poll(() => page.getByTestId("invoice-seller").locator("strong, span").allTextContents())
      .toEqual([
        "Stackbay FZCO",
        "Dubai Silicon Oasis",
        "Dubai",
        "United Arab Emirates",
        `TRN: ${DEMO_OPERATOR_TRN}`,
      ]);
    expect(await page.getByTestId("invoice-bill-to").textContent()).toContain("Bianca Buyer");
    // What shows on a desktop: the five columns (phones fold vendor and unit price under the name).
    const cells = await page.getByTestId("invoice-line").first().locator("td:visible").allInnerTexts();
    expect(cells).toEqual([
      product.name,
      product.vendor ?? "Unknown Vendor",
      "2",
      // The unit price as the invoice rule writes it: with the product's pricing unit when it has one.
      expected.lines[0]?.unitPrice,
      expected.lines[0]?.amount,
    ]);
    expect(await page.getByTestId("invoice-total").textContent()).toBe(`${formatUsd(order.totalAmount)} USD`);
    expect(await page.getByTestId("invoice-display-total").textContent()).toBe(expected.display?.note);
    expect(expected.display?.note).toMatch(/^Shown at checkout as €[\d,]+(\.\d{2})? at 1 USD = [\d.]+ EUR$/);
    expect(await page.getByTestId("invoice-tax-label").textContent()).toBe("UAE VAT (5%)");
    await expectAccessible(page);
    await snapshot(page, "h5-invoice", { fullPage: true });

    // Download HTML: an attachment named after the invoice number.
    const link = page.getByRole("link", { name: "Download HTML" });
    const href = (await link.getAttribute("href")) ?? "";
    const file = await page.request.get(href);
    expect(file.status()).toBe(200);
    expect(file.headers()["content-disposition"]).toBe(
      `attachment; filename="stackbay-invoice-${expected.number}.html"`,
    );
    expect(await file.text()).toContain("Stackbay FZCO");
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toBe(`stackbay-invoice-${expected.number}.html`);

    // On paper only the invoice shows: no navigation, footer or buttons.
    await page.emulateMedia({ media: "print" });
    expect(await page.getByTestId("navbar").isVisible()).toBe(false);
    expect(await page.getByTestId("footer").isVisible()).toBe(false);
    expect(await page.getByRole("button", { name: "Print / Save as PDF" }).isVisible()).toBe(false);
    expect(await page.getByTestId("invoice").isVisible()).toBe(true);
    await snapshot(page, "h5-invoice-print", { fullPage: true });

    const phone = await browser.newPage({ as: "buyer", width: 375, height: 812 });
    await phone.goto(`/dashboard/orders/${order.id}/invoice`);
    await phone.getByRole("heading", { level: 1, name: "Invoice" }).waitFor();
    expect(await pageWidth(phone)).toBeLessThanOrEqual(375);
    await expectAccessible(phone);
    await snapshot(phone, "h5-invoice-375", { fullPage: true });
  });

  test("another signed-in user opening that invoice sees 'Invoice not found'", async () => {
    const page = await browser.newPage({ as: "seller", allowErrors: [/status of 404/] });
    await page.goto(`/dashboard/orders/${order.id}/invoice`);
    await page.getByRole("heading", { level: 1, name: "Invoice not found" }).waitFor();
    expect(await page.getByTestId("invoice").count()).toBe(0);
    expect(await page.getByRole("link", { name: "Go to your dashboard" }).getAttribute("href")).toBe(
      "/dashboard",
    );
    expect((await page.request.get(`/api/orders/${order.id}/invoice.html`)).status()).toBe(404);
    await expectAccessible(page);
    await snapshot(page, "h5-invoice-not-found");
  });
});
