import type { Page } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import { applyTransfers, transferAmountDue } from "#domain/bank-transfer";
import type { ProductList } from "#domain/catalog-schemas";
import { LICENSED_CATEGORIES } from "#domain/licenses";
import { computeTotals, formatUsd, fromUnits, toUnits } from "#domain/money";
import { baseUrl, expectAccessible, setupBrowser, snapshot, toast } from "./browser";

const browser = setupBrowser();

// The admin buys (as in the checkout journey, so no other journey's buyer sees these orders) and the
// super admin records the money, as the operator's finance person would.
let product: ProductList["items"][number];
beforeAll(async () => {
  const list = (await (await fetch(`${baseUrl()}/api/products?pageSize=24`)).json()) as ProductList;
  const licensed = list.items.find((p) => (LICENSED_CATEGORIES as readonly string[]).includes(p.category));
  if (!licensed) throw new Error("the demo catalogue has no licensed product");
  product = licensed;
});

const amountDue = () =>
  transferAmountDue(computeTotals([{ price: String(product.price), quantity: 1 }], UAE_VAT).total);
/** The buyer here is in the UAE: 5% VAT. */
const UAE_VAT = "0.05";

async function seedCart(page: Page) {
  await page.goto("/");
  const cart = [
    {
      id: product.id,
      name: product.name,
      price: product.price,
      quantity: 1,
      vendor: product.vendor ?? "Unknown Vendor",
      image_url: product.imageUrl ?? "",
    },
  ];
  await page.evaluate((value) => localStorage.setItem("stackbay.cart", value), JSON.stringify(cart));
}

/** Checks out the cart by bank transfer; answers the order id and its transfer reference. */
async function placeByTransfer(page: Page): Promise<{ orderId: string; reference: string }> {
  await seedCart(page);
  await page.goto("/checkout");
  await page.getByLabel("Full name").fill("Ada Admin");
  await page.getByLabel("Address").fill("Plot 4, Business Bay");
  await page.getByLabel("City").fill("Dubai");
  await page.getByLabel("Country").selectOption("United Arab Emirates");
  await page.getByRole("radio", { name: "Bank transfer" }).check();
  await page.getByRole("button", { name: "Place Order" }).click();
  // No provider page: straight to the return page with the instructions.
  await page.waitForURL((url) => url.pathname === "/checkout/complete");
  await page.getByTestId("payment-awaiting-transfer").waitFor();
  const orderId = new URL(page.url()).searchParams.get("order") ?? "";
  const reference = (await page.getByTestId("transfer-reference").textContent()) ?? "";
  expect(reference).toMatch(/^SB-[0-9A-HJKMNP-TV-Z]{9}$/);
  return { orderId, reference };
}

/** As an admin types an amount off a statement: dollars with two decimals. */
const typed = (units: number) => Number(fromUnits(units)).toFixed(2);

const noSideways = async (page: Page, width: number) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

/** On the admin orders screen, records one transfer in the open dialog. */
async function recordInDialog(page: Page, amount: string, bankReference: string) {
  const dialog = page.getByTestId("record-transfer-dialog");
  await dialog.getByLabel("Amount received (USD)").fill(amount);
  await dialog.getByLabel("Bank reference").fill(bankReference);
  await dialog.getByRole("button", { name: "Record transfer" }).click();
}

