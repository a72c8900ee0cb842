import { describe, expect, test } from "vitest";
import { holdRequests, seriousViolations, setupBrowser } from "./browser";

const browser = setupBrowser();

describe("app shell", () => {
  test("home shows the nav, hero, stats and footer", async () => {
    const page = await browser.newPage();
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    await expect
      .poll(() => page.getByRole("heading", { level: 1, name: "Welcome to Stackbay" }).isVisible())
      .toBe(true);
    const nav = page.getByRole("navigation", { name: "Main" });
    // Login and Sign Up appear once the app knows nobody is signed in: waited for, not sampled.
    for (const link of ["Products", "About", "Partner", "FAQ", "Login", "Sign Up"]) {
      await nav.getByRole("link", { name: link, exact: true }).waitFor();
    }
    await page.getByText("Active Products").waitFor();
    expect(await page.getByTestId("footer").getByRole("link", { name: "Terms of Service" }).isVisible()).toBe(
      true,
    );
  });

  test("the accessibility check fails a page with unreadable text and an unlabelled image", async () => {
    const page = await browser.newPage();
    await page.goto("/");
    await page.evaluate(() => {
      document.body.insertAdjacentHTML(
        "beforeend",
        '<p style="color:#777;background:#888">faint</p><img src="/favicon.svg">',
      );
    });
    const found = (await seriousViolations(page)).map((violation) => violation.split(":")[0]);
    expect(found).toEqual(expect.arrayContaining(["color-contrast", "image-alt"]));
  });

  test("the theme switch persists across reloads and the stored theme applies before the app runs", async () => {
    const page = await browser.newPage();
    await page.goto("/");
    await page.getByTestId("theme-toggle").first().click();
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("dark");
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);

    // Hold the app's JavaScript back: the page must already be dark before the app runs.
    const release = await holdRequests(page, "**/assets/*.js");
    // Module scripts are deferred: the document is parsed ("interactive") before they run.
    await page.reload({ waitUntil: "commit" });
    await page.waitForFunction(() => document.readyState !== "loading");
    // The page is there, drawn by the server, but the app has not taken it over.
    const early = await page.evaluate(() => ({
      dark: document.documentElement.classList.contains("dark"),
      drawn: (document.getElementById("root")?.childElementCount ?? 0) > 0,
      hydrated: !document.querySelector("#root[data-ssr]"),
    }));
    release();
    expect(early).toEqual({ dark: true, drawn: true, hydrated: false });
    await page.waitForFunction(() => !document.querySelector("#root[data-ssr]"));
    await page.getByTestId("theme-toggle").first().click();
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("light");
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(false);
  });

  test("the nav changes style after scrolling more than 10 px", async () => {
    const page = await browser.newPage({ height: 600 });
    await page.goto("/");
    const nav = page.getByTestId("navbar");
    await expect.poll(() => nav.getAttribute("data-scrolled")).toBe("false");
    await page.mouse.wheel(0, 400);
    await expect.poll(() => nav.getAttribute("data-scrolled")).toBe("true");
  });

  test("on a 375 px phone the menu toggle reveals links, cart, currency, theme and auth links", async () => {
    const page = await browser.newPage({ width: 375, height: 740 });
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" });
    expect(await nav.getByRole("link", { name: "Products", exact: true }).isVisible()).toBe(false);
    const toggle = page.getByTestId("mobile-menu-toggle");
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    await toggle.click();
    const menu = page.getByTestId("mobile-menu");
    for (const link of ["Products", "About", "Partner", "FAQ", "Login", "Sign Up"]) {
      await menu.getByRole("link", { name: link, exact: true }).waitFor();
    }
    expect(await menu.getByText("Cart (0)").isVisible()).toBe(true);
    expect(await menu.getByLabel("Display currency").isVisible()).toBe(true);
    expect(await menu.getByTestId("theme-toggle").isVisible()).toBe(true);
    // No horizontal scrolling on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await menu.getByRole("link", { name: "FAQ", exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/faq");
    await expect.poll(() => page.getByTestId("mobile-menu").count()).toBe(0);
    // axe: the sweep checks the FAQ as it opens, at 375 px dark and 1366 px light.
  });

  test("the currency picker switches the display currency and says so", async () => {
    const page = await browser.newPage();
    await page.goto("/");
    const picker = page.locator("#currency-picker");
    expect(await picker.inputValue()).toBe("USD");
    await picker.selectOption("EUR");
    await expect.poll(() => page.getByText("Currency Changed").isVisible()).toBe(true);
    expect(await page.getByText("Switched to Euro (€)").isVisible()).toBe(true);
    expect(await page.getByTestId("currency-note").textContent()).toContain("Euro");
    await page.reload();
    await page.getByTestId("currency-note").waitFor();
    expect(await picker.inputValue()).toBe("EUR");
  });

  test("the footer newsletter form checks the address and subscribes for real", async () => {
    const page = await browser.newPage();
    await page.goto("/");
    const footer = page.getByTestId("footer");
    // The form's code loads when the footer comes near, as it does for a person scrolling down.
    await footer.scrollIntoViewIfNeeded();
    const field = footer.getByLabel("Get deals and product news");
    await field.fill("not-an-email");
    await footer.getByRole("button", { name: "Subscribe" }).click();
    await footer.getByText("Please enter a valid email address").waitFor();
    expect(await field.getAttribute("aria-invalid")).toBe("true");
    await field.fill("journey@example.com");
    await footer.getByRole("button", { name: "Subscribe" }).click();
    await page.getByText("Thank you for subscribing!").waitFor();
    expect(await field.inputValue()).toBe("");
  });
});
