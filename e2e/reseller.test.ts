import type { Locator, Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { expectAccessible, setupBrowser, snapshot, toast } from "./browser";

const browser = setupBrowser();

const heading = (page: Page) => page.getByRole("heading", { level: 2, name: "Reseller links" });
const rows = (page: Page) => page.getByTestId("reseller-link-row");
/** A cell's text; a missing element fails instead of reading as empty. */
async function textOf(locator: Locator) {
  const text = await locator.textContent();
  if (text === null) throw new Error(`no text in ${locator}`);
  return text.trim();
}
const clicksOf = async (page: Page, name: string) =>
  Number(
    await textOf(
      rows(page)
        .filter({ has: page.getByRole("link", { name, exact: true }) })
        .getByTestId("reseller-link-clicks"),
    ),
  );

describe("reseller links", () => {
  test("a reseller copies a product link; a visitor follows it and the click is counted", async () => {
    const page = await browser.newPage({ as: "reseller" });
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.goto("/dashboard/reseller");
    await heading(page).waitFor();
    await rows(page).first().waitFor();
    await page.getByText("Commission stays pending for 14 days after the order").waitFor();
    // axe: the sweep checks this view as it opens, as the reseller at 1366 px light and 375 px dark.
    await snapshot(page, "h6-reseller-desktop");

    // The last product of the list, so a journey that follows the first product's link does not share
    // this visitor's one click a day.
    const row = rows(page).last();
    const name = await textOf(row.getByRole("link").first());
    const link = await textOf(row.getByTestId("reseller-link"));
    expect(link).toMatch(/\/products\/[0-9a-f-]{36}\?ref=[a-z0-9]{10}$/);
    const before = await clicksOf(page, name);
    const totalBefore = Number(await textOf(page.getByTestId("reseller-total-clicks")));

    await row.getByRole("button", { name: `Copy link for ${name}` }).click();
    await toast(page, "Link copied", name).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

    // A fresh browser follows the link (the server's PUBLIC_URL is not this test server's address).
    const visitor = await browser.newPage();
    const { pathname, search } = new URL(link);
    const answered = visitor.waitForResponse((res) => res.url().endsWith("/api/referrals/visit"));
    await visitor.goto(`${pathname}${search}`);
    await visitor.getByRole("heading", { level: 1, name }).waitFor();
    expect(await (await answered).json()).toEqual({ counted: true });
    await visitor.getByRole("button", { name: "Add to cart", exact: true }).waitFor();
    const cookies = await visitor.context().cookies();
    expect(cookies.find((c) => c.name === "stackbay_ref")).toMatchObject({ httpOnly: true, sameSite: "Lax" });

    await page.reload();
    await heading(page).waitFor();
    await rows(page).first().waitFor();
    expect(await clicksOf(page, name)).toBe(before + 1);
    expect(Number(await textOf(page.getByTestId("reseller-total-clicks")))).toBe(totalBefore + 1);
  });

  test("the view works on a phone and in dark mode", async () => {
    const page = await browser.newPage({ as: "reseller", width: 375, height: 812, theme: "dark" });
    await page.goto("/dashboard/reseller");
    await heading(page).waitFor();
    await rows(page).first().waitFor();
    // axe: the sweep checks this view as it opens, as the reseller at 375 px dark.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    await page.getByText("Commission stays pending").scrollIntoViewIfNeeded();
    await snapshot(page, "h6-reseller-phone");
  });

  test("an account without reseller rights is pointed to the Partner page", async () => {
    const page = await browser.newPage({ as: "buyer" });
    await page.goto("/dashboard/reseller");
    await heading(page).waitFor();
    await page.getByRole("heading", { name: "Become a reseller" }).waitFor();
    expect(await page.getByRole("link", { name: "Apply on the Partner page" }).getAttribute("href")).toBe(
      "/partner",
    );
    await expectAccessible(page);
    await snapshot(page, "h6-reseller-none");
  });
});
