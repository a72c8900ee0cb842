import type { Cookie, Page } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import { readOutbox } from "#server/test/outbox";
import { totp } from "#server/test/totp";
import {
  baseUrl,
  type DemoAccount,
  dataDir,
  expectAccessible,
  setupBrowser,
  submitLogin,
  toast,
} from "./browser";

const browser = setupBrowser();

// Sign-ins are rate-limited per address, so each account logs in through the form once and later pages
// reuse its session cookies. The journeys that change an account (profile, settings, password,
// two-factor) use a fresh one, so the demo accounts stay as other files expect them.
const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const user = { email: `dashboard-${run}@example.com`, firstName: "Dana", lastName: "Board" };
const password = "dashboard-pass-1";
const demoPassword = "stackbay-demo";
const sessions = new Map<string, Cookie[]>();

const api = (path: string, body: unknown) =>
  fetch(`${baseUrl()}/api${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  const signUp = await api("/auth/sign-up", { ...user, password, accountType: "buyer" });
  expect(signUp.status, await signUp.clone().text()).toBe(200);
  // expect.poll only works inside a test, so this waits for the mail by hand.
  let code: string | undefined;
  for (let tries = 0; !code && tries < 50; tries++) {
    const mail = (await readOutbox(dataDir())).find(
      (m) => m.to.includes(user.email) && m.subject === "Verify your email for Stackbay",
    );
    code = mail?.body.match(/^\s*(\d{6})\s*$/m)?.[1];
    if (!code) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect(code).toBeTruthy();
  const verified = await api("/auth/verify-email", { email: user.email, code });
  expect(verified.status, await verified.clone().text()).toBe(200);
});

const pathOf = (page: Page) => new URL(page.url()).pathname;
const menu = (page: Page) => page.getByRole("navigation", { name: "Dashboard menu" });
const me = (page: Page) =>
  page.evaluate(async () => (await (await fetch("/api/me")).json()).user as Record<string, never> | null);

async function logIn(page: Page, email: string, secret: string) {
  await page.goto("/login");
  await submitLogin(page, email, secret);
}

/** The demo accounts whose sessions the e2e setup made: their pages start signed in. */
const demoSessions: Record<string, DemoAccount> = {
  "seller@stackbay.test": "seller",
  "admin@stackbay.test": "admin",
  "superadmin@stackbay.test": "superadmin",
};

/**
 * A page signed in as `email` at `path`: a demo account with the session the e2e setup made; another
 * through the login form the first time, then by its cookies. (This file's first sign-in and the
 * two-factor test go through the form; accounts.test.ts proves it for the demo accounts.)
 */
async function signedIn(
  email: string,
  path = "/dashboard",
  options: Parameters<typeof browser.newPage>[0] = {},
) {
  const demo = demoSessions[email];
  const page = await browser.newPage({ ...options, as: demo });
  const cookies = sessions.get(email);
  if (cookies) {
    await page.context().addCookies(cookies);
  } else if (!demo) {
    await logIn(page, email, email === user.email ? password : demoPassword);
    await page.waitForURL((url) => url.pathname === "/");
    sessions.set(email, await page.context().cookies());
    // Just signed in, on the home page: on to the dashboard by the header's link, as a person goes. (On a
    // phone the link is in the header's menu, which closes as the page changes: a tap while the sign-in
    // moves to the home page can be lost, so a phone opens the address.)
    if (path === "/dashboard" && (options.width ?? 1280) >= 1280) {
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click();
      await page.waitForURL((url) => url.pathname === path);
    }
  }
  if (new URL(page.url()).pathname !== path) await page.goto(path);
  await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
  return page;
}

describe("dashboard shell", () => {
  test("greets the user, shows empty order figures, switches views from the menu, and passes axe on each", async () => {
    const page = await signedIn(user.email);
    expect(await page.title()).toBe("Orders · Dashboard | Stackbay");
    expect(await page.getByText("Welcome back, Dana!").isVisible()).toBe(true);
    const stats = page.getByRole("region", { name: "Order summary" });
    const figures: [string, string][] = [
      ["Total Orders", "0"],
      ["Total Spent", "$0.00"],
      ["Completed Orders", "0"],
    ];
    // The figures come with the order list, so they show once it has loaded.
    for (const [label, value] of figures) {
      await expect
        .poll(() => stats.getByText(label).locator("xpath=following-sibling::dd").textContent())
        .toBe(value);
    }
    expect(await page.getByText("Your orders will appear here once you make a purchase.").isVisible()).toBe(
      true,
    );
    await page.getByRole("heading", { name: "Order History" }).waitFor();
    expect(await page.getByText("No orders yet").isVisible()).toBe(true);
    expect(await page.getByRole("link", { name: "Browse Products" }).getAttribute("href")).toBe("/products");
    expect(await menu(page).getByRole("link", { name: "Orders" }).getAttribute("aria-current")).toBe("page");
    for (const section of ["Seller", "Admin", "Super admin"]) {
      expect(await menu(page).getByText(section, { exact: true }).count(), section).toBe(0);
    }
    expect(await menu(page).getByRole("link", { name: "Home" }).getAttribute("href")).toBe("/");
    expect(await menu(page).getByRole("link", { name: "Products" }).getAttribute("href")).toBe("/products");
    await expectAccessible(page);

    // axe on the views whose state here the width sweep does not see (it opens Saved as the demo buyer,
    // who has saved products, and Wallet as a seller); Profile and Settings it sees as a buyer at 1366 px
    // in the light, as here.
    const views = [
      ["Saved", "/dashboard/saved", "Saved Products", true],
      ["Profile", "/dashboard/profile", "Profile Information", false],
      ["Wallet", "/dashboard/wallet", "Wallet", true],
      ["Settings", "/dashboard/settings", "Settings", false],
    ] as const;
    // By keyboard: each menu entry is a link that Enter follows.
    for (const [label, path, heading, unswept] of views) {
      await menu(page).getByRole("link", { name: label }).focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => pathOf(page)).toBe(path);
      await page.getByRole("heading", { level: 2, name: heading, exact: true }).waitFor();
      expect(await menu(page).getByRole("link", { name: label }).getAttribute("aria-current")).toBe("page");
      expect(await menu(page).getByRole("link", { name: "Orders" }).getAttribute("aria-current")).toBeNull();
      expect(await page.title()).toBe(`${label} · Dashboard | Stackbay`);
      if (label === "Saved") await page.getByText("No saved items yet").waitFor();
      if (label === "Wallet") {
        // A buyer's wallet holds nothing (buyers pay at checkout), and offers no button that does nothing.
        await page.getByTestId("wallet-buyer").getByText("Your wallet holds no balance").waitFor();
        expect(
          await page
            .getByRole("main")
            .getByRole("button", { name: /Add Funds/ })
            .count(),
        ).toBe(0);
        // Payout details are for sellers and resellers; a buyer has none to give.
        expect(await page.getByTestId("payout-method").count()).toBe(0);
      }
      if (unswept) await expectAccessible(page);
    }
  });

  test("an order list that fails to load says so, with the spec's toast, and Try again loads it", async () => {
    const page = await signedIn(user.email, "/dashboard/profile", { allowErrors: [/status of 400/] });
    // A 4xx answer: the query does not retry it by itself, so the screen shows the failure at once.
    await page.route("**/api/orders", (route) =>
      route.fulfill({
        status: 400,
        contentType: "application/json",
        body: '{"code":"BAD_REQUEST","message":"x"}',
      }),
    );
    await page.goto("/dashboard");
    const failure = page.getByRole("alert").filter({ hasText: "Failed to load orders" });
    await failure.waitFor();
    await page.getByText("There was an error loading your orders. Please try again.").waitFor();
    await page.unroute("**/api/orders");
    await failure.getByRole("button", { name: "Try again" }).click();
    await page.getByText("No orders yet").waitFor();
  });

  test("an unknown view is the not-found screen", async () => {
    const page = await browser.newPage({ allowErrors: [/status of 404/] });
    const response = await page.goto("/dashboard/nope");
    expect(response?.status()).toBe(404);
    await page.getByTestId("not-found").waitFor();
  });

  test("on a 375 px phone a tab row replaces the side menu", async () => {
    const page = await signedIn(user.email, "/dashboard", { width: 375, height: 812 });
    const tabs = page.getByRole("navigation", { name: "Dashboard views" });
    expect(await tabs.isVisible()).toBe(true);
    expect(await menu(page).isVisible()).toBe(false);
    expect(await tabs.getByRole("link").allTextContents()).toEqual([
      "Orders",
      "Notifications",
      "Refund requests",
      "Saved",
      "Licenses",
      "Subscriptions",
      "Profile",
      "Wallet",
      "Settings",
    ]);
    await tabs.getByRole("link", { name: "Profile" }).click();
    await page.getByRole("heading", { name: "Profile Information" }).waitFor();
    expect(await tabs.getByRole("link", { name: "Profile" }).getAttribute("aria-current")).toBe("page");
    expect(await page.getByRole("button", { name: "Log out" }).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // axe: the sweep checks Profile as it opens, as a buyer at 375 px dark and 1366 px light.
    await tabs.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("button", { name: "Save Changes" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });

  test("on a 375 px phone each figure stays on one line, a five-figure amount too", async () => {
    // The demo buyer Priya has spent over $60,000, which used to break after "$62,550.".
    const page = await signedIn("priya@stackbay.test", "/dashboard", { width: 375, height: 812 });
    const stats = page.getByRole("region", { name: "Order summary" });
    const spent = stats.getByText("Total Spent").locator("xpath=following-sibling::dd");
    await expect.poll(() => spent.textContent()).toMatch(/^\$\d{2},\d{3}\.\d{2}$/);
    const linesEach = await stats.locator("dd").evaluateAll((figures) =>
      figures.map((figure) => {
        const text = document.createRange();
        text.selectNodeContents(figure);
        return text.getClientRects().length;
      }),
    );
    expect(linesEach).toEqual([1, 1, 1]);
  });

  test("role sections: a seller gets their products and refund requests, an admin admin links, a super admin more; dark mode passes axe", async () => {
    const seller = await signedIn("seller@stackbay.test");
    const sellerMenu = menu(seller);
    await sellerMenu.getByText("Seller", { exact: true }).waitFor();
    const sellerLinks = await sellerMenu
      .getByRole("list", { name: "Seller" })
      .getByRole("link")
      .evaluateAll((nodes) => nodes.map((a) => [a.textContent?.trim(), a.getAttribute("href")]));
    expect(sellerLinks).toEqual([
      ["Orders received", "/dashboard/sales"],
      ["Recurring revenue", "/dashboard/recurring"],
      ["Storefront", "/dashboard/storefront"],
      ["My Products", "/seller/products"],
      ["Add Product", "/seller/products/new"],
      ["To ship", "/dashboard/shipping"],
      ["Questions", "/dashboard/questions"],
      ["API keys", "/dashboard/api"],
      ["Webhooks", "/dashboard/webhooks"],
    ]);
    // Refund requests are every account's view now (a buyer follows their own there), above.
    expect(await sellerMenu.getByRole("link", { name: "Refund requests" }).getAttribute("href")).toBe(
      "/dashboard/refunds",
    );
    expect(await sellerMenu.getByText("Admin", { exact: true }).count()).toBe(0);

    const admin = await signedIn("admin@stackbay.test");
    const adminMenu = menu(admin);
    await adminMenu.getByText("Admin", { exact: true }).waitFor();
    const links = await adminMenu
      .getByRole("list", { name: "Admin" })
      .getByRole("link")
      .evaluateAll((nodes) => nodes.map((a) => [a.textContent?.trim(), a.getAttribute("href")]));
    expect(links).toEqual([
      ["Overview", "/admin"],
      ["Products", "/admin/products"],
      ["Listing review", "/admin/moderation"],
      ["Featured Products", "/admin/featured"],
      ["Add Product", "/admin/add-product"],
      ["Categories", "/admin/categories"],
      ["Pages", "/admin/pages"],
      ["Add Page", "/admin/pages/add"],
      ["Content Blocks", "/admin/content"],
      ["Search synonyms", "/admin/search"],
      ["Orders", "/admin/orders"],
      ["Subscriptions", "/admin/subscriptions"],
      ["Refunds", "/admin/refunds"],
      ["Held commissions", "/admin/commissions"],
      ["Inbox", "/admin/inbox"],
    ]);
    expect(await adminMenu.getByText("Super admin", { exact: true }).count()).toBe(0);
    expect(await adminMenu.getByText("Seller", { exact: true }).count()).toBe(0);

    const root = await signedIn("superadmin@stackbay.test", "/dashboard/settings", { theme: "dark" });
    const rootMenu = menu(root);
    await rootMenu.getByText("Super admin", { exact: true }).waitFor();
    expect(await rootMenu.getByRole("list", { name: "Super admin" }).textContent()).toContain("Users");
    expect(await rootMenu.getByRole("list", { name: "Super admin" }).textContent()).toContain("System");
    expect(await rootMenu.getByRole("list", { name: "Super admin" }).textContent()).toContain("Audit Log");
    expect(await rootMenu.getByRole("list", { name: "Admin", exact: true }).getByRole("link").count()).toBe(
      15,
    );
    expect(await root.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    await expectAccessible(root);
  });
});

describe("profile", () => {
  test("edit, save, reload shows the new values; a refused save keeps the form; cancel restores", async () => {
    const page = await signedIn(user.email, "/dashboard/profile", { allowErrors: [/status of 400/] });
    const details = page.getByTestId("profile-details");
    await details.waitFor();
    expect(await details.textContent()).toContain(user.email);
    expect(await details.textContent()).toContain("Email cannot be changed");
    const since = new Intl.DateTimeFormat("en-US", {
      month: "short",
      day: "2-digit",
      year: "numeric",
    }).format(new Date());
    expect(await page.getByText(since).isVisible()).toBe(true);
    expect(await page.getByText("Email verified").locator("xpath=following-sibling::dd").textContent()).toBe(
      "Yes",
    );

    await page.getByRole("button", { name: "Edit" }).click();
    expect(await page.getByLabel("E-mail").getAttribute("readonly")).not.toBeNull();
    expect(await page.getByLabel("E-mail").inputValue()).toBe(user.email);
    expect(await page.getByLabel("First name").evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByLabel("Phone").fill("+971 4 555 0100");
    await page.getByLabel("City").fill("Dubai");
    await expectAccessible(page);

    // The server refuses once: the destructive toast shows its words and the edits stay.
    await page.route("**/api/me", (route) =>
      route.request().method() === "PATCH"
        ? route.fulfill({
            status: 400,
            json: { code: "VALIDATION_ERROR", message: "City is not valid" },
          })
        : route.fallback(),
    );
    await page.getByRole("button", { name: "Save" }).click();
    await toast(page, "Update Failed", "City is not valid").waitFor();
    expect(await page.getByLabel("City").inputValue()).toBe("Dubai");
    await page.unroute("**/api/me");

    await page.getByRole("button", { name: "Save" }).click();
    await toast(page, "Profile Updated", "Your profile has been successfully updated.").waitFor();
    await page.getByRole("button", { name: "Edit" }).waitFor();
    expect(
      await page.getByRole("button", { name: "Edit" }).evaluate((el) => el === document.activeElement),
    ).toBe(true);
    await page.reload();
    await details.waitFor();
    expect(await details.textContent()).toContain("+971 4 555 0100");
    expect(await details.textContent()).toContain("Dubai");

    await page.getByRole("button", { name: "Edit" }).click();
    await page.getByLabel("City").fill("Abu Dhabi");
    await page.getByLabel("Phone").fill("");
    await page.getByRole("button", { name: "Cancel" }).click();
    expect(await details.textContent()).toContain("Dubai");
    expect(await details.textContent()).not.toContain("Abu Dhabi");
    await page.getByRole("button", { name: "Edit" }).click();
    expect(await page.getByLabel("City").inputValue()).toBe("Dubai");
    expect(await page.getByLabel("Phone").inputValue()).toBe("+971 4 555 0100");
  });
});

describe("settings", () => {
  test("saved preferences follow the user to another browser; navbar currency picks are saved too", async () => {
    const page = await signedIn(user.email, "/dashboard/settings", { allowErrors: [/status of 500/] });
    await page.route("**/api/me/preferences", (route) =>
      route.fulfill({ status: 500, json: { code: "INTERNAL", message: "boom" } }),
    );
    await page.getByLabel("Preferred currency").selectOption("EUR");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await toast(page, "Error", "Failed to save currency preference.").waitFor();
    expect(await page.locator("#currency-picker").inputValue()).toBe("USD");
    await page.unroute("**/api/me/preferences");

    await page.getByRole("radio", { name: "Dark" }).check();
    await page.getByRole("checkbox", { name: "Marketing emails" }).check();
    expect(await page.getByRole("checkbox", { name: "Email notifications" }).isChecked()).toBe(true);
    // Nothing applies before the server has stored it.
    expect(await page.locator("#currency-picker").inputValue()).toBe("USD");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await toast(page, "Settings saved").waitFor();
    expect(await page.locator("#currency-picker").inputValue()).toBe("EUR");
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);

    // Another device: nothing in its storage, the account brings the preferences.
    const other = await browser.newPage({ allowErrors: [/status of 500/] });
    await logIn(other, user.email, password);
    await other.waitForURL((url) => url.pathname === "/");
    await expect.poll(() => other.locator("#currency-picker").inputValue()).toBe("EUR");
    expect(await other.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    await other
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Products", exact: true })
      .click();
    await other.getByRole("link", { name: "View Details" }).first().waitFor();
    await expect.poll(() => other.locator("main").textContent()).toContain("€");

    // A pick made right after a page load, while the account is still loading, is kept and saved.
    let releaseAccount = () => {};
    const accountHeld = new Promise<void>((resolve) => {
      releaseAccount = resolve;
    });
    await other.route("**/api/me", async (route) => {
      await accountHeld;
      await route.continue();
    });
    await other.reload();
    await other.getByRole("link", { name: "View Details" }).first().waitFor();
    await other.locator("#currency-picker").selectOption("GBP");
    await toast(other, "Currency Changed").waitFor();
    releaseAccount();
    // Waits for the held answer to go through before the route goes.
    await other.unrouteAll({ behavior: "wait" });
    await expect.poll(async () => (await me(other))?.preferences).toMatchObject({ currency: "GBP" });
    expect(await other.locator("#currency-picker").inputValue()).toBe("GBP");

    // A failed save still switches the display and says the choice was not kept.
    await other.route("**/api/me/preferences", (route) =>
      route.fulfill({ status: 500, json: { code: "INTERNAL", message: "boom" } }),
    );
    await other.locator("#currency-picker").selectOption("INR");
    await toast(other, "Error", "Failed to save currency preference.").waitFor();
    expect(await other.locator("#currency-picker").inputValue()).toBe("INR");
    await other.unroute("**/api/me/preferences");

    await other.goto("/dashboard/settings");
    await other.getByRole("button", { name: "Save Changes" }).waitFor();
    expect(await other.getByLabel("Preferred currency").inputValue()).toBe("GBP");
    expect(await other.getByRole("checkbox", { name: "Marketing emails" }).isChecked()).toBe(true);
    expect(await other.getByRole("radio", { name: "Dark" }).isChecked()).toBe(true);
    await other.getByLabel("Preferred currency").selectOption("USD");
    await other.getByRole("radio", { name: "Light" }).check();
    await other.getByRole("button", { name: "Save Changes" }).click();
    await toast(other, "Settings saved").waitFor();
    expect(await other.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(false);
    expect(await me(other)).toMatchObject({ preferences: { currency: "USD", theme: "light" } });
    // This device's session ends in the password test.
    sessions.set("other-device", await other.context().cookies());
  });

  test("change password: a wrong current password is refused inline; success ends the other sessions", async () => {
    const page = await signedIn(user.email, "/dashboard/settings", { allowErrors: [/status of 400/] });
    await page.getByRole("button", { name: "Change Password" }).click();
    expect(await page.getByLabel("Current password").evaluate((el) => el === document.activeElement)).toBe(
      true,
    );
    await page.getByLabel("Current password").fill("not-my-password");
    await page.getByLabel("New password").fill("dashboard-pass-2");
    await page.getByRole("button", { name: "Update Password" }).click();
    await page.getByText("Your current password is incorrect.").waitFor();
    expect(await page.getByLabel("Current password").getAttribute("aria-invalid")).toBe("true");
    await expectAccessible(page);

    await page.getByLabel("Current password").fill(password);
    await page.getByRole("button", { name: "Update Password" }).click();
    await toast(page, "Password changed", "Your other sessions have been signed out.").waitFor();
    expect(await page.getByLabel("Current password").count()).toBe(0);

    const otherDevice = (sessions.get("other-device") ?? []).map((c) => `${c.name}=${c.value}`).join("; ");
    const elsewhere = await fetch(`${baseUrl()}/api/me`, { headers: { cookie: otherDevice } });
    expect((await elsewhere.json()).user).toBeNull();

    // This session lives on; change the password back through the same form.
    await page.reload();
    await page.getByRole("button", { name: "Change Password" }).click();
    await page.getByLabel("Current password").fill("dashboard-pass-2");
    await page.getByLabel("New password").fill(password);
    await page.getByRole("button", { name: "Update Password" }).click();
    await toast(page, "Password changed").waitFor();
    sessions.set(user.email, await page.context().cookies());
  });

  test("two-factor: enable with a code from the key, sign out, sign in with a code, turn it off", {
    timeout: 120_000,
  }, async () => {
    const page = await signedIn(user.email, "/dashboard/settings", { allowErrors: [/status of 40[01]/] });
    expect(await page.getByTestId("two-factor-status").textContent()).toBe("Off");
    await page.getByRole("button", { name: "Enable two-factor authentication" }).click();
    await page.getByLabel("Your password").fill("wrong-password");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect.poll(() => page.getByLabel("Your password").getAttribute("aria-invalid")).toBe("true");

    await page.getByLabel("Your password").fill(password);
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/api/me/two-factor/enable") && r.ok()),
      page.getByRole("button", { name: "Continue" }).click(),
    ]);
    const setup = (await answer.json()) as { totpURI: string; secret: string; backupCodes: string[] };
    const setupArea = page.getByTestId("two-factor-setup");
    await setupArea.waitFor();
    const qr = page.getByRole("img", { name: "QR code for your authenticator app" });
    await expect
      .poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    const secret = (await page.getByTestId("two-factor-secret").textContent()) ?? "";
    expect(secret).toBe(new URL(setup.totpURI).searchParams.get("secret"));
    expect(await page.getByTestId("backup-codes").getByRole("listitem").allTextContents()).toEqual(
      setup.backupCodes,
    );
    expect(await setupArea.textContent()).toContain("Store these codes somewhere safe");
    await expectAccessible(page);

    await page.getByLabel("Code from your app").fill(totp(secret) === "000000" ? "111111" : "000000");
    const [refused] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/api/me/two-factor/confirm")),
      page.getByRole("button", { name: "Turn on" }).click(),
    ]);
    expect(refused.status()).toBe(400);
    expect((await refused.json()).code).toBe("INVALID_TWO_FACTOR_CODE");
    await expect.poll(() => page.getByLabel("Code from your app").getAttribute("aria-invalid")).toBe("true");
    await page.getByLabel("Code from your app").fill(totp(secret));
    await page.getByRole("button", { name: "Turn on" }).click();
    await toast(page, "Two-factor authentication enabled").waitFor();
    expect(await page.getByTestId("two-factor-status").textContent()).toBe("On");
    expect(await setupArea.count()).toBe(0);

    await menu(page).getByRole("button", { name: "Log out" }).click();
    await expect.poll(() => pathOf(page)).toBe("/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Login" }).waitFor();
    // Signed out in place: the guard of the page being left did not send us to /login.
    expect(pathOf(page)).toBe("/");
    expect(await me(page)).toBeNull();

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Login" }).click();
    await page.getByRole("heading", { level: 1, name: "Welcome Back" }).waitFor();
    await submitLogin(page, user.email, password);
    await page.getByLabel("Authentication code").fill(totp(secret));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL((url) => url.pathname === "/");

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click();
    await menu(page).getByRole("link", { name: "Settings" }).click();
    await page.getByRole("button", { name: "Turn off" }).click();
    await page.getByLabel("Your password").fill(password);
    await page.getByRole("button", { name: "Turn off two-factor" }).click();
    await toast(page, "Two-factor authentication turned off").waitFor();
    expect(await page.getByTestId("two-factor-status").textContent()).toBe("Off");
    expect(await me(page)).toMatchObject({ twoFactorEnabled: false });
  });
});
