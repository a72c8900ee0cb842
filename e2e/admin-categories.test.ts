import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { expectAccessible, setupBrowser, snapshot, toast } from "./browser";

const browser = setupBrowser();
const run = Date.now().toString(36);

async function openScreen(page: Page) {
  await page.goto("/admin/categories");
  await page.getByRole("heading", { level: 1, name: "Categories" }).waitFor();
  await page.getByTestId("category-row").first().waitFor();
}

const row = (page: Page, name: string) => page.getByTestId("category-row").filter({ hasText: name });

describe("admin categories", () => {
  test("an admin adds a category, sees it in the product filter, deletes it, and cannot delete one in use", async () => {
    const name = `Cloud Storage ${run}`;
    const slug = `cloud-storage-${run}`;
    // Deleting "SaaS Solutions" is refused by the server with 409; the browser logs that response.
    const page = await browser.newPage({ as: "admin", allowErrors: [/status of 409/] });
    await openScreen(page);
    // axe: the sweep checks this screen as it opens, at 1366 px light and 375 px dark.

    const field = page.getByLabel("Name");
    await field.fill(`${name}!`);
    await page.getByText(`Slug: ${slug}`).waitFor();
    await page.getByRole("button", { name: "Add Category" }).click();
    await toast(page, "Success", "Category created successfully").waitFor();
    expect(await field.inputValue()).toBe("");
    const added = row(page, slug);
    await added.waitFor();
    expect(await added.textContent()).toContain("0 products");
    // Newest first.
    expect(await page.getByTestId("category-row").first().textContent()).toContain(slug);
    await snapshot(page, "h2-categories-desktop", { fullPage: true });

    // The same name again: the server refuses it and the field says why.
    await field.fill(name);
    await page.getByRole("button", { name: "Add Category" }).click();
    await toast(
      page,
      "Failed to create category",
      `A category with the slug "${slug}" already exists`,
    ).waitFor();
    expect(await field.getAttribute("aria-invalid")).toBe("true");

    await page.goto("/products");
    await page.getByLabel("Category").locator(`option[value="${slug}"]`).waitFor({ state: "attached" });

    await openScreen(page);
    await row(page, slug)
      .getByRole("button", { name: `Delete ${name}!` })
      .click();
    const dialog = page.getByRole("alertdialog");
    await dialog.waitFor();
    expect(await dialog.textContent()).toMatch(/permanently delete the category .*cannot be undone/);
    await expectAccessible(page);
    await dialog.getByRole("button", { name: "Delete" }).click();
    await toast(page, "Success", "Category deleted successfully").waitFor();
    await row(page, slug).waitFor({ state: "detached" });

    const saas = row(page, "SaaS Solutions");
    const count = (await saas.textContent())?.match(/(\d+) products/)?.[1];
    expect(Number(count)).toBeGreaterThan(0);
    await saas.getByRole("button", { name: "Delete SaaS Solutions" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await toast(
      page,
      "Failed to delete category",
      `This category still has ${count} products. Move them to another category first.`,
    ).waitFor();
    expect(await saas.isVisible()).toBe(true);
  });

  test("on a 375 px phone the screen fits and the list scrolls inside its own area; the form says what is wrong", async () => {
    const page = await browser.newPage({ as: "admin", width: 375, height: 812 });
    await openScreen(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const region = page.getByRole("region", { name: "Category list" });
    expect(await region.evaluate((el) => getComputedStyle(el).overflowY)).toBe("auto");
    expect(await region.evaluate((el) => el.clientHeight)).toBeLessThanOrEqual(384 + 2);

    await page.getByRole("button", { name: "Add Category" }).click();
    await page.getByText("Category name is required").waitFor();
    await page.getByLabel("Name").fill("!!!");
    await page.getByRole("button", { name: "Add Category" }).click();
    await page.getByText("Category name must contain at least one letter or digit").waitFor();
    await expectAccessible(page);
    await snapshot(page, "h2-categories-mobile", { fullPage: true });
  });

  test("in the dark theme the screen opens", async () => {
    const page = await browser.newPage({ as: "admin", theme: "dark" });
    await openScreen(page);
    // axe: the sweep checks this screen as it opens, dark at 375 px.
    await snapshot(page, "h2-categories-dark");
  });

  test("a buyer is not let in", async () => {
    const page = await browser.newPage({ as: "buyer" });
    await page.goto("/admin/categories");
    await page.getByRole("heading", { name: "Unauthorized Access" }).waitFor();
    expect(await page.getByRole("button", { name: "Add Category" }).count()).toBe(0);
  });
});
