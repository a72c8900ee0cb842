import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { expectAccessible, setupBrowser, snapshot, toast } from "./browser";

const browser = setupBrowser();

// reseller@ is the account these journeys change (and change back); buyer@ and seller@ belong to others.
const reseller = "reseller@stackbay.test";

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

async function fxRate(page: Page, code: string) {
  const rates = (await (await page.request.get("/api/fx-rates")).json()) as {
    currencyCode: string;
    fxBuffer: number;
  }[];
  return rates.find((r) => r.currencyCode === code);
}

describe("super admin screens", () => {
  test("a super admin grants Seller to an account, sees it kept after a reload, and revokes it", async () => {
    const page = await browser.newPage({ as: "superadmin", allowErrors: [/status of 500/] });
    await page.goto("/admin/users");
    await page.getByRole("heading", { level: 1, name: "Users" }).waitFor();
    expect(await page.title()).toBe("Users | Stackbay");
    await page.getByTestId("admin-users-table").waitFor();
    // axe: the sweep checks this screen as it opens (at 1366 px light and 375 px dark); here, the dialog.
    await snapshot(page, "h4-users", { fullPage: true });

    // Your own row cannot be disabled.
    const mine = page.getByTestId("admin-user-row").filter({ hasText: "superadmin@stackbay.test" });
    const ownDisable = mine.getByRole("button", { name: "Disable superadmin@stackbay.test" });
    expect(await ownDisable.isDisabled()).toBe(true);
    expect(await mine.textContent()).toContain("You can't disable your own account.");

    await page.getByLabel("Search users").fill(reseller);
    await page.waitForURL((url) => url.searchParams.get("search") === reseller);
    const rows = page.getByTestId("admin-user-row");
    await expect.poll(() => rows.count()).toBe(1);
    const row = rows.filter({ hasText: reseller });
    const cells = await row.locator("td").allTextContents();
    expect(cells.slice(0, 5)).toEqual(["Rhea Reseller", reseller, "Yes", "BuyerReseller", "Active"]);

    const seller = row.getByRole("checkbox", { name: `Seller (${reseller})`, exact: true });
    expect(await seller.isChecked()).toBe(false);
    await seller.check();
    await toast(page, "User updated", `Seller granted for ${reseller}.`).waitFor();
    await expect.poll(() => row.getByTestId("admin-user-roles").textContent()).toBe("BuyerSellerReseller");

    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Users" }).waitFor();
    await row.waitFor();
    expect(await page.getByLabel("Search users").inputValue()).toBe(reseller);
    expect(await seller.isChecked()).toBe(true);

    // A refused save: the error toast, and the box shows the saved value again.
    await page.route("**/api/admin/users/*", (route) =>
      route.request().method() === "PATCH"
        ? route.fulfill({
            status: 500,
            contentType: "application/json",
            body: JSON.stringify({ code: "INTERNAL", message: "Something went wrong." }),
          })
        : route.fallback(),
    );
    await seller.click();
    await toast(page, "Failed to update user", "Something went wrong.").waitFor();
    await expect.poll(() => seller.isChecked()).toBe(true);
    await expect.poll(() => seller.isEnabled()).toBe(true);
    await page.unroute("**/api/admin/users/*");

    await seller.uncheck();
    await toast(page, "User updated", `Seller revoked for ${reseller}.`).waitFor();
    await expect.poll(() => row.getByTestId("admin-user-roles").textContent()).toBe("BuyerReseller");

    // Disabling asks first; cancelling leaves the account as it was.
    const disable = row.getByRole("button", { name: `Disable ${reseller}` });
    await disable.click();
    const dialog = page.getByRole("alertdialog", { name: `Disable ${reseller}?` });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(
      "Their sessions end at once and they cannot sign in until re-enabled.",
    );
    await expectAccessible(page);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    // Focus goes back to the button that opened it, a moment after the dialog has gone: typing in the
    // search box before then would have the keys land on that button.
    await expect.poll(() => disable.evaluate((button) => button === document.activeElement)).toBe(true);
    expect(await row.getByTestId("admin-user-status").textContent()).toBe("Active");

    // The role filter lives in the URL too. Picked just after the search box was emptied, while a slow
    // phone (the CPU slowed twentyfold) is still drawing that change, it keeps the search emptied.
    const cpu = await page.context().newCDPSession(page);
    await cpu.send("Emulation.setCPUThrottlingRate", { rate: 20 });
    await page.getByLabel("Search users").fill("");
    await page.waitForURL((url) => !url.searchParams.has("search"));
    await page.getByLabel("Role").selectOption("superAdmin");
    await page.waitForURL((url) => url.searchParams.get("role") === "superAdmin");
    await cpu.send("Emulation.setCPUThrottlingRate", { rate: 1 });
    expect(new URL(page.url()).search).toBe("?role=superAdmin");
    await expect
      .poll(async () => (await rows.locator("td:nth-child(2)").allTextContents()).join())
      .toBe("superadmin@stackbay.test");
  });

  test("on a 375 px phone, in the dark theme, the users table scrolls inside its region", async () => {
    const page = await browser.newPage({ as: "superadmin", width: 375, height: 812, theme: "dark" });
    await page.goto(`/admin/users?search=${encodeURIComponent(reseller)}`);
    await page.getByTestId("admin-user-row").first().waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(375);
    // axe: the sweep checks this screen at 375 px dark, with every row (this one is among them).
    await snapshot(page, "h4-users-375", { fullPage: true });
  });

  test("the system screen shows a healthy database and counts; the EUR buffer is changed and restored", async () => {
    const page = await browser.newPage({ as: "superadmin" });
    await page.goto("/admin/system");
    await page.getByRole("heading", { level: 1, name: "System" }).waitFor();
    expect(await page.getByTestId("database-health").textContent()).toBe("Healthy");
    const counts = await page.getByTestId("system-counts").textContent();
    expect(counts).toMatch(/Users\d+/);
    expect(counts).toMatch(/Products\d+ \(\d+ active\)/);
    expect(await page.getByText("PGlite (embedded)").count()).toBe(1);
    // The background jobs: every queue with its schedule, and none that gave up.
    const queues = page.getByTestId("job-queues");
    await queues.waitFor();
    for (const name of [
      "Mail",
      "Payments reconcile",
      "Commissions release",
      "Earnings release",
      "Payout transfer",
    ]) {
      expect(await queues.getByText(name, { exact: true }).count()).toBe(1);
    }
    // Commissions and seller earnings are both released every five minutes.
    expect(await queues.getByText("Every 5 minutes").count()).toBe(2);
    await page.getByTestId("no-dead-letters").waitFor();

    const eur = page.getByRole("form", { name: "Euro (EUR)" });
    const buffer = eur.getByLabel("Buffer (0–0.5)");
    const save = eur.getByRole("button", { name: "Save EUR rate" });
    const original = await buffer.inputValue();
    expect(Number(original)).toBe((await fxRate(page, "EUR"))?.fxBuffer);
    expect(await save.isDisabled()).toBe(true);
    // axe: the sweep checks this screen as it opens, at 1366 px light and 375 px dark.
    await snapshot(page, "h4-system", { fullPage: true });

    // The shared schema's message, before anything is sent.
    await buffer.fill("0.6");
    await save.click();
    await eur.getByText("Buffer must be between 0 and 0.5 (0–50 %)").waitFor();
    expect(await buffer.getAttribute("aria-invalid")).toBe("true");

    await buffer.fill("0.035");
    await save.click();
    await toast(page, "Exchange rate saved", "EUR: 0.92 per USD with a 3.5 % buffer.").waitFor();
    expect((await fxRate(page, "EUR"))?.fxBuffer).toBe(0.035);
    await expect.poll(() => save.isDisabled()).toBe(true);

    await buffer.fill(original);
    await save.click();
    await expect.poll(() => toast(page, "Exchange rate saved").count()).toBe(2);
    expect((await fxRate(page, "EUR"))?.fxBuffer).toBe(Number(original));

    const refreshed = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/admin/system");
    await page.getByRole("button", { name: "Refresh" }).click();
    expect((await refreshed).status()).toBe(200);
  });

  test("the system screen on a 375 px phone, in the dark theme", async () => {
    const page = await browser.newPage({ as: "superadmin", width: 375, height: 812, theme: "dark" });
    await page.goto("/admin/system");
    await page.getByRole("form", { name: "Euro (EUR)" }).waitFor();
    await page.getByTestId("job-queues").waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(375);
    // axe: the sweep checks this screen as it opens at 375 px dark.
    await snapshot(page, "h4-system-375", { fullPage: true });
  });

  test("the audit log lists the role changes and exchange rates, filtered by type and actor", async () => {
    const page = await browser.newPage({ as: "superadmin" });
    await page.goto("/admin/audit");
    await page.getByRole("heading", { level: 1, name: "Audit Log" }).waitFor();
    await page.getByTestId("audit-entry").first().waitFor();

    await page.getByLabel("Entity type").selectOption("user");
    await page.waitForURL((url) => url.searchParams.get("entityType") === "user");
    const entries = page.getByTestId("audit-entry");
    await expect.poll(() => entries.filter({ hasText: "Exchange rate" }).count()).toBe(0);
    const roleChanges = entries.filter({ hasText: reseller }).filter({ hasText: "isSeller" });
    await expect.poll(() => roleChanges.count()).toBeGreaterThanOrEqual(2);
    // Newest first: the revocation, true → false.
    expect(await roleChanges.first().textContent()).toContain("isSellertruefalse");
    expect(await roleChanges.first().textContent()).toContain("by superadmin@stackbay.test");

    await page.getByLabel("Actor e-mail").fill("nobody@");
    await page.getByLabel("Actor e-mail").press("Enter");
    await page.waitForURL((url) => url.searchParams.get("actor") === "nobody@");
    await page.getByText("No entries match these filters.").waitFor();
    await page.getByLabel("Actor e-mail").fill("superadmin");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL((url) => url.searchParams.get("actor") === "superadmin");
    await expect.poll(() => roleChanges.count()).toBeGreaterThanOrEqual(2);
    await expectAccessible(page);
    await snapshot(page, "h4-audit", { fullPage: true });

    await page.getByRole("button", { name: "Clear" }).click();
    await page.waitForURL((url) => url.search === "");
    await expect.poll(() => entries.filter({ hasText: "Exchange rate" }).count()).toBeGreaterThanOrEqual(2);
  });

  test("the audit log on a 375 px phone", async () => {
    const page = await browser.newPage({ as: "superadmin", width: 375, height: 812 });
    await page.goto("/admin/audit");
    await page.getByTestId("audit-entry").first().waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(375);
    // axe: the sweep checks this screen as it opens, at 375 px dark and 1366 px light.
    await snapshot(page, "h4-audit-375", { fullPage: true });
  });

  test("an admin who is not a super admin sees the unauthorized screen", async () => {
    const page = await browser.newPage({ as: "admin" });
    for (const path of ["/admin/users", "/admin/system", "/admin/audit"]) {
      await page.goto(path);
      await page.getByRole("heading", { name: "Unauthorized Access" }).waitFor();
      expect(await page.getByTestId("admin-users-table").count()).toBe(0);
    }
  });
});
