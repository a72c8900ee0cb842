import { createHmac } from "node:crypto";
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { readOutbox } from "#server/test/outbox";
import { dataDir, expectAccessible, setupBrowser, submitLogin } from "./browser";

const browser = setupBrowser();

// Sign-ups, sign-ins and code requests are rate-limited per client IP, so the file makes few of them:
// two new accounts (one verified through the whole journey, one left unverified) and six logins.
const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const journeyEmail = `journey-${run}@example.com`;
const unverifiedEmail = `unverified-${run}@example.com`;
const password = "first-password-1";
const demoPassword = "stackbay-demo";

const toast = (page: Page, title: string, description?: string) => {
  const found = page
    .locator("[data-sonner-toast]")
    .filter({ has: page.locator("[data-title]", { hasText: title }) });
  // A toast from an earlier step of the same journey may still be on screen: any match will do.
  return (description ? found.filter({ hasText: description }) : found).first();
};

const path = (page: Page) => new URL(page.url()).pathname;

/** The codes mailed to `email` with `subject`, oldest first, read from the server's outbox. */
async function mailedCodes(email: string, subject: string) {
  return (await readOutbox(dataDir()))
    .filter((mail) => mail.to.includes(email) && mail.subject === subject)
    .map((mail) => mail.body.match(/^\s*(\d{6})\s*$/m)?.[1])
    .filter((code): code is string => Boolean(code));
}

/** Waits for mail number `count` and answers its code. */
async function nthCode(email: string, subject: string, count: number) {
  await expect.poll(async () => (await mailedCodes(email, subject)).length, { timeout: 10_000 }).toBe(count);
  return (await mailedCodes(email, subject)).at(-1)!;
}

async function signUp(page: Page, email: string, accountType: "buyer" | "seller" = "buyer") {
  await page.goto("/signup");
  await page.getByLabel("First name").fill("Ada");
  await page.getByLabel("Last name").fill("Journey");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Account type").selectOption(accountType);
  await page.getByRole("button", { name: "Create Account" }).click();
  await toast(
    page,
    "Verification Code Sent",
    "Please check your email for the 6-digit verification code.",
  ).waitFor();
  await page.waitForURL("**/verify");
  await page.getByRole("heading", { level: 1, name: "Verify Your Email" }).waitFor();
}

async function logIn(page: Page, email: string, secret: string) {
  await submitLogin(page, email, secret);
}

