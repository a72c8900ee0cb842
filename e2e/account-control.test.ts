import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { waitForMail } from "#server/test/outbox";
import { dataDir, setupBrowser, snapshot, toast } from "./browser";
import { placeOrder } from "./orders";

const browser = setupBrowser();
const email = `leaving-${randomUUID().slice(0, 8)}@journeys.test`;
const password = "a password to leave with";
const isDark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains("dark"));

describe("account control", () => {
  test("sign up and be signed in by the code; download my data; delete refused with an open order, then done", async () => {
    const page = await browser.newPage({ allowErrors: [/status of 409/] });
    await page.goto("/signup");
    await page.getByLabel("First name").fill("Lea");
    await page.getByLabel("Last name").fill("Ving");
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Create Account" }).click();
    await page.waitForURL("**/verify");
    const mail = await waitForMail(dataDir(), (m) => m.to === email);
    await page.getByLabel("Verification code").fill(mail.body.match(/\b(\d{6})\b/)?.[1] ?? "");
    await page.getByRole("button", { name: "Verify Email" }).click();
    // Signed in by the code in the browser that signed up: straight to the dashboard.
    await page.waitForURL("**/dashboard");
    expect((await (await page.request.get("/api/me")).json()).user.email).toBe(email);

    // An order left unpaid: placed, never paid.
    // A SaaS product: other journeys on this server add products (hardware asks for a shipping address).
    const [product] = (await (await page.request.get("/api/products?pageSize=1&category=saas")).json()).items;
    const { orderId, redirectUrl } = await placeOrder(page.request, {
      email,
      items: [{ productId: product.id, price: product.price }],
    });
    await page.goto("/dashboard/settings");
    const download = page.waitForEvent("download");
    await page.getByTestId("download-my-data").click();
    const file = await (await download).path();
    const data = JSON.parse(await readFile(file, "utf8"));
    expect(data.profile.email).toBe(email);
    expect(data.orders.map((o: { id: string }) => o.id)).toEqual([orderId]);

    // System follows the device, live.
    await page.emulateMedia({ colorScheme: "dark" });
    await page.getByRole("radio", { name: "System" }).check();
    await page.getByRole("button", { name: "Save Changes" }).click();
    await toast(page, "Settings saved").waitFor();
    await expect.poll(() => isDark(page)).toBe(true);
    await page.emulateMedia({ colorScheme: "light" });
    await expect.poll(() => isDark(page)).toBe(false);
    await snapshot(page, "account-control-1280-light", { fullPage: true });

    // The account's theme is now System: a phone set to dark shows it dark.
    const phone = await browser.newPage({ width: 375 });
    await phone.emulateMedia({ colorScheme: "dark" });
    await phone.context().addCookies(await page.context().cookies());
    await phone.goto("/dashboard/settings");
    await phone.getByRole("heading", { name: "Your data and account" }).waitFor();
    await expect.poll(() => isDark(phone)).toBe(true);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    // axe: the sweep checks the settings screen as it opens, as a buyer at 375 px dark.
    await snapshot(phone, "account-control-375-dark", { fullPage: true });

    const openDialog = async () => {
      await page.getByRole("button", { name: "Delete my account" }).click();
      const dialog = page.getByRole("alertdialog");
      await dialog.getByLabel("Your password").fill(password);
      await dialog.getByRole("button", { name: "Delete my account" }).click();
      return dialog;
    };
    const dialog = await openDialog();
    await dialog
      .getByRole("alert")
      .getByText(`Your order #${orderId.slice(0, 8).toUpperCase()} is still awaiting payment`)
      .waitFor();
    await snapshot(page, "account-control-refused-1280-light");
    await dialog.getByRole("button", { name: "Cancel" }).click();

    // The buyer cancels on the payment page; the order is settled as failed.
    const ref = new URL(redirectUrl).pathname.split("/").at(-1);
    expect(
      (
        await page.request.post(`/api/payments/test/sessions/${ref}/choice`, { data: { choice: "cancel" } })
      ).status(),
    ).toBe(200);
    await expect
      .poll(async () => (await (await page.request.get(`/api/orders/${orderId}`)).json()).order.paymentStatus)
      .toBe("failed");

    // The account gone, the app loads afresh at home (as signing out does): the screen being left must
    // not see the user vanish and send them to /login on the way out.
    const visited: string[] = [];
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
    });
    const deletion = page.waitForResponse(
      (r) => new URL(r.url()).pathname === "/api/me" && r.request().method() === "DELETE",
    );
    await openDialog();
    expect((await deletion).status()).toBe(204);
    await toast(page, "Account deleted", "Your account and personal data have been deleted.").waitFor();
    await page.waitForURL((url) => url.pathname === "/");
    expect(visited).not.toContain("/login");
    // Home opens at its top, not where the settings screen was left.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect((await (await page.request.get("/api/me")).json()).user).toBeNull();
    const login = await page.request.post("/api/auth/sign-in", { data: { email, password } });
    expect(login.status()).toBe(401);
  });
});
