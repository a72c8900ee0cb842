import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import type { Order } from "#domain/checkout";
import { chargeCents, formatOwed } from "#domain/money";
import type { ManagedProductList } from "#domain/product-admin";
import type { ResellerLinks } from "#domain/referrals";
import { formatCents } from "#domain/refunds";
import { waitForMail } from "#server/test/outbox";
import {
  dataDir,
  demoApi,
  expectAccessible,
  newAccount,
  setupBrowser,
  snapshot,
  submitLogin,
  toast,
} from "./browser";
import { placeOrder } from "./orders";
import { payOnTestPage } from "./payments";

const browser = setupBrowser();

type LinkItem = ResellerLinks["items"][number];

async function resellerItem(page: Page, productId: string): Promise<LinkItem> {
  const links = (await (await page.request.get("/api/reseller/links?pageSize=100")).json()) as ResellerLinks;
  const item = links.items.find((i) => i.productId === productId);
  if (!item) throw new Error(`product ${productId} is not in the reseller's links`);
  return item;
}

describe("after the sale", () => {
  test("a reseller's link sells a license; the buyer gets a key and an invoice, asks for a refund, the seller approves: key revoked, commission cancelled", async () => {
    // The reseller copies the link of a resellable software or SaaS product (these deliver licenses).
    const reseller = await browser.newPage({ as: "reseller" });
    await reseller.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await reseller.goto("/dashboard/reseller");
    await reseller.getByRole("heading", { level: 2, name: "Reseller links" }).waitFor();
    const links = (await (
      await reseller.request.get("/api/reseller/links?pageSize=100")
    ).json()) as ResellerLinks;
    // One the demo seller sells, as it is the demo seller who answers the refund request below (with
    // this page of theirs).
    const seller = await browser.newPage({ as: "seller" });
    const sold = (await (
      await seller.request.get("/api/manage/products?status=active")
    ).json()) as ManagedProductList;
    const mine = new Set(sold.items.map((p) => p.id));
    const product = links.items.find(
      (i) => i.linkable && ["saas", "software"].includes(i.category) && mine.has(i.productId),
    );
    if (!product) throw new Error("no resellable licensed product in the demo catalogue");
    const row = reseller.getByTestId("reseller-link-row").filter({
      has: reseller.getByRole("link", { name: product.name, exact: true }),
    });
    await row.getByRole("button", { name: `Copy link for ${product.name}` }).click();
    await toast(reseller, "Link copied", product.name).waitFor();
    const link = await reseller.evaluate(() => navigator.clipboard.readText());
    expect(link).toBe(product.link);

    // A new buyer follows it, puts the product in the cart and checks out, logging in on the way.
    const buyer = await browser.newPage();
    const account = await newAccount(buyer, { firstName: "Nora", accountType: "buyer", signIn: false });
    const { pathname, search } = new URL(link);
    await buyer.goto(`${pathname}${search}`);
    await buyer.getByRole("heading", { level: 1, name: product.name }).waitFor();
    await buyer.getByRole("button", { name: "Add to cart", exact: true }).click();
    await toast(buyer, "Added to cart!").waitFor();
    await buyer.getByTestId("cart-link").first().click();
    await buyer.getByRole("link", { name: "Proceed to Checkout" }).click();
    await buyer.waitForURL("**/login");
    await submitLogin(buyer, account.email, account.password);
    await buyer.waitForURL("**/checkout");
    await buyer.getByRole("heading", { level: 1, name: "Checkout" }).waitFor();
    await buyer.getByLabel("Full name").fill("Nora Newman");
    await buyer.getByLabel("Address").fill("3 Canal Street");
    await buyer.getByLabel("City").fill("Amsterdam");
    await buyer.getByLabel("Country").selectOption("Netherlands");
    await buyer.getByRole("radio", { name: "Credit/Debit Card" }).check();
    const answer = buyer.waitForResponse(
      (r) => new URL(r.url()).pathname === "/api/orders" && r.request().method() === "POST",
    );
    await buyer.getByRole("button", { name: "Place Order" }).click();
    const placed = await answer;
    expect(placed.status()).toBe(201);
    // The browser has left for the payment page: the order is named on the return page's address.
    const orderId = await payOnTestPage(buyer);
    const order = ((await (await buyer.request.get(`/api/orders/${orderId}`)).json()) as { order: Order })
      .order;
    await buyer.getByRole("link", { name: "Go to your dashboard" }).click();
    await buyer.waitForURL((url) => url.pathname === "/dashboard");

    // The reseller now has a pending commission on that product: rate × price.
    await reseller.reload();
    await reseller.getByRole("heading", { level: 2, name: "Reseller links" }).waitFor();
    const earned = await resellerItem(reseller, product.productId);
    expect(earned.orders).toBe(product.orders + 1);
    expect(earned.commission.pending - product.commission.pending).toBeCloseTo(
      product.price * product.commissionRate,
      4,
    );
    const pendingCell = row.getByTestId("reseller-link-pending");
    // (The screen as it opens is checked for accessibility by the width sweep.)
    await expect.poll(() => pendingCell.textContent()).toBe(formatOwed(earned.commission.pending));

    // The buyer sees the license key, then opens the invoice from the order: through the dashboard's menu.
    const menu = buyer.getByRole("navigation", { name: "Dashboard menu" });
    await menu.getByRole("link", { name: "Licenses", exact: true }).click();
    const card = buyer.getByTestId("license-card").filter({ hasText: product.name });
    await card.waitFor();
    expect(await card.getByTestId("license-status").textContent()).toBe("Active");
    const key = (await card.getByTestId("license-key").textContent())?.trim() ?? "";
    expect(key).toMatch(/^[A-Z0-9]{4}(-[A-Z0-9]{4}){3}$/);
    await menu.getByRole("link", { name: "Orders", exact: true }).click();
    const short = order.id.slice(0, 8);
    await buyer
      .getByTestId("order-row")
      .filter({ hasText: short })
      .getByRole("button", { name: `View order ${short}` })
      .click();
    await buyer.getByRole("link", { name: `Invoice of order ${short}` }).click();
    await buyer.getByRole("heading", { level: 1, name: "Invoice" }).waitFor();
    expect(await buyer.getByTestId("invoice-seller").textContent()).toContain("Stackbay FZCO");
    expect(await buyer.getByTestId("invoice").textContent()).toContain(product.name);

    // The buyer asks for a refund of the item from the order detail, back from the invoice.
    await buyer.getByRole("link", { name: "Back to orders" }).click();
    await buyer
      .getByTestId("order-row")
      .filter({ hasText: short })
      .getByRole("button", { name: `View order ${short}` })
      .click();
    await buyer.getByRole("button", { name: `Request a refund for ${product.name}` }).click();
    const dialog = buyer.getByRole("alertdialog", { name: "Request a refund" });
    await dialog.getByRole("button", { name: "Request refund" }).click();
    await dialog.getByText("Please explain the reason in at least 10 characters").waitFor();
    await expectAccessible(buyer);
    await dialog.getByLabel("Reason").fill("The license key is refused by the installer on every machine.");
    await dialog.getByRole("button", { name: "Request refund" }).click();
    await toast(buyer, "Refund requested").waitFor();
    const refund = buyer.getByTestId("order-refund").filter({ hasText: product.name });
    await expect.poll(() => refund.getByTestId("refund-status").textContent()).toBe("Awaiting seller");
    expect(await refund.getByText("Seller answers by").isVisible()).toBe(true);
    await snapshot(buyer, "lead-order-refund", { fullPage: true });

    // The seller approves it from their refund requests.
    await seller.goto("/dashboard/refunds");
    await seller.getByRole("heading", { level: 2, name: "Refund requests for your products" }).waitFor();
    const request = seller.getByTestId("refund-row").filter({ hasText: short });
    await request.waitFor();
    expect(await request.textContent()).toContain("The license key is refused");
    await expectAccessible(seller);
    await snapshot(seller, "lead-seller-refunds", { fullPage: true });
    await request.getByRole("button", { name: `Approve: ${product.name} (order ${short})` }).click();
    const confirm = seller.getByRole("alertdialog", { name: "Approve this refund?" });
    await confirm.getByLabel("Note for the buyer (optional)").fill("Sorry, refunded in full.");
    await confirm.getByRole("button", { name: "Approve" }).click();
    await toast(seller, "Refund approved").waitFor();
    await expect.poll(() => request.getByTestId("refund-status").textContent()).toBe("Refund approved");

    // The license is revoked, the order partly refunded, and the commission cancelled.
    await buyer.goto("/dashboard/licenses");
    await expect.poll(() => card.getByTestId("license-status").textContent()).toBe("Revoked");
    const after = (await (await buyer.request.get(`/api/orders/${order.id}`)).json()).order as Order;
    expect(after.paymentStatus).toBe("refunded");
    const approved = await waitForMail(
      dataDir(),
      (m) => m.to === account.email && / is approved$/.test(m.subject),
    );
    expect(approved.body).toContain("within 5–10 business days");

    // The money goes back through the test provider the order was paid with, and the buyer is told.
    const paidBack = `Refund of ${formatCents(chargeCents(String(order.totalAmount)))} sent to your card on`;
    await expect
      .poll(
        async () => {
          await buyer.goto("/dashboard");
          await buyer
            .getByTestId("order-row")
            .filter({ hasText: short })
            .getByRole("button", { name: `View order ${short}` })
            .click();
          return refund.getByTestId("refund-payout").textContent();
        },
        { timeout: 15_000 },
      )
      .toContain(paidBack);
    await snapshot(buyer, "refund-paid-back", { fullPage: true });
    await waitForMail(
      dataDir(),
      (m) => m.to === account.email && m.subject === `Your refund for ${product.name} has been sent`,
    );

    // The admin sees it executed on the refunds screen.
    const admin = await browser.newPage({ as: "admin" });
    await admin.goto("/admin/refunds?status=approved");
    const executed = admin.getByTestId("refund-row").filter({ hasText: short });
    await executed.waitFor();
    expect(await executed.getByTestId("refund-payout").textContent()).toContain("Refund sent");
    await snapshot(admin, "admin-refund-executed", { fullPage: true });

    const cancelled = await resellerItem(reseller, product.productId);
    expect(cancelled.commission.pending).toBeCloseTo(product.commission.pending, 4);
    expect(cancelled.commission.cancelled - product.commission.cancelled).toBeCloseTo(
      product.price * product.commissionRate,
      4,
    );
    await reseller.reload();
    await expect
      .poll(() => row.getByTestId("reseller-link-cancelled").textContent())
      .toBe(formatOwed(cancelled.commission.cancelled));
    await snapshot(reseller, "lead-reseller-after", { fullPage: true });
  });

  test("a refund no provider can pay back is a transfer the admin makes and records, on a phone in dark mode", async () => {
    // An order an admin confirmed by hand: no provider took the money.
    const buyer = await browser.newPage({ as: "buyer" });
    // One of the demo seller's own digital products on sale (hardware would need a shipping address):
    // other journeys add products by sellers of their own, and the demo seller's listings added by
    // journeys wait for review.
    const product = (
      (await (
        await demoApi("seller", "GET", "/api/manage/products?status=active")
      ).json()) as ManagedProductList
    ).items.find((p) => p.moderationStatus === "approved" && p.category !== "hardware");
    if (!product) throw new Error("the demo seller has no product");
    const { orderId } = await placeOrder(buyer.request, {
      country: "Portugal",
      items: [{ productId: product.id, price: product.price }],
    });
    const admin = await browser.newPage({ as: "admin", width: 375, height: 812, theme: "dark" });
    const confirmed = await admin.request.patch(`/api/admin/orders/${orderId}`, {
      data: { paymentStatus: "mock_confirmed" },
    });
    expect(confirmed.status()).toBe(200);
    const order = ((await confirmed.json()) as { order: Order }).order;
    const asked = await buyer.request.post(`/api/orders/${orderId}/items/${order.items[0]?.id}/refund`, {
      data: { reason: "Paid by bank transfer and never delivered." },
    });
    const refundId = ((await asked.json()) as { refund: { id: string } }).refund.id;
    // The seller's part is set-up through the API (the first journey approves on their screen).
    const approved = await demoApi("seller", "POST", `/api/refunds/${refundId}/decision`, {
      decision: "approve",
    });
    expect(approved.status).toBe(200);

    // The admin finds it among the transfers to make, with the amount and the buyer's name.
    const short = orderId.slice(0, 8);
    await admin.goto("/admin/refunds");
    await admin.getByRole("heading", { level: 1, name: "Refunds" }).waitFor();
    await admin.getByLabel("Show").selectOption({ label: "Refund transfers to make" });
    await admin.waitForURL((url) => url.searchParams.get("payout") === "awaiting_transfer");
    const row = admin.getByTestId("refund-row").filter({ hasText: short });
    await row.waitFor();
    const amount = formatCents(chargeCents(String(order.totalAmount)));
    expect(await row.textContent()).toContain("Bianca Buyer");
    expect(await row.getByTestId("refund-payout").textContent()).toContain(
      `Transfer to make${amount} by bank transfer`,
    );
    await expectAccessible(admin);
    expect(await admin.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
    await snapshot(admin, "admin-refund-transfer", { fullPage: true });

    await row.getByRole("button", { name: `Mark transferred: ${product.name} (order ${short})` }).click();
    const dialog = admin.getByRole("alertdialog", { name: "Record the refund transfer" });
    expect(await dialog.textContent()).toContain(`Transfer ${amount} to the buyer`);
    await dialog.getByRole("button", { name: "Mark transferred" }).click();
    await dialog.getByText("Enter the bank's reference of the transfer").waitFor();
    await dialog.getByLabel("Bank reference").fill("NL-REF-7731");
    await dialog.getByLabel("Transfer date").fill("2026-11-20");
    await snapshot(admin, "admin-refund-transfer-dialog");
    await dialog.getByRole("button", { name: "Mark transferred" }).click();
    await toast(admin, "Transfer recorded").waitFor();
    // It leaves the transfers to make; under all approved refunds it reads sent, with the reference.
    await row.waitFor({ state: "detached" });
    await admin.getByLabel("Show").selectOption({ label: "Refund approved" });
    await admin.waitForURL((url) => url.searchParams.get("status") === "approved");
    const done = admin.getByTestId("refund-row").filter({ hasText: short });
    await expect.poll(() => done.getByTestId("refund-payout").textContent()).toContain("Ref. NL-REF-7731");

    // The buyer reads where the money went and when.
    await buyer.goto("/dashboard");
    await buyer
      .getByTestId("order-row")
      .filter({ hasText: short })
      .getByRole("button", { name: `View order ${short}` })
      .click();
    const line = buyer
      .getByTestId("order-refund")
      .filter({ hasText: product.name })
      .getByTestId("refund-payout");
    expect(await line.textContent()).toBe(`Refund of ${amount} sent to your bank account on Nov 20, 2026`);
  });

  test("admins review refunds at /admin/refunds, on a phone too", async () => {
    // Opened at its address it shows the escalated requests (none); Show: All lists every one.
    const admin = await browser.newPage({ as: "admin", width: 375, height: 812 });
    await admin.goto("/admin/refunds");
    await admin.getByRole("heading", { level: 1, name: "Refunds" }).waitFor();
    await admin.getByText("No refund requests.").waitFor();
    await admin.getByLabel("Show").selectOption({ label: "All" });
    await admin.waitForURL((url) => url.searchParams.get("status") === "all");
    await admin.getByTestId("refund-row").first().waitFor();
    await expectAccessible(admin);
    expect(await admin.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
  });
});
