import { afterAll, describe, expect, test } from "vitest";
import { contentBlockRegistry } from "#domain/content-blocks";
import { expectAccessible, setupBrowser, snapshot, toast } from "./browser";

const browser = setupBrowser();
const run = Date.now().toString(36);
const original = contentBlockRegistry["home.hero.title"].defaultText;
const heroBlock = () => browser.newPage({ as: "admin" });

/** Puts the hero title back whatever happened, since other journeys check the home page. */
async function restoreHeroTitle() {
  const admin = await heroBlock();
  const res = await admin.request.put("/api/admin/content-blocks/home.hero.title", {
    data: { content: original },
  });
  expect(res.status()).toBe(200);
}

describe("admin content blocks", () => {
  afterAll(restoreHeroTitle);

  test("an admin edits the home hero title and a visitor sees it; Save appears only after a change", async () => {
    const admin = await browser.newPage({ as: "admin" });
    await admin.goto("/admin/content");
    await admin.getByRole("heading", { level: 1, name: "Content Blocks" }).waitFor();
    const card = admin.locator('[data-testid="content-block"][data-key="home.hero.title"]');
    await card.waitFor();
    // Blocks nobody saved yet are listed too, with their built-in text.
    const instant = admin.locator('[data-testid="content-block"][data-key="home.values.instant"]');
    expect(await instant.getByRole("textbox").inputValue()).toBe(
      contentBlockRegistry["home.values.instant"].defaultText,
    );
    // axe: the sweep checks this screen as it opens, at 1366 px light and 375 px dark.
    await snapshot(admin, "h3-content-blocks", { fullPage: true });

    const field = card.getByRole("textbox", { name: "Home: hero title" });
    expect(await field.inputValue()).toBe(original);
    expect(await card.getByRole("button", { name: /^Save/ }).count()).toBe(0);
    const next = `Welcome to Stackbay ${run}`;
    await field.fill(next);
    await card.getByRole("button", { name: /^Save/ }).waitFor();
    await expectAccessible(admin);

    // Cancel puts the saved text back and hides the buttons.
    await card.getByRole("button", { name: /^Cancel/ }).click();
    expect(await field.inputValue()).toBe(original);
    expect(await card.getByRole("button", { name: /^Save/ }).count()).toBe(0);

    await field.fill(next);
    await card.getByRole("button", { name: /^Save/ }).click();
    await toast(admin, "Success", "Content block updated successfully!").waitFor();
    await card.getByRole("button", { name: /^Save/ }).waitFor({ state: "detached" });
    expect(await field.inputValue()).toBe(next);

    // The admin's own home page shows it at once (the public texts were refreshed)...
    await admin.getByRole("link", { name: "Stackbay" }).first().click();
    await admin.getByRole("heading", { level: 1, name: next }).waitFor();
    // ...and so does a visitor's.
    const visitor = await browser.newPage();
    await visitor.goto("/");
    await visitor.getByRole("heading", { level: 1, name: next }).waitFor();
  });

  test("search by key is kept in the URL; no match says so; on a dark phone the cards fit", async () => {
    const admin = await browser.newPage({ as: "admin", width: 375, height: 812, theme: "dark" });
    await admin.goto("/admin/content?search=footer");
    await admin.getByRole("heading", { level: 1, name: "Content Blocks" }).waitFor();
    await expect
      .poll(() => admin.getByTestId("content-block").evaluateAll((cards) => cards.map((c) => c.dataset.key)))
      .toEqual(["footer.tagline"]);
    const search = admin.getByRole("searchbox", { name: "Search content blocks by key" });
    expect(await search.inputValue()).toBe("footer");
    await search.fill("home.hero");
    await admin.waitForURL("**/admin/content?search=home.hero");
    await expect.poll(() => admin.getByTestId("content-block").count()).toBe(2);
    expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await snapshot(admin, "h3-content-blocks-375", { fullPage: true });
    await search.fill(`no-such-key-${run}`);
    await admin.getByText("No content blocks found.").waitFor();
    await expectAccessible(admin);
  });
});
