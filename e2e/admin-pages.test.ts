import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { formatDate } from "#domain/dates";
import { expectAccessible, setupBrowser, snapshot, toast } from "./browser";

const browser = setupBrowser();
const run = Date.now().toString(36);
const title = `Shipping Policy ${run}`;
const slug = `shipping-policy-${run}`;
// A visitor's load of a draft or missing page answers 404, which the browser logs.
const notFoundLoads = [/status of 404/];

/** The editor of `pageTitle`, from the list of pages the admin is on. */
async function openEditor(admin: Page, pageTitle: string) {
  await admin.getByRole("heading", { level: 1, name: "Pages" }).waitFor();
  const row = admin.getByTestId("admin-page-row").filter({ hasText: pageTitle });
  await row.getByRole("link", { name: /^Edit/ }).click();
  await admin.getByRole("heading", { level: 1, name: "Edit Page" }).waitFor();
  // The form holds the saved values once the page has loaded.
  await expect.poll(() => admin.getByLabel("Title", { exact: true }).inputValue()).toBe(pageTitle);
}

describe("admin content pages", () => {
  test("an admin drafts, publishes, renames and deletes a page; visitors see only the published one", async () => {
    const admin = await browser.newPage({ as: "admin" });
    await admin.goto("/admin/pages");
    await admin.getByRole("heading", { level: 1, name: "Pages" }).waitFor();
    await admin.getByTestId("admin-page-row").first().waitFor();
    // axe: the sweep checks this screen as it opens, at 1366 px light and 375 px dark.
    await snapshot(admin, "h3-pages-list", { fullPage: true });

    // Create a draft: the slug follows the title, Generate rebuilds it after a manual edit.
    await admin.getByRole("link", { name: "Add Page" }).click();
    await admin.getByRole("heading", { level: 1, name: "Add Page" }).waitFor();
    await admin.getByRole("button", { name: /^Create Page/ }).click();
    await admin.getByText("Title is required").waitFor();
    await admin.getByText("Slug is required").waitFor();
    await admin.getByText("Content is required").waitFor();
    await admin.getByLabel("Title", { exact: true }).fill(title);
    expect(await admin.getByLabel("Slug").inputValue()).toBe(slug);
    await admin.getByLabel("Slug").fill("Not Valid");
    await admin.getByText("Slug can only contain lowercase letters, numbers, and hyphens").waitFor();
    await admin.getByRole("button", { name: /^Generate/ }).click();
    expect(await admin.getByLabel("Slug").inputValue()).toBe(slug);
    await admin.getByRole("button", { name: "HTML source" }).click();
    await admin
      .getByRole("textbox", { name: "Content (HTML)" })
      .fill(
        `<h2>Delivery times</h2><p>Orders ship <strong>within 2 days</strong>.</p><script>window.pwned = 1</script>`,
      );
    await admin.getByLabel("SEO meta title").fill(`Shipping | ${run}`);
    await admin.getByLabel("SEO meta description").fill("When your order arrives.");
    await admin.getByLabel("OG image URL").fill("not a link");
    await admin.getByRole("button", { name: /^Create Page/ }).click();
    await admin.getByText("OG image URL must be a valid URL or empty").waitFor();
    await admin.getByLabel("OG image URL").fill("https://cdn.example.com/shipping.png");
    expect(await admin.getByRole("checkbox", { name: /Active \(published\)/ }).isChecked()).toBe(false);

    await admin.getByRole("tab", { name: "Preview" }).click();
    const preview = admin.frameLocator('[data-testid="page-preview"]');
    await preview.getByRole("heading", { name: "Delivery times" }).waitFor();
    await snapshot(admin, "h3-page-form-preview", { fullPage: true });
    await admin.getByRole("tab", { name: "Write" }).click();
    await expectAccessible(admin);
    await snapshot(admin, "h3-page-form", { fullPage: true });

    await admin.getByRole("button", { name: /^Create Page/ }).click();
    await toast(admin, "Success", "Page created successfully!").waitFor();
    await admin.waitForURL("**/admin/pages");
    const row = admin.getByTestId("admin-page-row").filter({ hasText: title });
    await row.waitFor();
    expect(await row.getByText("Inactive").isVisible()).toBe(true);
    expect(await row.locator("time").textContent()).toMatch(/just now|minute ago/);

    // A draft is not shown to visitors. One visitor follows the page: each of their later visits is a
    // load of the same address in the same tab.
    const visitor = await browser.newPage({ allowErrors: notFoundLoads });
    await visitor.goto(`/pages/${slug}`);
    await visitor.getByRole("heading", { level: 1, name: "Page Not Found" }).waitFor();
    await visitor.getByText("The page you're looking for doesn't exist or is currently inactive.").waitFor();
    await expectAccessible(visitor);

    // Publish it; the stored content lost its script.
    await openEditor(admin, title);
    await admin.getByRole("button", { name: "HTML source" }).click();
    expect(await admin.getByRole("textbox", { name: "Content (HTML)" }).inputValue()).toBe(
      "<h2>Delivery times</h2><p>Orders ship <strong>within 2 days</strong>.</p>",
    );
    await admin.getByRole("checkbox", { name: /Active \(published\)/ }).check();
    await admin.getByRole("button", { name: /^Save Changes/ }).click();
    await toast(admin, "Success", "Page updated successfully!").waitFor();
    await admin.waitForURL("**/admin/pages");
    await row.getByText("Active", { exact: true }).waitFor();

    const reader = visitor;
    await reader.reload();
    await reader.getByRole("heading", { level: 1, name: title }).waitFor();
    await reader.getByRole("heading", { level: 2, name: "Delivery times" }).waitFor();
    expect(await reader.getByTestId("page-updated").textContent()).toBe(
      `Last updated: ${formatDate(new Date())}`,
    );
    expect(await reader.title()).toBe(`Shipping | ${run}`);
    expect(await reader.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
    expect(await reader.locator('meta[property="og:image"]').first().getAttribute("content")).toBe(
      "https://cdn.example.com/shipping.png",
    );
    // axe: the sweep checks this screen (a published page) as it opens, at 1366 px light and 375 px dark.
    await snapshot(reader, "h3-content-page", { fullPage: true });
    // The same page on a phone: the tab narrowed to 375 px.
    const phone = visitor;
    await phone.setViewportSize({ width: 375, height: 800 });
    await phone.getByRole("heading", { level: 1, name: title }).waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await snapshot(phone, "h3-content-page-375", { fullPage: true });
    await phone.setViewportSize({ width: 1280, height: 800 });

    // Rename it: the next visit shows the new title.
    await openEditor(admin, title);
    await admin.getByLabel("Title", { exact: true }).fill(`${title} (updated)`);
    // Editing keeps the slug: the page's address does not change with its title.
    expect(await admin.getByLabel("Slug").inputValue()).toBe(slug);
    await admin.getByRole("button", { name: /^Save Changes/ }).click();
    // The publish's toast may still be up (its timer stops while the pointer rests on it), so the toast
    // alone does not say this save is done: the screen going back to the list, after the save, does. The
    // two toasts may then both be on screen.
    await admin.waitForURL("**/admin/pages");
    await toast(admin, "Success", "Page updated successfully!").first().waitFor();
    const again = visitor;
    await again.reload();
    await again.getByRole("heading", { level: 1, name: `${title} (updated)` }).waitFor();

    // Delete it from the list, after confirming.
    const renamed = admin.getByTestId("admin-page-row").filter({ hasText: `${title} (updated)` });
    await renamed.getByRole("button", { name: /^Delete/ }).click();
    const dialog = admin.getByRole("alertdialog");
    await dialog.getByText("Are you sure?").waitFor();
    await expectAccessible(admin);
    await dialog.getByRole("button", { name: "Delete" }).click();
    await toast(admin, "Success", "Page deleted successfully!").waitFor();
    await renamed.waitFor({ state: "detached" });
    const gone = visitor;
    await gone.reload();
    await gone.getByRole("heading", { level: 1, name: "Page Not Found" }).waitFor();
  });

  test("search is kept in the URL; a taken slug is marked on the field; on a dark phone the table scrolls inside", async () => {
    // The taken slug (409) and the unknown id (404) are answers the browser logs.
    const admin = await browser.newPage({
      as: "admin",
      width: 375,
      height: 812,
      theme: "dark",
      allowErrors: [/status of 409/, /status of 404/],
    });
    await admin.goto("/admin/pages");
    await admin.getByRole("heading", { level: 1, name: "Pages" }).waitFor();
    await admin.getByRole("searchbox", { name: "Search pages by title or slug" }).fill("buyer-prot");
    await admin.waitForURL("**/admin/pages?search=buyer-prot");
    await expect
      .poll(() => admin.getByTestId("admin-page-row").allTextContents())
      .toEqual([expect.stringContaining("Buyer Protection")]);
    expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectAccessible(admin);
    await snapshot(admin, "h3-pages-list-375", { fullPage: true });
    await admin.getByRole("searchbox", { name: "Search pages by title or slug" }).fill(`nothing-${run}`);
    await admin.getByTestId("pages-empty").waitFor();

    await admin.getByRole("link", { name: "Add Page" }).click();
    await admin.getByRole("heading", { level: 1, name: "Add Page" }).waitFor();
    await admin.getByLabel("Title", { exact: true }).fill("Buyer Protection");
    await admin.getByRole("button", { name: "HTML source" }).click();
    await admin.getByRole("textbox", { name: "Content (HTML)" }).fill("<p>Copy</p>");
    await expectAccessible(admin);
    await admin.getByRole("button", { name: /^Create Page/ }).click();
    await toast(
      admin,
      "Failed to create page: A page with the slug 'buyer-protection' already exists.",
    ).waitFor();
    await admin
      .getByText("A page with the slug 'buyer-protection' already exists.", { exact: true })
      .waitFor();
    // The form keeps what was typed.
    expect(await admin.getByLabel("Title", { exact: true }).inputValue()).toBe("Buyer Protection");
    expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await snapshot(admin, "h3-page-form-375", { fullPage: true });

    await admin.goto("/admin/pages/00000000-0000-4000-8000-000000000000");
    await admin.getByRole("heading", { level: 1, name: "Page not found" }).waitFor();
    await admin.getByRole("link", { name: "Back to Pages" }).waitFor();
  });
});
