import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { expectAccessible, setupBrowser, snapshot, toast } from "./browser";

const browser = setupBrowser();

const card = (page: Page) => page.getByTestId("payout-method");

/** The dialog open on the page (Radix renders it in a portal). */
const dialog = (page: Page) => page.getByRole("alertdialog");

describe("payout method", () => {
  test("a seller adds a bank account (masked), then connects Stripe in test mode and completes onboarding", async () => {
    const page = await browser.newPage({ as: "seller" });
    await page.goto("/dashboard/wallet");
    await card(page).getByTestId("payout-empty").waitFor();
    // axe: the sweep checks the wallet as it opens, as the seller at 1366 px light and 375 px dark.

    // A bad IBAN is refused in the form, with the field's message.
    await card(page).getByRole("button", { name: "Add bank account" }).click();
    await dialog(page).getByLabel("Account holder").fill("Samir Seller");
    await dialog(page).getByLabel("Bank's country").selectOption("DE");
    await dialog(page).getByLabel("IBAN").fill("DE88 3704 0044 0532 0130 00");
    await dialog(page).getByLabel("SWIFT/BIC").fill("DEUTDEFF");
    await dialog(page).getByRole("button", { name: "Save bank account" }).click();
    await dialog(page).getByText("This IBAN is not valid").waitFor();
    await expectAccessible(page);
    // India asks for an account number and an IFSC instead.
    await dialog(page).getByLabel("Bank's country").selectOption("IN");
    expect(await dialog(page).getByLabel("Account number").isVisible()).toBe(true);
    expect(await dialog(page).getByLabel("IFSC code").isVisible()).toBe(true);
    await dialog(page).getByLabel("Bank's country").selectOption("DE");
    await dialog(page).getByLabel("IBAN").fill("DE89 3704 0044 0532 0130 00");
    await dialog(page).getByRole("button", { name: "Save bank account" }).click();
    await toast(page, "Payout method saved", "•••• 3000").waitFor();
    await dialog(page).waitFor({ state: "detached" });
    expect(await card(page).getByTestId("payout-bank-masked").textContent()).toBe("•••• 3000");
    expect(await page.content()).not.toContain("0532");
    for (const [width, theme] of [
      [375, "light"],
      [1280, "dark"],
    ] as const) {
      const shot = await browser.newPage({ as: "seller", width, height: 900, theme });
      await shot.goto("/dashboard/wallet");
      await card(shot).getByTestId("payout-bank-masked").waitFor();
      await snapshot(shot, `payout-bank-${width}-${theme}`, { fullPage: true });
      await expectAccessible(shot);
    }

    // Connect with Stripe: the country first, then Stripe's page (test mode's own).
    await card(page).getByRole("button", { name: "Connect with Stripe" }).click();
    await dialog(page).getByLabel("Country").selectOption("DE");
    await dialog(page).getByRole("button", { name: "Continue to Stripe" }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/pay/test/connect/acct_test_"));
    await page.getByTestId("test-connect").waitFor();
    // axe: the sweep checks this page as it opens, at 1366 px light and 375 px dark.
    await snapshot(page, "payout-test-connect-1280-light");
    await page.getByRole("button", { name: "Complete onboarding" }).click();
    await page.waitForURL((url) => url.pathname === "/dashboard/wallet");
    // The signed event arrives a moment after the redirect; the card shows what it last read.
    await expect
      .poll(
        async () => {
          await page.reload();
          await card(page).getByTestId("payout-stripe-status").waitFor();
          return card(page).getByTestId("payout-stripe-status").textContent();
        },
        { timeout: 10_000 },
      )
      .toBe("Enabled");
    expect(await card(page).getByRole("button", { name: "Continue onboarding" }).count()).toBe(0);
    for (const [width, theme] of [
      [375, "dark"],
      [1280, "light"],
    ] as const) {
      const shot = await browser.newPage({ as: "seller", width, height: 900, theme });
      await shot.goto("/dashboard/wallet");
      await card(shot).getByTestId("payout-stripe-status").waitFor();
      await snapshot(shot, `payout-stripe-${width}-${theme}`, { fullPage: true });
    }

    // Removed: back to the empty state.
    await card(page).getByRole("button", { name: "Remove" }).click();
    await dialog(page).getByRole("button", { name: "Remove" }).click();
    await toast(page, "Payout method removed").waitFor();
    await card(page).getByTestId("payout-empty").waitFor();
  });
});
