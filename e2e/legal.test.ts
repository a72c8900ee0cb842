import { describe, expect, test } from "vitest";
import { setupBrowser } from "./browser";

const browser = setupBrowser();

const documents = [
  { path: "/privacy", title: "Privacy Policy", date: "01-06-2025", sections: 11, first: "1. Who we are" },
  {
    path: "/terms",
    title: "Terms of Service",
    date: "01/06/2025",
    sections: 16,
    first: "1. Introduction and legal framework",
  },
] as const;

describe.each(documents)("$title", (doc) => {
  test("shows the heading, effective date and a table of contents whose links all land on a section", async () => {
    const page = await browser.newPage();
    const response = await page.goto(doc.path);
    expect(response?.status()).toBe(200);
    await page.getByRole("heading", { level: 1, name: doc.title }).waitFor();
    await expect.poll(() => page.title()).toContain(doc.title);
    expect(await page.getByTestId("effective-date").textContent()).toBe(`Effective date: ${doc.date}`);

    const toc = page.getByRole("navigation", { name: "Table of contents" });
    const links = toc.getByRole("link");
    expect(await links.count()).toBe(doc.sections);
    const targets = await links.evaluateAll((anchors) =>
      anchors.map((a) => {
        const hash = a.getAttribute("href") ?? "";
        const section = hash.startsWith("#") ? document.getElementById(hash.slice(1)) : null;
        return {
          hash,
          isSection: section?.tagName === "SECTION",
          heading: section?.querySelector("h2")?.textContent ?? null,
        };
      }),
    );
    for (const [index, target] of targets.entries()) {
      expect(target.hash, `TOC link ${index + 1}`).toMatch(/^#[a-z-]+$/);
      expect(target.isSection, `${target.hash} points at a section`).toBe(true);
      expect(target.heading, `${target.hash} heading is numbered`).toMatch(new RegExp(`^${index + 1}\\. `));
    }
    expect(targets[0]?.heading).toBe(doc.first);
    expect(await page.locator("article section h2").count()).toBe(doc.sections);

    // Clicking an entry jumps to the section and puts it in the URL; the heading is not under the navbar.
    const middle = links.nth(Math.floor(doc.sections / 2));
    const hash = (await middle.getAttribute("href")) ?? "";
    await middle.click();
    await expect.poll(() => new URL(page.url()).hash).toBe(hash);
    await expect.poll(() => middle.getAttribute("aria-current")).toBe("location");
    const headingTop = await page.evaluate(
      (id) => document.getElementById(id)?.getBoundingClientRect().top ?? -1,
      hash.slice(1),
    );
    expect(headingTop).toBeGreaterThanOrEqual(64);
    expect(headingTop).toBeLessThan(160);
    expect(new URL(page.url()).pathname).toBe(doc.path);
  });

  test("on a 375 px phone the contents sit above the text and nothing scrolls sideways", async () => {
    const page = await browser.newPage({ width: 375, height: 740, theme: "dark" });
    await page.goto(doc.path);
    await page.getByRole("heading", { level: 1, name: doc.title }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const tocBox = await page.getByRole("navigation", { name: "Table of contents" }).boundingBox();
    const firstSection = await page.locator("article section").first().boundingBox();
    expect(tocBox && firstSection && tocBox.y + tocBox.height <= firstSection.y).toBe(true);
  });
});