/** The current RFC 6238 code (SHA-1, 30 s, 6 digits) for a base32 secret, as an authenticator app shows it. */
function totp(secret: string) {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const bits = [...secret.replace(/=+$/, "").toUpperCase()]
    .map((c) => alphabet.indexOf(c).toString(2).padStart(5, "0"))
    .join("");
  const key = Buffer.from(bits.match(/.{8}/g)!.map((byte) => Number.parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000)));
  const hash = createHmac("sha1", key).update(counter).digest();
  const offset = hash[hash.length - 1]! & 0xf;
  return String((hash.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

/** A JSON POST from inside the page, so it carries the session cookie and the page's origin. */
async function postFromPage<T>(page: Page, endpoint: string, body: unknown): Promise<T> {
  return page.evaluate(
    async ([url, data]) => {
      const response = await fetch(`/api${url}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(data),
      });
      if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
      return response.json();
    },
    [endpoint, body] as const,
  );
}

/** Refusals the tests provoke on purpose: Chromium logs every 4xx answer as a console error. */
const refused = (...statuses: number[]) => ({
  allowErrors: [new RegExp(`status of (${statuses.join("|")})`)],
});

const nav = (page: Page) => page.getByRole("navigation", { name: "Main" });

describe("sign-up", () => {
  test("an empty form reports the first problem as a toast and every field inline", async () => {
    const page = await browser.newPage({ width: 375, height: 812 });
    await page.goto("/signup");
    await page.getByRole("heading", { level: 1, name: /Join/ }).waitFor();
    expect(await page.title()).toBe("Sign Up | Stackbay");
    expect(await page.getByLabel("Account type").inputValue()).toBe("buyer");
    await page.getByRole("button", { name: "Create Account" }).click();
    await toast(page, "Validation Error", "First name is required").waitFor();
    expect(await page.getByLabel("First name").getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByLabel("Password", { exact: true }).getAttribute("aria-invalid")).toBe("true");

    await page.getByLabel("First name").fill("Ada");
    await page.getByLabel("Last name").fill("Lovelace");
    await page.getByLabel("E-mail").fill("not-an-address");
    await page.getByRole("button", { name: "Create Account" }).click();
    await toast(page, "Validation Error", "Please enter a valid email address").waitFor();
    expect(await page.getByRole("link", { name: "Log in" }).getAttribute("href")).toBe("/login");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectAccessible(page);
  });
});

describe("verification before login", () => {
  test("sign-up lands on /verify with a running countdown and a resend cooldown the server agrees with", async () => {
    const page = await browser.newPage({ width: 375, height: 812, ...refused(429) });
    await page.clock.install();
    await signUp(page, unverifiedEmail, "seller");
    expect(await page.getByLabel("E-mail").inputValue()).toBe(unverifiedEmail);
    expect(await page.getByTestId("countdown").textContent()).toBe("10:00");
    const code = page.getByLabel("Verification code");
    expect(await code.getAttribute("inputmode")).toBe("numeric");
    expect(await code.getAttribute("autocomplete")).toBe("one-time-code");
    const resend = page.getByRole("button", { name: /^Resend Code/ });
    expect(await resend.isDisabled()).toBe(true);
    expect(await resend.textContent()).toMatch(/^Resend Code \((60|59)s\)$/);
    expect(await page.getByRole("button", { name: "Verify Email" }).isDisabled()).toBe(true);

    await page.clock.fastForward("00:30");
    await expect.poll(() => page.getByTestId("countdown").textContent()).toMatch(/^9:(30|2\d)$/);
    expect(await resend.isDisabled()).toBe(true);
    await page.clock.fastForward("00:31");
    await expect.poll(() => resend.isEnabled()).toBe(true);
    expect(await resend.textContent()).toBe("Resend Code");

    // Only seconds have passed for the server, so it refuses and the button waits as long as it says.
    await resend.click();
    await toast(page, "Please Wait", "You can resend the code in").waitFor();
    const text = await toast(page, "Please Wait").textContent();
    const seconds = Number(text?.match(/in (\d+) seconds/)?.[1]);
    expect(seconds).toBeGreaterThan(30);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(await resend.isDisabled()).toBe(true);
    expect(await resend.textContent()).toMatch(/^Resend Code \(\d+s\)$/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectAccessible(page);
  });

  test("logging in before verifying is refused with a way to the verify screen", async () => {
    const page = await browser.newPage(refused(403));
    await page.goto("/login");
    await logIn(page, unverifiedEmail, password);
    await toast(
      page,
      "Email Not Verified",
      "Please verify your email before logging in. Check your inbox for the verification code.",
    ).waitFor();
    await page.getByRole("status").getByRole("link", { name: "Enter verification code" }).click();
    await page.waitForURL("**/verify");
    expect(await page.getByLabel("E-mail").inputValue()).toBe(unverifiedEmail);
    // Arriving from login sends no code, so a new one can be asked for at once.
    expect(await page.getByRole("button", { name: "Resend Code" }).isEnabled()).toBe(true);
  });
});

describe("login", () => {
  test("a wrong password shows 'Login Failed'; the screens link to each other and pass axe", async () => {
    const page = await browser.newPage({ theme: "dark", ...refused(401) });
    await page.goto("/login");
    await page.getByRole("heading", { level: 1, name: "Welcome Back" }).waitFor();
    expect(await page.title()).toBe("Log In | Stackbay");
    await page.getByRole("button", { name: "Log In" }).click();
    await page.getByText("Email is required").waitFor();
    await logIn(page, "buyer@stackbay.test", "not-the-password");
    await toast(page, "Login Failed", "Invalid email or password.").waitFor();
    expect(path(page)).toBe("/login");
    const card = page.locator("main");
    expect(await card.getByRole("link", { name: "Sign up" }).getAttribute("href")).toBe("/signup");
    expect(await card.getByRole("link", { name: "Verify your email" }).getAttribute("href")).toBe("/verify");
    await expectAccessible(page);

    await card.getByRole("link", { name: "Forgot password?" }).click();
    await page.getByRole("heading", { level: 1, name: "Forgot your password?" }).waitFor();
    expect(await page.title()).toBe("Forgot Password | Stackbay");
    // axe: the sweep checks this screen as it opens (1366 px light, 375 px dark).

    // Back to login and on to the verify screen by their links, as a person goes.
    await page.getByRole("link", { name: "Back to login" }).click();
    await page.getByRole("heading", { level: 1, name: "Welcome Back" }).waitFor();
    await card.getByRole("link", { name: "Verify your email" }).click();
    await page.getByRole("heading", { level: 1, name: "Verify Your Email" }).waitFor();
    await page.getByText("Enter your email address first").waitFor();
    await page.getByRole("button", { name: "Resend Code" }).click();
    await toast(page, "Email Required", "Please enter your email address.").waitFor();
    expect(await page.getByRole("link", { name: "Back to Sign Up" }).getAttribute("href")).toBe("/signup");
    await expectAccessible(page);
  });

  test("guards: a visitor is sent to /login and back; a buyer cannot open admin screens; logout on a phone", async () => {
    const page = await browser.newPage();
    await page.goto("/dashboard/saved");
    await page.waitForURL("**/login");
    await logIn(page, "buyer@stackbay.test", demoPassword);
    await toast(page, "Welcome back!", "Successfully logged in").waitFor();
    await expect.poll(() => path(page)).toBe("/dashboard/saved");
    await nav(page).getByRole("button", { name: "Log out" }).waitFor();
    expect(await nav(page).getByRole("link", { name: "Admin Panel" }).count()).toBe(0);

    await page.goto("/admin/products");
    await page.getByRole("heading", { name: "Unauthorized Access" }).waitFor();
    const back = page.locator("main").getByRole("link", { name: "Go to Dashboard" });
    expect(await back.getAttribute("href")).toBe("/dashboard");

    await page.setViewportSize({ width: 375, height: 812 });
    await page.getByTestId("mobile-menu-toggle").click();
    const menu = page.getByTestId("mobile-menu");
    await menu.getByRole("link", { name: "Dashboard" }).waitFor();
    await menu.getByRole("button", { name: "Log out" }).click();
    await expect.poll(() => path(page)).toBe("/");
    await page.getByTestId("mobile-menu-toggle").click();
    await page.getByTestId("mobile-menu").getByRole("link", { name: "Login" }).waitFor();
    const me = await page.evaluate(() => fetch("/api/me").then((r) => r.json()));
    expect(me.user).toBeNull();
  });
});

describe("the whole journey", () => {
  test("sign up, verify with the mailed code, log in, log out, reset the password, turn on two-factor", async () => {
    const page = await browser.newPage(refused(400, 401));
    await signUp(page, journeyEmail);
    expect(await page.getByLabel("E-mail").inputValue()).toBe(journeyEmail);
    expect(await page.getByTestId("countdown").textContent()).toMatch(/^(10:00|9:5\d)$/);
    const code = await nthCode(journeyEmail, "Verify your email for Stackbay", 1);
    await page.getByLabel("Verification code").fill(code);
    await page.getByRole("button", { name: "Verify Email" }).click();
    // In the browser that signed up, the code also signs in (decision 0003).
    await toast(page, "Email Verified!", "Your email has been verified. Welcome to Stackbay!").waitFor();
    await page.waitForURL("**/dashboard");
    await nav(page).getByRole("button", { name: "Log out" }).click();
    await nav(page).getByRole("link", { name: "Login" }).click();
    await logIn(page, journeyEmail, password);
    await toast(page, "Welcome back!").waitFor();
    await expect.poll(() => path(page)).toBe("/");
    await nav(page).getByRole("link", { name: "Dashboard" }).waitFor();
    expect(await nav(page).getByRole("link", { name: "Login" }).count()).toBe(0);
    await nav(page).getByRole("button", { name: "Log out" }).click();
    await nav(page).getByRole("link", { name: "Login" }).waitFor();
    expect(await nav(page).getByRole("button", { name: "Log out" }).count()).toBe(0);

    // Forgotten password: a code by e-mail, a new password, then log in with it.
    await nav(page).getByRole("link", { name: "Login" }).click();
    await page.getByRole("link", { name: "Forgot password?" }).click();
    // The screen loads lazily; until its heading shows, "E-mail" is still the login form's field.
    await page.getByRole("heading", { level: 1, name: "Forgot your password?" }).waitFor();
    await page.getByLabel("E-mail").fill(journeyEmail);
    await page.getByRole("button", { name: "Send Code" }).click();
    await toast(
      page,
      "Check your email",
      "If an account exists for that address, we sent a 6-digit code.",
    ).waitFor();
    const resetCode = await nthCode(journeyEmail, "Your Stackbay password reset code", 1);
    await page.getByLabel("Verification code").fill(resetCode === "000000" ? "111111" : "000000");
    await page.getByLabel("New password").fill("second-password-2");
    await page.getByRole("button", { name: "Change Password" }).click();
    await toast(page, "Invalid Code", "The verification code is incorrect or has expired.").waitFor();
    await page.getByLabel("Verification code").fill(resetCode);
    await page.getByRole("button", { name: "Change Password" }).click();
    await page.waitForURL("**/login");
    await toast(page, "Password changed. Please log in.").waitFor();
    await page.getByLabel("Password", { exact: true }).fill("second-password-2");
    await page.getByRole("button", { name: "Log In" }).click();
    await toast(page, "Welcome back!").waitFor();
    await nav(page).getByRole("button", { name: "Log out" }).waitFor();

    // Two-factor on (set up through the API, as the dashboard would), then the login's second step.
    const setup = await postFromPage<{ secret: string; backupCodes: string[] }>(
      page,
      "/me/two-factor/enable",
      { password: "second-password-2" },
    );
    await postFromPage(page, "/me/two-factor/confirm", { code: totp(setup.secret) });
    await nav(page).getByRole("button", { name: "Log out" }).click();
    await nav(page).getByRole("link", { name: "Login" }).click();
    await page.getByRole("heading", { level: 1, name: "Welcome Back" }).waitFor();
    await logIn(page, journeyEmail, "second-password-2");
    await page.getByRole("heading", { level: 1, name: "Two-factor authentication" }).waitFor();
    const secondStep = page.getByLabel("Authentication code");
    expect(await secondStep.evaluate((input) => input === document.activeElement)).toBe(true);
    await secondStep.fill(totp(setup.secret) === "000000" ? "111111" : "000000");
    await page.getByRole("button", { name: "Verify", exact: true }).click();
    await toast(page, "Invalid Code", "That code is not valid").waitFor();
    await expectAccessible(page);
    await secondStep.fill(setup.backupCodes[0]!);
    await page.getByLabel("Trust this device for 30 days").check();
    await page.getByRole("button", { name: "Verify", exact: true }).click();
    await toast(page, "Welcome back!").waitFor();
    await expect.poll(() => path(page)).toBe("/");
    await nav(page).getByRole("button", { name: "Log out" }).waitFor();
  });
});

describe("code timing", () => {
  test("resend gives a fresh 10:00 and clears the entry; at 10:00 elapsed the code is expired", async () => {
    // An address without an account: the server answers exactly as for a real one (so addresses cannot
    // be probed) and has sent it nothing yet, so there is no server cooldown to wait out.
    const page = await browser.newPage();
    await page.clock.install();
    await page.goto("/verify");
    const code = page.getByLabel("Verification code");
    await code.pressSequentially("12ab-34");
    expect(await code.inputValue()).toBe("1234");
    expect(await page.getByRole("button", { name: "Verify Email" }).isDisabled()).toBe(true);
    await page.getByLabel("E-mail").fill(`nobody-${run}@example.com`);
    await page.clock.fastForward("02:00");
    await expect.poll(() => page.getByTestId("countdown").textContent()).toMatch(/^(8:00|7:5\d)$/);

    const resend = page.getByRole("button", { name: /^Resend Code/ });
    await resend.click();
    await toast(page, "Code Resent", "A new verification code has been sent to your email.").waitFor();
    expect(await page.getByTestId("countdown").textContent()).toMatch(/^(10:00|9:5\d)$/);
    expect(await code.inputValue()).toBe("");
    expect(await resend.isDisabled()).toBe(true);
    await code.fill("123456");
    expect(await page.getByRole("button", { name: "Verify Email" }).isEnabled()).toBe(true);

    await page.clock.fastForward("10:00");
    await page.getByText("Code has expired").waitFor();
    await page.getByText("Code expired - please go back and sign up again").waitFor();
    expect(await code.isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Verify Email" }).isDisabled()).toBe(true);
    expect(await resend.isEnabled()).toBe(true);
  });
});
