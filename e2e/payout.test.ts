import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, test } from "vitest";
import { formatDate } from "#domain/dates";
import type { SaleLine } from "#domain/earnings";
import { DEMO_OPERATOR_TRN } from "#server/env";
import { waitForMail } from "#server/test/outbox";
import { dataDir, demoApi, expectAccessible, newAccount, setupBrowser, snapshot, viewports } from "./browser";
import { placeAndPay } from "./orders";

const browser = setupBrowser();

// The clock this journey moves is its worker's server's, which the next journeys there use: put it back.
afterAll(async () => {
  expect((await demoApi("superadmin", "POST", "/api/test/clock/reset")).status).toBe(200);
});

describe("getting paid", () => {
  test("an Indian business buys with its GSTIN; the seller's net waits for the window, a super admin pays it out, the seller sees it paid", async () => {
    const seller = await browser.newPage();
    const first = `Payee${randomUUID().slice(0, 4)}`;
    await newAccount(seller, { firstName: first, lastName: "Seller", accountType: "seller" });
    const name = `Payout Test Suite ${randomUUID().slice(0, 6)}`;
    const created = await seller.request.post("/api/manage/products", {
      data: { name, category: "software", price: 100 },
    });
    expect(created.status()).toBe(201);
    const productId = ((await created.json()) as { product: { id: string } }).product.id;
    // A new seller's listing is public only once an admin approves it (decision 0013).
    const reviewer = await browser.newPage({ as: "admin" });
    expect((await reviewer.request.post(`/api/admin/moderation/${productId}/approve`)).status()).toBe(200);
    const bank = await seller.request.put("/api/payouts/account/bank", {
      data: {
        holderName: `${first} Seller`,
        country: "IN",
        accountNumber: "50100123456789",
        ifsc: "HDFC0001234",
      },
    });
    expect(bank.status()).toBe(200);

    // The buyer is an Indian business: GSTIN given, 18% GST charged.
    const buyer = await browser.newPage({ as: "buyer" });
    const order = await placeAndPay(buyer.request, {
      country: "IN",
      business: true,
      company: "Acme Software Pvt Ltd",
      taxId: "27AAPFU0939F1ZV",
      items: [{ productId, price: 100 }],
    });
    expect(order.tax).toBe(18);

    // The seller's net ($90 after the 10% fee) is pending, with the day it becomes available.
    await seller.goto("/dashboard/earnings");
    const row = seller.getByTestId("sale-row").filter({ hasText: name });
    await row.waitFor();
    const line = ((await (await seller.request.get("/api/earnings/sales")).json()) as { items: SaleLine[] })
      .items[0] as SaleLine;
    expect(line).toMatchObject({ gross: 100, fee: 10, tax: 18, net: 90, status: "pending" });
    expect(await row.textContent()).toContain(formatDate(line.availableAt ?? ""));
    expect(await row.textContent()).toContain("India GST");
    expect(
      await seller.getByTestId("balances-seller").getByTestId("balance-pending").textContent(),
    ).toContain("$90.00");

    // Fifteen days later (the test server's clock), the window has ended and the net is available.
    const admin = await browser.newPage({ as: "superadmin" });
    expect((await admin.request.post("/api/test/clock", { data: { advanceDays: 15 } })).status()).toBe(200);
    await admin.goto("/admin/payouts");
    await admin.getByRole("heading", { level: 1, name: "Payouts" }).waitFor();
    const payee = admin.getByTestId("payout-preview").getByRole("row").filter({ hasText: first });
    await payee.waitFor();
    expect(await payee.textContent()).toContain("$90.00");
    expect(await payee.textContent()).toContain("•••• 6789");
    expect(await payee.getByRole("checkbox").isChecked()).toBe(true);
    await expectAccessible(admin);
    await snapshot(admin, "h16-payouts-preview-1280-light", { fullPage: true });

    await admin.getByRole("button", { name: /^Approve payout batch/ }).click();
    await admin.getByRole("alertdialog").getByRole("button", { name: "Approve payout batch" }).click();
    await admin.waitForURL((url) => /^\/admin\/payouts\/[0-9a-f-]{36}$/.test(url.pathname));
    const payout = admin.getByTestId("batch-payouts").getByRole("row").filter({ hasText: first });
    await payout.waitFor();
    expect(await payout.textContent()).toContain("Processing");
    await payout.getByRole("button", { name: /^Mark paid/ }).click();
    const dialog = admin.getByRole("alertdialog");
    await dialog.getByLabel("Bank reference").fill("HDFC-UTR-20261208-001");
    await dialog.getByRole("button", { name: "Mark paid" }).click();
    await expect.poll(() => payout.textContent()).toContain("Paid");
    expect(await payout.textContent()).toContain("HDFC-UTR-20261208-001");
    await snapshot(admin, "h16-payout-batch-1280-light", { fullPage: true });

    // The seller is told, and sees the payout paid and nothing left waiting.
    await waitForMail(dataDir(), (m) => m.subject === "Your payout of $90.00 was paid");
    await seller.goto("/dashboard/earnings");
    const history = seller.getByTestId("payouts-table");
    await history.getByText("Paid", { exact: true }).waitFor();
    expect(await history.textContent()).toContain("$90.00");
    expect(await seller.getByTestId("balances-seller").getByTestId("balance-paid").textContent()).toContain(
      "$90.00",
    );

    // The buyer's invoice names both tax registrations and the GST line.
    await buyer.goto(`/dashboard/orders/${order.id}/invoice`);
    await expect
      .poll(() => buyer.getByTestId("invoice-seller-trn").textContent())
      .toBe(`TRN: ${DEMO_OPERATOR_TRN}`);
    expect(await buyer.getByTestId("invoice-buyer-tax-id").textContent()).toBe("GSTIN: 27AAPFU0939F1ZV");
    expect(await buyer.getByTestId("invoice-tax-label").textContent()).toBe("India GST (18%)");

    // The payout screens at phone width and in the dark.
    for (const { width, theme } of viewports()) {
      const view = await browser.newPage({ width, height: 900, theme, as: "superadmin" });
      await view.goto(admin.url());
      await view.getByTestId(width < 768 ? "batch-payout-cards" : "batch-payouts").waitFor();
      expect(await view.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await snapshot(view, `h16-payout-batch-${width}-${theme}`, { fullPage: true });
      await view.goto("/admin/payouts");
      await view.getByRole("heading", { level: 2, name: "Past batches" }).waitFor();
      expect(await view.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await snapshot(view, `h16-payouts-${width}-${theme}`, { fullPage: true });
    }
  });
});
