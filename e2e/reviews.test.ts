import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { waitForMail } from "#server/test/outbox";
import {
  dataDir,
  demoApi,
  expectAccessible,
  holdRequests,
  setupBrowser,
  showAt,
  snapshot,
  toast,
  viewports,
} from "./browser";
import { placeAndPay } from "./orders";

const browser = setupBrowser();

/** A new listing of the demo seller's, approved, bought and paid by the demo buyer. */
async function boughtListing() {
  const seller = await browser.newPage({ as: "seller" });
  const name = `Review Journey Suite ${randomUUID().slice(0, 6)}`;
  const created = await seller.request.post("/api/manage/products", {
    data: { name, category: "software", price: 49 },
  });
  expect(created.status()).toBe(201);
  const productId = ((await created.json()) as { product: { id: string } }).product.id;
  // Approved through the API (the moderation journeys cover its screen): no admin page for it.
  const approved = await demoApi("admin", "POST", `/api/admin/moderation/${productId}/approve`);
  expect(approved.status).toBe(200);

  const buyer = await browser.newPage({ as: "buyer" });
  const { id: orderId } = await placeAndPay(buyer.request, {
    country: "PT",
    items: [{ productId, price: 49 }],
  });
  return { seller, buyer, name, productId, orderId };
}

/**
 * A visitor on the product's page, opened at the first of `viewports()`: the journey brings the same
 * page to the others with `showAt` (resized, theme switched in place) rather than a fresh page each.
 */
async function visitorOn(productId: string) {
  const [first] = viewports();
  const view = await browser.newPage({ width: first?.width, height: 900, theme: first?.theme });
  await view.goto(`/products/${productId}`);
  return view;
}