describe("paying by bank transfer", () => {
  test("the buyer gets the reference and details; an admin records part, then the rest; the order is confirmed with its keys", async () => {
    const buyer = await browser.newPage({ as: "admin" });
    await buyer.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    const { orderId, reference } = await placeByTransfer(buyer);
    const due = amountDue();
    expect(await buyer.getByTestId("transfer-instruction").textContent()).toBe(
      `Transfer ${formatUsd(Number(due))} to Stackbay Demo Account (test mode) with reference ${reference}.`,
    );
    expect(await buyer.getByTestId("transfer-status").textContent()).toBe("Processing");
    expect(await buyer.getByText("Test mode: these are demo bank details.").isVisible()).toBe(true);
    expect(await buyer.getByTestId("transfer-iban").textContent()).toBe("AE070331234567890123456");
    expect(await buyer.getByRole("heading", { name: "What happens next" }).isVisible()).toBe(true);
    // The order is placed: the cart that made it is emptied.
    await expect.poll(() => buyer.getByTestId("cart-count").count()).toBe(0);
    await buyer.getByRole("button", { name: "Copy Reference" }).click();
    await toast(buyer, "Reference copied", reference).waitFor();
    expect(await buyer.evaluate(() => navigator.clipboard.readText())).toBe(reference);
    await expectAccessible(buyer);
    await snapshot(buyer, "bank-transfer-instructions", { fullPage: true });

    // The invoice carries the same instructions while unpaid.
    await buyer.goto(`/dashboard/orders/${orderId}/invoice`);
    await buyer.getByTestId("invoice-payment-instructions").waitFor();
    expect(await buyer.getByTestId("invoice-payment-instructions").textContent()).toContain(reference);
    expect(await buyer.getByTestId("invoice-status").textContent()).toBe("Awaiting payment");
    await expectAccessible(buyer);
    await snapshot(buyer, "bank-transfer-invoice", { fullPage: true });

    // The super admin finds the order by the reference as a bank statement prints it.
    const admin = await browser.newPage({ as: "superadmin" });
    await admin.goto("/admin/orders");
    await admin.getByLabel("Transfer reference").fill(reference.toLowerCase().replace("-", " "));
    await admin.getByRole("button", { name: "Find" }).click();
    const dialog = admin.getByTestId("record-transfer-dialog");
    const standing = dialog.getByTestId("admin-transfer-standing");
    await standing.waitFor();
    expect(await dialog.textContent()).toContain(reference);
    expect(await standing.textContent()).toBe(`No transfer received yet; ${formatUsd(Number(due))} to pay.`);

    // A future day is refused by the form itself.
    const tomorrow = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    await dialog.getByLabel("Date received").fill(tomorrow);
    await recordInDialog(admin, "1", "FT-E2E-0");
    await dialog.getByText("The day the transfer arrived cannot be in the future").waitFor();
    await dialog.getByLabel("Date received").fill(new Date().toLocaleDateString("en-CA"));

    const part = typed(Math.floor(toUnits(due) / 200) * 100);
    const partial = applyTransfers(due, [part]).explanation;
    await recordInDialog(admin, part, "FT-E2E-1");
    await toast(admin, "Transfer recorded", partial).waitFor();
    await expect.poll(() => standing.textContent()).toBe(partial);
    await expectAccessible(admin);
    await snapshot(admin, "bank-transfer-record-partial");

    // The buyer sees what has arrived and what is still to pay.
    await buyer.goto(`/checkout/complete?order=${orderId}`);
    await buyer.getByTestId("payment-awaiting-transfer").waitFor();
    expect(await buyer.getByTestId("transfer-standing").textContent()).toBe(partial);

    const rest = typed(toUnits(due) - toUnits(part));
    await recordInDialog(admin, rest, "FT-E2E-2");
    await toast(admin, "Transfer recorded", `Order ${orderId.slice(0, 8)} is confirmed.`).waitFor();
    await expect.poll(() => standing.textContent()).toBe("Paid in full.");
    await admin.keyboard.press("Escape");
    const row = admin.getByTestId("admin-order-row").filter({ hasText: orderId.slice(0, 8) });
    await expect.poll(() => row.getByTestId("admin-order-status").textContent()).toBe("Confirmed");

    await buyer.reload();
    await buyer.getByTestId("payment-confirmed").waitFor();
    await buyer.getByTestId("confirmed-keys").waitFor();
    expect(await buyer.getByTestId("confirmed-keys").locator("li").count()).toBe(1);
    await expectAccessible(buyer);
    await snapshot(buyer, "bank-transfer-confirmed", { fullPage: true });
  });

  test("on a phone in dark mode: instructions fit, the row's Record transfer confirms, keys arrive", async () => {
    const buyer = await browser.newPage({ as: "admin", width: 375, height: 740, theme: "dark" });
    const { orderId, reference } = await placeByTransfer(buyer);
    await noSideways(buyer, 375);
    await expectAccessible(buyer);
    await snapshot(buyer, "bank-transfer-instructions-375-dark", { fullPage: true });

    const admin = await browser.newPage({ as: "superadmin", width: 375, height: 740, theme: "dark" });
    await admin.goto("/admin/orders?status=processing");
    await admin.getByRole("button", { name: `Record transfer for order ${orderId.slice(0, 8)}` }).click();
    const dialog = admin.getByTestId("record-transfer-dialog");
    await dialog.getByTestId("admin-transfer-standing").waitFor();
    expect(await dialog.textContent()).toContain(reference);
    await snapshot(admin, "bank-transfer-record-375-dark");
    const over = typed(toUnits(amountDue()) + toUnits("3"));
    await recordInDialog(admin, over, "FT-E2E-PHONE");
    const excess = "Paid in full; $3.00 more than due will be returned to the sender.";
    await expect.poll(() => dialog.getByTestId("admin-transfer-standing").textContent()).toBe(excess);
    await expectAccessible(admin);
    await snapshot(admin, "bank-transfer-recorded-375-dark");

    await buyer.reload();
    await buyer.getByTestId("payment-confirmed").waitFor();
    expect(await buyer.getByTestId("transfer-standing").textContent()).toBe(excess);
    await buyer.getByTestId("confirmed-keys").waitFor();
    await noSideways(buyer, 375);
    await expectAccessible(buyer);
    await snapshot(buyer, "bank-transfer-confirmed-375-dark", { fullPage: true });
  });
});
