import type { Locator, Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import type { MarketplaceStats } from "#domain/catalog-schemas";
import { faqItems } from "#domain/faq";
import { countLabel } from "#domain/marketplace-stats";
import { paths } from "#domain/routes";
import { expectAccessible, setupBrowser, snapshot, viewports } from "./browser";

const browser = setupBrowser();

const question = (id: string) => faqItems.find((item) => item.id === id)!.question;

async function openFaq(page: Page) {
  const response = await page.goto("/faq");
  expect(response?.status()).toBe(200);
  await page.getByRole("heading", { level: 1, name: "Frequently Asked Questions" }).waitFor();
}

/** Expands a question and returns its item, once the vote counts have loaded. */
async function expand(page: Page, id: string): Promise<Locator> {
  const item = page.getByTestId("faq-item").filter({ has: page.getByRole("button", { name: question(id) }) });
  const trigger = item.getByRole("button", { name: question(id), exact: true });
  if ((await trigger.getAttribute("aria-expanded")) !== "true") await trigger.click();
  await expect.poll(() => trigger.getAttribute("aria-expanded")).toBe("true");
  await expect.poll(() => item.getByTestId("faq-vote").getAttribute("aria-busy")).toBe("false");
  return item;
}

const visibleQuestions = (page: Page) =>
  page.getByTestId("faq-item").evaluateAll((items) => items.map((item) => item.id));

async function voteCount(button: Locator): Promise<number> {
  const name = (await button.getAttribute("aria-label")) ?? "";
  const match = /\((\d+)\)$/.exec(name);
  if (!match) throw new Error(`no count in "${name}"`);
  return Number(match[1]);
}

const marketplaceStats = async (page: Page) =>
  (await (await page.request.get("/api/marketplace-stats")).json()) as MarketplaceStats;

describe("home and footer figures", () => {
  test("are the database's counts and mean rating, drawn by the server and kept by the app", async () => {
    for (const { width, theme } of viewports()) {
      for (const javaScript of [false, true]) {
        const page = await browser.newPage({ width, theme, javaScript });
        const stats = await marketplaceStats(page);
        expect(stats.products).toBeGreaterThan(0);
        await page.goto(paths.home());
        const band = page.getByRole("region", { name: "Stackbay in numbers" });
        const figure = (label: string) =>
          band
            .locator("div")
            .filter({ has: page.getByText(label, { exact: true }) })
            .locator("dd");
        expect(await figure("Active Products").textContent()).toBe(countLabel(stats.products));
        expect(await figure("Global Vendors").textContent()).toBe(countLabel(stats.vendors));
        expect(await figure("Countries Served").textContent()).toBe(countLabel(stats.countries));
        expect(await figure("Customer Rating").textContent()).toBe(stats.rating);
        await expect
          .poll(() => page.getByTestId("footer-figures").textContent())
          .toBe(
            `${countLabel(stats.products)} products · ${countLabel(stats.vendors)} vendors · ` +
              `${countLabel(stats.countries)} countries · ${countLabel(stats.customers)} customers`,
          );
        expect(await page.getByText("10K+", { exact: true }).count()).toBe(0);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await snapshot(page, `home-figures-${width}-${theme}${javaScript ? "" : "-nojs"}`, {
          fullPage: true,
        });
      }
    }
  });
});

describe("about page", () => {
  test("shows the mission, facts, values and four team members with generated avatars", async () => {
    const page = await browser.newPage();
    const response = await page.goto("/about");
    expect(response?.status()).toBe(200);
    await page.getByRole("heading", { level: 1, name: "About Stackbay" }).waitFor();
    // The marketplace's own figures, as the database counts them (issue 30), not fixed marketing ones.
    const stats = await marketplaceStats(page);
    const facts = page.getByRole("region", { name: "Stackbay in numbers" });
    for (const fact of [
      countLabel(stats.products),
      countLabel(stats.vendors),
      countLabel(stats.countries),
      stats.rating ?? "",
      countLabel(stats.customers),
    ]) {
      expect(await facts.getByText(fact, { exact: true }).first().isVisible(), fact).toBe(true);
    }
    const values = page.getByRole("region", { name: "What we value" }).getByRole("listitem");
    expect(await values.count()).toBeGreaterThanOrEqual(4);

    const team = page.getByRole("region", { name: "Meet the team" });
    const members = team.getByRole("listitem");
    expect(await members.count()).toBe(4);
    for (const member of await members.all()) {
      const name = (await member.getByRole("heading", { level: 3 }).textContent()) ?? "";
      expect(name).not.toBe("");
      const avatar = member.getByRole("img", { name: `Avatar of ${name}` });
      expect(await avatar.isVisible()).toBe(true);
      expect(await avatar.evaluate((el) => el.tagName.toLowerCase())).toBe("svg");
    }
    // Avatars are drawn, not downloaded.
    expect(await page.locator("main img").count()).toBe(0);

    const main = page.getByRole("main");
    expect(await main.locator('a[href="/products"]').count()).toBeGreaterThan(0);
    expect(await main.locator('a[href="/partner"]').count()).toBeGreaterThan(0);
  });
});

describe("faq page", () => {
  test("search filters by question and answer text, badges filter by category, and an empty search clears", async () => {
    const page = await browser.newPage();
    await openFaq(page);
    expect(await visibleQuestions(page)).toEqual(faqItems.map((item) => item.id));
    expect(await page.getByRole("button", { name: "All", exact: true }).getAttribute("aria-pressed")).toBe(
      "true",
    );

    // "JPY" is only in the answer about payment currencies.
    const search = page.getByLabel("Search questions");
    await search.fill("jpy");
    await expect.poll(() => visibleQuestions(page)).toEqual(["payment-currencies"]);
    expect(await page.getByRole("button", { name: question("payment-currencies") }).isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: question("refund-policy") }).count()).toBe(0);

    await search.fill("");
    const crypto = page.getByRole("button", { name: "Cryptocurrency", exact: true });
    await crypto.click();
    expect(await crypto.getAttribute("aria-pressed")).toBe("true");
    const cryptoIds = faqItems.filter((item) => item.category === "cryptocurrency").map((item) => item.id);
    await expect.poll(() => visibleQuestions(page)).toEqual(cryptoIds);
    expect(await page.getByRole("button", { name: question("payment-methods") }).count()).toBe(0);

    await search.fill("qwzxv nonsense");
    await page.getByRole("heading", { name: "No results found" }).waitFor();
    expect(await page.getByTestId("faq-item").count()).toBe(0);
    await page.getByRole("button", { name: "Clear search" }).click();
    await expect.poll(() => visibleQuestions(page)).toEqual(faqItems.map((item) => item.id));
    expect(await search.inputValue()).toBe("");
    expect(await crypto.getAttribute("aria-pressed")).toBe("false");

    const contact = page.getByRole("link", { name: "Contact Support" }).last();
    expect(await contact.getAttribute("href")).toBe("/contact");
  });

  test("opening a question shows its answer", async () => {
    const page = await browser.newPage();
    await openFaq(page);
    const answer = page.getByText("License keys and access details are delivered to your dashboard");
    expect(await answer.isVisible()).toBe(false);
    await expand(page, "license-delivery");
    expect(await answer.isVisible()).toBe(true);
  });

  test("votes count once per visitor, survive a reload and can be changed", async () => {
    const page = await browser.newPage();
    await openFaq(page);
    let item = await expand(page, "support-response-time");
    const helpful = () => item.getByRole("button", { name: /^Helpful \(\d+\)$/ });
    const notHelpful = () => item.getByRole("button", { name: /^Not helpful \(\d+\)$/ });
    const up = await voteCount(helpful());
    const down = await voteCount(notHelpful());
    expect(await helpful().getAttribute("aria-pressed")).toBe("false");

    await helpful().click();
    await expect.poll(() => helpful().getAttribute("aria-label")).toBe(`Helpful (${up + 1})`);
    expect(await helpful().getAttribute("aria-pressed")).toBe("true");
    expect(await notHelpful().getAttribute("aria-pressed")).toBe("false");

    await page.reload();
    item = await expand(page, "support-response-time");
    expect(await helpful().getAttribute("aria-label")).toBe(`Helpful (${up + 1})`);
    expect(await helpful().getAttribute("aria-pressed")).toBe("true");

    await notHelpful().click();
    await expect.poll(() => notHelpful().getAttribute("aria-label")).toBe(`Not helpful (${down + 1})`);
    expect(await notHelpful().getAttribute("aria-pressed")).toBe("true");
    expect(await helpful().getAttribute("aria-label")).toBe(`Helpful (${up})`);
    expect(await helpful().getAttribute("aria-pressed")).toBe("false");
  });

  test("passes axe in light and dark, with a question open", async () => {
    for (const theme of ["light", "dark"] as const) {
      const page = await browser.newPage({ theme });
      await openFaq(page);
      await expand(page, "payment-currencies");
      await expectAccessible(page);
    }
  });
});

describe("on a 375 px phone", () => {
  test("neither page scrolls sideways", async () => {
    const page = await browser.newPage({ width: 375, height: 740 });
    await page.goto("/about");
    await page.getByRole("region", { name: "Meet the team" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    await openFaq(page);
    await expand(page, "payment-currencies");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.getByLabel("Search questions").fill("qwzxv");
    await page.getByRole("heading", { name: "No results found" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
});