describe("verified reviews", () => {
  test("a buyer reviews what they bought, the seller replies, an admin hides it and the rating goes with it", async () => {
    const { seller, buyer, name, productId } = await boughtListing();

    // Unreviewed, the product shows no rating at all; the buyer may write the first review.
    await buyer.goto(`/products/${productId}`);
    // The section's code loads as it comes near, as it does for a person scrolling down.
    await buyer.getByTestId("reviews").scrollIntoViewIfNeeded();
    const reviews = buyer.getByTestId("reviews");
    await reviews.getByText("No reviews yet.").waitFor();
    expect(await buyer.getByTestId("product-summary").getByTestId("rating").count()).toBe(0);
    const form = reviews.getByRole("form", { name: "Write a review" });
    // Sent empty, the form says what is missing and posts nothing.
    await form.getByRole("button", { name: "Post review" }).click();
    await form.getByText("Please choose a rating from 1 to 5 stars").waitFor();
    // The stars are a radio group: chosen from the keyboard like any other.
    await form.getByRole("radio", { name: "4 stars" }).focus();
    await buyer.keyboard.press("Space");
    await form.getByLabel("Title").fill("Fast to roll out");
    await form.getByLabel("Your review").fill("We had it running for the whole team within an afternoon.");
    await form.getByRole("button", { name: "Post review" }).click();
    await toast(buyer, "Thank you for your review").waitFor();

    const own = reviews.getByTestId("review").filter({ hasText: "Fast to roll out" });
    await own.getByText("Verified purchase").waitFor();
    const summary = buyer.getByRole("img", { name: "Rated 4.0 out of 5" });
    await expect.poll(() => summary.count()).toBeGreaterThan(0);
    expect(await buyer.getByTestId("product-summary").getByTestId("rating").textContent()).toContain(
      "(1 review)",
    );
    await expectAccessible(buyer);

    // The seller answers once, in public.
    await seller.goto(`/products/${productId}`);
    await seller.getByTestId("reviews").scrollIntoViewIfNeeded();
    const sellerCard = seller.getByTestId("review").filter({ hasText: "Fast to roll out" });
    await sellerCard.getByRole("button", { name: "Reply" }).click();
    await sellerCard.getByLabel("Your public reply").fill("Thank you, glad the rollout was quick.");
    await sellerCard.getByRole("button", { name: "Post reply" }).click();
    await sellerCard.getByTestId("seller-reply").getByText("glad the rollout was quick").waitFor();
    expect(await sellerCard.getByRole("button", { name: "Reply" }).count()).toBe(0);

    // Anyone sees the review, its badge and the reply — at phone width in the dark and on a desktop.
    const view = await visitorOn(productId);
    for (const viewport of viewports()) {
      const { width, theme } = viewport;
      await showAt(view, viewport, 900);
      await view.getByTestId("reviews").scrollIntoViewIfNeeded();
      const card = view.getByTestId("review").filter({ hasText: "Fast to roll out" });
      await card.getByTestId("seller-reply").waitFor();
      expect(await card.getByText("Verified purchase").isVisible()).toBe(true);
      expect(await view.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await expectAccessible(view);
      await card.scrollIntoViewIfNeeded();
      await snapshot(view, `h17-review-${width}-${theme}`);
    }

    // An admin hides it with a reason: it leaves the page and the rating, and the author is told why.
    const admin = await browser.newPage({ as: "admin" });
    await admin.goto(`/products/${productId}`);
    await admin.getByTestId("reviews").scrollIntoViewIfNeeded();
    const adminCard = admin.getByTestId("review").filter({ hasText: "Fast to roll out" });
    await adminCard.getByRole("button", { name: /^Hide: / }).click();
    const dialog = admin.getByRole("alertdialog", { name: "Hide this review?" });
    await dialog.getByLabel("Reason (required, sent to the author)").fill("Contains a customer's name.");
    await dialog.getByRole("button", { name: "Hide" }).click();
    await toast(admin, "Review hidden").waitFor();
    await adminCard.getByText("Contains a customer's name.").waitFor();

    // The visitor, still on the product page, reloads it.
    await view.reload();
    await view.getByTestId("reviews").scrollIntoViewIfNeeded();
    await view.getByTestId("reviews").getByText("No reviews yet.").waitFor();
    expect(await view.getByTestId("product-summary").getByTestId("rating").count()).toBe(0);
    const mail = await waitForMail(
      dataDir(),
      (m) =>
        m.to === "buyer@stackbay.test" && m.subject.includes(name) && m.body.includes("Contains a customer"),
    );
    expect(mail.subject).toBe(`Your review of ${name} has been hidden`);
  });

  test("a product page opened from the list, drawn after its loading placeholder, loads its reviews as they come near", async () => {
    const page = await browser.newPage();
    await page.goto("/products");
    const card = page.getByTestId("product-card").first();
    const name = (await card.getByRole("heading").textContent()) ?? "";
    // The product's own request is held, so the page shows its placeholder first, as on a slow network.
    const release = await holdRequests(page, "**/api/products/*");
    const asked = page.waitForRequest((request) =>
      /\/api\/products\/[^/?]+$/.test(new URL(request.url()).pathname),
    );
    await card.getByRole("link", { name }).first().click();
    await page.waitForURL("**/products/*");
    // The page's code may come first (its own placeholder): the product's request is held once it is made.
    await asked;
    await page.getByRole("status").first().waitFor();
    release();
    await page.getByRole("heading", { level: 1, name }).waitFor();
    await page.getByTestId("reviews").scrollIntoViewIfNeeded();
    await page.getByRole("heading", { level: 2, name: "Reviews" }).waitFor();
  });

  test("a refunded purchase's review stays, marked, out of the rating and no longer editable", async () => {
    const { seller, buyer, productId, orderId } = await boughtListing();
    const title = "Five stars, then a refund";
    const posted = await buyer.request.post(`/api/products/${productId}/reviews`, {
      data: { rating: 5, title, body: "Brilliant, and then I asked for my money back." },
    });
    expect(posted.status()).toBe(201);
    const order = (await (await buyer.request.get(`/api/orders/${orderId}`)).json()) as {
      order: { items: { id: string }[] };
    };
    const asked = await buyer.request.post(
      `/api/orders/${orderId}/items/${order.order.items[0]?.id}/refund`,
      {
        data: { reason: "It was not what I expected." },
      },
    );
    expect(asked.status()).toBe(201);
    const refundId = ((await asked.json()) as { refund: { id: string } }).refund.id;
    const decided = await seller.request.post(`/api/refunds/${refundId}/decision`, {
      data: { decision: "approve" },
    });
    expect(decided.status()).toBe(200);

    // The author still sees it, marked, with no way to edit it; the product has no rating any more.
    await buyer.goto(`/products/${productId}`);
    // The section's code loads as it comes near, as it does for a person scrolling down.
    await buyer.getByTestId("reviews").scrollIntoViewIfNeeded();
    const own = buyer.getByTestId("review").filter({ hasText: title });
    await own.getByText("Refunded purchase").waitFor();
    expect(await own.getByText("Verified purchase").count()).toBe(0);
    expect(await own.getByRole("button", { name: "Edit review" }).count()).toBe(0);
    expect(await buyer.getByTestId("product-summary").getByTestId("rating").count()).toBe(0);

    const view = await visitorOn(productId);
    for (const viewport of viewports()) {
      const { width, theme } = viewport;
      await showAt(view, viewport, 900);
      await view.getByTestId("reviews").scrollIntoViewIfNeeded();
      const card = view.getByTestId("review").filter({ hasText: title });
      await card.getByText("Refunded purchase").waitFor();
      expect(await card.getByText("Verified purchase").count()).toBe(0);
      await expectAccessible(view);
      await card.scrollIntoViewIfNeeded();
      await snapshot(view, `i29-refunded-review-${width}-${theme}`);
    }
  });
});
