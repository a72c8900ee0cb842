import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import type { AdminUserList } from "#domain/admin-users";
import type { ResellerLinks } from "#domain/referrals";
import { expectAccessible, newAccount, setupBrowser, snapshot, toast } from "./browser";
import { placeAndPay } from "./orders";

const browser = setupBrowser();

const noSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

describe("held commissions", () => {
  test("a colleague on the reseller's company domain buys through their link: held, shown to the reseller as on hold, released by an admin", async () => {
    // A reseller with a company address (reseller rights granted by a super admin).
    const domain = `acme-${randomUUID().slice(0, 6)}.example`;
    const reseller = await browser.newPage();
    await newAccount(reseller, {
      email: `rex@${domain}`,
      firstName: "Rex",
      lastName: "Partner",
      accountType: "buyer",
    });
    const superAdmin = await browser.newPage({ as: "superadmin" });
    const found = (await (
      await superAdmin.request.get("/api/admin/users", { params: { search: `rex@${domain}` } })
    ).json()) as AdminUserList;
    const rexId = found.items[0]?.id ?? "";
    const granted = await superAdmin.request.patch(`/api/admin/users/${rexId}`, {
      data: { isReseller: true },
    });
    expect(granted.status()).toBe(200);
    const links = (await (
      await reseller.request.get("/api/reseller/links?pageSize=100")
    ).json()) as ResellerLinks;
    const product = links.items.find((i) => i.linkable);
    if (!product) throw new Error("no resellable product in the demo catalogue");

    // A colleague signs up with the same company domain, follows the link and buys.
    const buyer = await browser.newPage();
    await newAccount(buyer, {
      email: `bob@${domain}`,
      firstName: "Bob",
      lastName: "Partner",
      accountType: "buyer",
    });
    const { pathname, search } = new URL(product.link);
    const visited = buyer.waitForResponse((r) => r.url().endsWith("/api/referrals/visit"));
    await buyer.goto(`${pathname}${search}`);
    expect(await (await visited).json()).toEqual({ counted: true });
    const order = await placeAndPay(buyer.request, {
      email: `bob@${domain}`,
      paymentMethod: "paypal",
      items: [{ productId: product.productId, price: product.price }],
    });
    const orderId = order.id;
    const short = orderId.slice(0, 8);

    // The reseller sees the amount on hold, not why.
    await reseller.setViewportSize({ width: 375, height: 812 });
    await reseller.goto("/dashboard/reseller");
    await reseller.getByTestId("reseller-total-held").waitFor();
    await reseller.getByTestId("reseller-held-note").waitFor();
    expect(await reseller.getByText(domain).count()).toBe(0);
    await expectAccessible(reseller);
    expect(await noSideways(reseller)).toBe(false);
    await snapshot(reseller, "h13-referral-reseller-held-phone", { fullPage: true });

    // Admins see it with the reason, on a phone and a desktop, light and dark.
    for (const view of [
      { width: 375, height: 812, theme: "light" as const, name: "phone-light" },
      { width: 375, height: 812, theme: "dark" as const, name: "phone-dark" },
      { width: 1280, height: 800, theme: "dark" as const, name: "desktop-dark" },
    ]) {
      const page = await browser.newPage({ as: "admin", ...view });
      await page.goto("/admin/commissions");
      await page.getByRole("heading", { level: 1, name: "Held commissions" }).waitFor();
      await page.getByTestId("commission-row").filter({ hasText: short }).waitFor();
      await expectAccessible(page);
      expect(await noSideways(page), view.name).toBe(false);
      await snapshot(page, `h13-referral-admin-${view.name}`, { fullPage: true });
    }

    const admin = await browser.newPage({ as: "admin" });
    await admin.goto("/admin/commissions");
    const row = admin.getByTestId("commission-row").filter({ hasText: short });
    await row.waitFor();
    expect(await row.getByTestId("commission-reasons").textContent()).toBe(
      `Buyer's e-mail is on the reseller's own domain (${domain})`,
    );
    expect(await row.textContent()).toContain(`rex@${domain}`);
    await snapshot(admin, "h13-referral-admin-desktop-light", { fullPage: true });

    await row.getByRole("button", { name: `Release: ${product.name} (order ${short})` }).click();
    const dialog = admin.getByRole("alertdialog", { name: "Release this commission?" });
    await dialog.getByLabel("Note for the audit log (optional)").fill("Bob is a customer of Acme, checked.");
    await expectAccessible(admin);
    await snapshot(admin, "h13-referral-admin-dialog");
    await dialog.getByRole("button", { name: "Release" }).click();
    await toast(admin, "Commission released", `${product.name} (order ${short})`).waitFor();
    await expect.poll(() => row.count()).toBe(0);

    // Released: it waits out the refund window as pending, like any other commission.
    const after = (await (
      await reseller.request.get("/api/reseller/links?pageSize=100")
    ).json()) as ResellerLinks;
    const item = after.items.find((i) => i.productId === product.productId);
    expect(item?.commission.held).toBe(0);
    expect(item?.commission.pending).toBeCloseTo(product.price * product.commissionRate, 4);
  });
});
