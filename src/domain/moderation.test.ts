import { describe, expect, test } from "vitest";
import {
  isBiggerDeal,
  isMaterialEdit,
  moderationLabel,
  needsReview,
  statusAfterEdit,
  statusOfNewListing,
} from "#domain/moderation";

const seller = { isAdmin: false, isTrustedSeller: false };
const trusted = { isAdmin: false, isTrustedSeller: true };
const admin = { isAdmin: true, isTrustedSeller: false };

describe("listing moderation rules", () => {
  test("new listings: admins and trusted sellers are approved at once, others wait", () => {
    expect(statusOfNewListing(seller)).toBe("pending");
    expect(statusOfNewListing(trusted)).toBe("approved");
    expect(statusOfNewListing(admin)).toBe("approved");
  });

  test("edits: material ones of approved listings go back to review; resubmissions are pending", () => {
    expect(statusAfterEdit("approved", seller, false)).toBe("approved");
    expect(statusAfterEdit("approved", seller, true)).toBe("pending");
    expect(statusAfterEdit("rejected", seller, false)).toBe("pending");
    expect(statusAfterEdit("pending", seller, true)).toBe("pending");
    expect(statusAfterEdit("rejected", trusted, true)).toBe("approved");
    expect(statusAfterEdit("pending", admin, true)).toBe("pending");
  });

  test("what counts as material", () => {
    const base = { name: "A", features: ["x"], specifications: [{ key: "k", value: "v" }], images: [] };
    expect(isMaterialEdit(base, { ...base })).toBe(false);
    expect(isMaterialEdit(base, { ...base, name: "B" })).toBe(true);
    expect(isMaterialEdit(base, { ...base, features: ["x", "y"] })).toBe(true);
    expect(isMaterialEdit({ ...base, price: 1 } as typeof base, { ...base, price: 2 } as typeof base)).toBe(
      false,
    );
  });

  test("a change that makes the deal look bigger needs review; a smaller one does not", () => {
    const deal = { price: 100, originalPrice: 150, discountLabel: "Spring sale", discountPercentage: 33 };
    expect(isBiggerDeal(deal, { ...deal })).toBe(false);
    expect(isBiggerDeal(deal, { ...deal, discountLabel: "OFFICIAL MICROSOFT PARTNER - pay at t.me/x" })).toBe(
      true,
    );
    expect(isBiggerDeal({ ...deal, discountLabel: null }, { ...deal, discountLabel: "Sale" })).toBe(true);
    expect(isBiggerDeal(deal, { ...deal, discountLabel: null })).toBe(false);
    expect(isBiggerDeal(deal, { ...deal, originalPrice: 99_999 })).toBe(true);
    expect(isBiggerDeal({ ...deal, originalPrice: null }, { ...deal, originalPrice: 120 })).toBe(true);
    expect(isBiggerDeal(deal, { ...deal, originalPrice: 140 })).toBe(false);
    expect(isBiggerDeal(deal, { ...deal, discountPercentage: 90 })).toBe(true);
    expect(isBiggerDeal(deal, { ...deal, discountPercentage: 10 })).toBe(false);
    // The price may move by half of itself either way; more is a new deal.
    expect(isBiggerDeal(deal, { ...deal, price: 50 })).toBe(false);
    expect(isBiggerDeal(deal, { ...deal, price: 150 })).toBe(false);
    expect(isBiggerDeal(deal, { ...deal, price: 49.99 })).toBe(true);
    expect(isBiggerDeal(deal, { ...deal, price: 150.01 })).toBe(true);
    expect(isBiggerDeal({ ...deal, price: 0 }, { ...deal, price: 0.01 })).toBe(true);
    const listing = { ...deal, name: "A", features: ["x"] };
    expect(needsReview(listing, { ...listing, discountLabel: "Official partner" })).toBe(true);
    expect(needsReview(listing, { ...listing, name: "B" })).toBe(true);
    expect(needsReview(listing, { ...listing, price: 90 })).toBe(false);
  });

  test("labels the seller reads", () => {
    expect(moderationLabel("pending", null)).toBe("Pending review");
    expect(moderationLabel("approved", null)).toBe("Approved");
    expect(moderationLabel("rejected", "Blurry images")).toBe("Rejected: Blurry images");
  });
});
