import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { demoProductId } from "#server/db/seed/demo";
import { waitForMail } from "#server/test/outbox";
import { dataDir, expectAccessible, setupBrowser, snapshot, toast, viewports } from "./browser";

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

    for (const { width, theme } of viewports()) {
      const view = await browser.newPage({ width, height: 900, theme, as: "buyer" });
      await view.goto(productPath);
      await view.getByTestId("questions").scrollIntoViewIfNeeded();
      const answered = view.getByTestId("questions").getByTestId("question").filter({ hasText: text });
      await answered.getByTestId("answer").getByText(answerText).waitFor();
      expect(await answered.getByText("Awaiting answer").count()).toBe(0);
      expect(await view.getByTestId("answer-time").textContent()).toMatch(/^Usually answers within/);
      expect(await view.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await view.getByTestId("questions").scrollIntoViewIfNeeded();
      await snapshot(view, `h17-questions-${width}-${theme}`);

      const sellerView = await browser.newPage({ width, height: 900, theme, as: "seller" });
      await sellerView.goto("/dashboard/questions");
      await sellerView.getByTestId("question").first().waitFor();
      expect(await sellerView.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        width,
      );
      await snapshot(sellerView, `h17-seller-questions-${width}-${theme}`, { fullPage: true });
    }
  });
});
