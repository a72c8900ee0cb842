import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { demoProductId } from "#server/db/seed/demo";
import { type DemoAccount, setupBrowser } from "./browser";

const browser = setupBrowser();

/** The accessible name of whatever has focus: its label, or its text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return "";
    const labelled = el.getAttribute("aria-labelledby");
    const label = labelled
      ? document.getElementById(labelled)?.textContent
      : (el as HTMLInputElement).labels?.[0]?.textContent;
    return (el.getAttribute("aria-label") ?? label ?? el.textContent ?? "").trim();
  });

/** The names of the first `count` Tab stops. */
async function tabStops(page: Page, count: number) {
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    await page.keyboard.press("Tab");
    names.push(await focused(page));
  }
  return names;
}

describe("keyboard", () => {
  test("from a fresh load of home and of a product page, the first Tab is the skip link and the header's controls follow within 10", async () => {
    for (const path of ["/", `/products/${demoProductId("nimbus-crm-pro")}`]) {
      const page = await browser.newPage();
      await page.goto(path);
      await page.getByRole("link", { name: "Login" }).waitFor();
      const stops = await tabStops(page, 10);
      expect(stops[0], path).toBe("Skip to content");
      expect(stops[1], path).toBe("Stackbay");
      expect(stops, path).toContain("Cart, 0 items");
      expect(stops, path).toContain("Login");
      expect(stops, path).toContain("Display currency");
    }
  });

  test("after following a link, focus returns to the top of the new page, not past the navigation", async () => {
    const page = await browser.newPage();
    await page.goto("/");
    await page.getByRole("link", { name: "Login" }).waitFor();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "FAQ" }).click();
    await page.waitForURL((url) => url.pathname === "/faq");
    // The page's start is focused and names the page for screen readers.
    await expect
      .poll(() => page.getByTestId("page-start").evaluate((el) => el === document.activeElement))
      .toBe(true);
    expect(await page.getByTestId("page-start").textContent()).toContain("Frequently Asked Questions");
    expect(await tabStops(page, 1)).toEqual(["Skip to content"]);
    // The skip link jumps past the header to the content.
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("main");
  });

  test("between phone and desktop widths every header action is in the header or in the menu, and nothing scrolls sideways", async () => {
    const actions: Record<"visitor" | DemoAccount, string[]> = {
      visitor: ["Login", "Sign Up"],
      buyer: ["Dashboard", "Log out"],
      seller: ["Dashboard", "Log out"],
      reseller: ["Dashboard", "Log out"],
      admin: ["Dashboard", "Admin Panel", "Log out"],
      superadmin: ["Dashboard", "Admin Panel", "Log out"],
    };
    for (const who of ["visitor", "admin"] as const) {
      const page = await browser.newPage({ as: who === "visitor" ? undefined : who });
      await page.goto("/");
      await page.getByRole("heading", { level: 1 }).first().waitFor();
      for (const width of [768, 900, 1024, 1100, 1280, 1366]) {
        await page.setViewportSize({ width, height: 800 });
        const header = page.getByTestId("navbar");
        await header.getByRole("link", { name: "Stackbay" }).waitFor();
        const toggle = page.getByTestId("mobile-menu-toggle");
        const inMenu = await toggle.isVisible();
        if (inMenu) await toggle.click();
        const where = inMenu ? page.getByTestId("mobile-menu") : header;
        for (const name of actions[who]) {
          const action = where.getByRole(name === "Log out" ? "button" : "link", { name, exact: true });
          await action.waitFor();
          const box = await action.boundingBox();
          expect(box && box.x >= 0 && box.x + box.width <= width, `${who} ${name} at ${width}`).toBe(true);
        }
        if (inMenu) await toggle.click();
        const sideways = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(sideways, `${who} at ${width}`).toBeLessThanOrEqual(0);
      }
    }
  });
});
