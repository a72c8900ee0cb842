import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, test } from "vitest";
import { PAGE_LINK_MESSAGE } from "#domain/cms";
import { expectAccessible, setupBrowser, snapshot, toast } from "./browser";

const browser = setupBrowser();
const run = Date.now().toString(36);
const slug = `rich-text-${run}`;
// The hostile <img src=x> survives as a harmless broken picture, whose load the browser logs as a 404.
const brokenImage = [/status of 404/];

describe("rich-text page editing", () => {
  test("an admin formats a page with the toolbar and pastes hostile HTML in the source; visitors get the formatting without it", async () => {
    const admin = await browser.newPage({ as: "admin", width: 1366, height: 900 });
    const created = await admin.request.post("/api/admin/pages", {
      data: { title: `Plans ${run}`, slug, content: "<p>Intro</p>" },
    });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()).page as { id: string };

    await admin.goto(`/admin/pages/${id}`);
    await admin.getByRole("heading", { level: 1, name: "Edit Page" }).waitFor();
    const editor = admin.getByRole("textbox", { name: "Content", exact: true });
    await editor.getByText("Intro").waitFor();

    // The toolbar is one tab stop; arrows move between its buttons.
    const toolbar = admin.getByRole("toolbar", { name: "Formatting" });
    await toolbar.getByRole("button", { name: "Heading 2" }).focus();
    await admin.keyboard.press("ArrowRight");
    expect(await admin.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Heading 3");

    // A toolbar button hands focus back to the editor a moment after the click: typing waits for it.
    const editing = () =>
      expect.poll(() => editor.evaluate((el) => el.contains(document.activeElement))).toBe(true);

    await editor.getByText("Intro").click();
    await editing();
    await admin.keyboard.press("End");
    await admin.keyboard.press("Enter");
    await toolbar.getByRole("button", { name: "Heading 2" }).click();
    await editing();
    await admin.keyboard.type("What you get");
    expect(await toolbar.getByRole("button", { name: "Heading 2" }).getAttribute("aria-pressed")).toBe(
      "true",
    );
    await admin.keyboard.press("Enter");
    await toolbar.getByRole("button", { name: "Bulleted list" }).click();
    await editor.locator("ul li").first().waitFor();
    await editing();
    await admin.keyboard.type("Fast checkout");
    await admin.keyboard.press("Enter");
    await admin.keyboard.type("Exact invoices");
    await admin.keyboard.press("Enter");
    await admin.keyboard.press("Enter");

    // A link: an unsafe address is refused in the editor, a web address is applied to the selected words.
    await admin.keyboard.type("Read the docs");
    await admin.keyboard.press("Shift+Home");
    await toolbar.getByRole("button", { name: "Link" }).click();
    await admin.getByLabel("Link address").fill("javascript:alert(1)");
    await admin.keyboard.press("Enter");
    await admin.getByText(PAGE_LINK_MESSAGE).waitFor();
    await admin.getByLabel("Link address").fill("https://docs.example.com/start");
    await admin.getByRole("button", { name: "Apply link" }).click();
    // Applying hands the focus back to the text (a frame later), with the caret after the link.
    await expect.poll(() => editor.evaluate((element) => element === document.activeElement)).toBe(true);
    await editor.locator('a[href="https://docs.example.com/start"]', { hasText: "Read the docs" }).waitFor();

    // A table: insert, add a row, drop a column.
    await admin.keyboard.press("Enter");
    await toolbar.getByRole("button", { name: "Insert table" }).click();
    await editor.locator("table").waitFor();
    await editing();
    await admin.keyboard.type("Plan");
    await admin.keyboard.press("Tab");
    await admin.keyboard.type("Price");
    await admin.keyboard.press("Tab");
    await toolbar.getByRole("button", { name: "Delete column" }).click();
    await toolbar.getByRole("button", { name: "Add row" }).click();
    await expect.poll(() => editor.locator("tr").count()).toBe(4);
    await expect.poll(() => editor.locator("tr").first().locator("th").count()).toBe(2);

    // An image from an upload, with its alt text.
    const folder = await mkdtemp(path.join(os.tmpdir(), "rich-text-"));
    const picture = path.join(folder, "chart.png");
    await sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 30, g: 120, b: 200 } } })
      .png()
      .toFile(picture);
    await editor.locator("th").first().click();
    // The editor's history joins edits less than 500 ms apart into one undo step.
    await admin.waitForTimeout(600);
    await toolbar.getByRole("button", { name: "Delete table" }).click();
    await toolbar.getByRole("button", { name: "Undo" }).click();
    await expect.poll(() => editor.locator("table").count()).toBe(1);
    await expect.poll(() => editor.locator("tr").count()).toBe(4);
    await editor.getByText("Read the docs").click();
    await admin.keyboard.press("End");
    await toolbar.getByRole("button", { name: "Image" }).click();
    await admin.getByLabel("Image file").setInputFiles(picture);
    await admin.getByRole("button", { name: "Insert image" }).click();
    await admin.getByText("Describe the image for readers who cannot see it").waitFor();
    await admin.getByLabel("Alt text").fill("A blue chart");
    await admin.getByRole("button", { name: "Insert image" }).click();
    await editor.getByRole("img", { name: "A blue chart" }).waitFor();
    await expectAccessible(admin);
    await snapshot(admin, "h18-rich-text-editor", { fullPage: true });

    // The HTML source shows what the toolbar wrote; hostile markup pasted there is saved as typed.
    await toolbar.getByRole("button", { name: "HTML source" }).click();
    expect(await toolbar.getByRole("button", { name: "HTML source" }).getAttribute("aria-pressed")).toBe(
      "true",
    );
    const source = admin.getByRole("textbox", { name: "Content (HTML)" });
    const html = await source.inputValue();
    expect(html).toContain("<h2>What you get</h2>");
    expect(html).toMatch(/<ul><li><p>Fast checkout<\/p><\/li><li><p>Exact invoices<\/p><\/li><\/ul>/);
    expect(html).toMatch(/<a [^>]*href="https:\/\/docs\.example\.com\/start"[^>]*>Read the docs<\/a>/);
    expect(html).toMatch(/<img src="\/uploads\/[^"]+\.webp" alt="A blue chart"/);
    expect(html).toContain("<th");
    await source.fill(`${html}<img src=x onerror=alert(1)><script>alert(2)</script>`);
    await admin.getByRole("checkbox", { name: /Active \(published\)/ }).check();
    await admin.getByRole("button", { name: /^Save Changes/ }).click();
    await toast(admin, "Success", "Page updated successfully!").waitFor();

    for (const viewport of [
      { width: 375, theme: "dark" as const },
      { width: 1366, theme: "light" as const },
    ]) {
      const visitor = await browser.newPage({ ...viewport, allowErrors: brokenImage });
      const dialogs: string[] = [];
      visitor.on("dialog", async (dialog) => {
        dialogs.push(dialog.message());
        await dialog.dismiss();
      });
      await visitor.goto(`/pages/${slug}`);
      const content = visitor.getByTestId("page-content");
      await content.getByRole("heading", { level: 2, name: "What you get" }).waitFor();
      expect(await content.getByRole("listitem").allTextContents()).toEqual([
        "Fast checkout",
        "Exact invoices",
      ]);
      expect(await content.getByRole("link", { name: "Read the docs" }).getAttribute("href")).toBe(
        "https://docs.example.com/start",
      );
      expect(await content.getByRole("columnheader").allTextContents()).toEqual(["Plan", "Price"]);
      await content.getByRole("img", { name: "A blue chart" }).waitFor();
      expect(await content.locator("script, [onerror], iframe").count()).toBe(0);
      expect(await visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      await snapshot(visitor, `h18-rich-text-page-${viewport.width}-${viewport.theme}`, { fullPage: true });
      expect(dialogs).toEqual([]);
    }

    // A page with markup the editor cannot keep opens as HTML, so saving it unchanged loses nothing.
    const glossary = await admin.request.post("/api/admin/pages", {
      data: {
        title: `Glossary ${run}`,
        slug: `glossary-${run}`,
        content: "<dl><dt>SKU</dt><dd>A stock unit</dd></dl>",
      },
    });
    await admin.goto(`/admin/pages/${(await glossary.json()).page.id}`);
    await admin.getByText("This page uses markup the visual editor would simplify (dl, dt, dd)").waitFor();
    expect(await admin.getByRole("textbox", { name: "Content (HTML)" }).inputValue()).toBe(
      "<dl><dt>SKU</dt><dd>A stock unit</dd></dl>",
    );

    // The editor on a dark phone.
    const phone = await browser.newPage({
      as: "admin",
      width: 375,
      height: 812,
      theme: "dark",
      allowErrors: brokenImage,
    });
    await phone.goto(`/admin/pages/${id}`);
    await phone.getByRole("textbox", { name: "Content", exact: true }).getByText("What you get").waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await snapshot(phone, "h18-rich-text-editor-375-dark", { fullPage: true });
  });
});
