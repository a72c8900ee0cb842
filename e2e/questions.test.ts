import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { demoProductId } from "#server/db/seed/demo";
import { waitForMail } from "#server/test/outbox";
import { dataDir, expectAccessible, setupBrowser, showAt, snapshot, toast, viewports } from "./browser";

const browser = setupBrowser();

describe("questions and answers", () => {
  test("a buyer asks on the product page, the seller answers in the dashboard, the buyer sees the answer", async () => {
    // A demo product the demo seller sells; the seed gave it answered questions, so an answer time shows.
    const productPath = `/products/${demoProductId("cinderpath-endpoint-protect")}`;
    const text = `Can the console export a monthly compliance report? (${randomUUID().slice(0, 6)})`;
    const answerText = "Yes: a PDF and a CSV each month, or on demand from the Reports tab.";

    const buyer = await browser.newPage({ as: "buyer" });
    await buyer.goto(productPath);
    // The section's code loads as it comes near, as it does for a person scrolling down.
    await buyer.getByTestId("questions").scrollIntoViewIfNeeded();
    const section = buyer.getByTestId("questions");
    await section.getByRole("heading", { name: "Questions & answers" }).waitFor();
    // Too short is refused by the shared schema before anything is sent.
    await section.getByLabel("Ask the seller a question").fill("Why?");
    await section.getByRole("button", { name: "Ask question" }).click();
    await section.getByText("Question must be at least 10 characters").waitFor();
    await section.getByLabel("Ask the seller a question").fill(text);
    await section.getByRole("button", { name: "Ask question" }).click();
    await toast(buyer, "Question sent").waitFor();
    const mine = section.getByTestId("question").filter({ hasText: text });
    await mine.getByText("Awaiting answer").waitFor();
    await expectAccessible(buyer);

    // The seller finds it waiting in their Questions view, first, and answers it there.
    const seller = await browser.newPage({ as: "seller" });
    await seller.goto("/dashboard/questions");
    const waiting = seller.getByTestId("question").filter({ hasText: text });
    await waiting.waitFor();
    expect(await waiting.textContent()).toContain("Cinderpath Endpoint Protect");
    await waiting.getByLabel("Your answer").fill(answerText);
    await waiting.getByRole("button", { name: "Post answer" }).click();
    await toast(seller, "Answer posted").waitFor();
    await expect.poll(() => waiting.getByTestId("answer").textContent()).toContain(answerText);
    await expectAccessible(seller);

    // The buyer is e-mailed a link to the product page, and the answer shows there.
    const mail = await waitForMail(
      dataDir(),
      (m) => m.to === "buyer@stackbay.test" && m.body.includes(answerText),
    );
    expect(mail.body).toContain(productPath);

    // The buyer follows it; the product page and the seller's view at phone width in the dark and on a
    // desktop, each person's page resized and switched in place.
    await buyer.goto(productPath);
    await buyer.getByTestId("questions").scrollIntoViewIfNeeded();
    await buyer.getByTestId("questions").getByRole("heading", { name: "Questions & answers" }).waitFor();
    for (const viewport of viewports()) {
      const { width, theme } = viewport;
      await showAt(buyer, viewport, 900);
      await buyer.getByTestId("questions").scrollIntoViewIfNeeded();
      const answered = buyer.getByTestId("questions").getByTestId("question").filter({ hasText: text });
      await answered.getByTestId("answer").getByText(answerText).waitFor();
      expect(await answered.getByText("Awaiting answer").count()).toBe(0);
      expect(await buyer.getByTestId("answer-time").textContent()).toMatch(/^Usually answers within/);
      expect(await buyer.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await buyer.getByTestId("questions").scrollIntoViewIfNeeded();
      await snapshot(buyer, `h17-questions-${width}-${theme}`);

      await showAt(seller, viewport, 900);
      await seller.getByTestId("question").first().waitFor();
      expect(await seller.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await snapshot(seller, `h17-seller-questions-${width}-${theme}`, { fullPage: true });
    }
  });
});
