import { describe, expect, test } from "vitest";
import { isMaterialEdit, moderationLabel, statusAfterEdit, statusOfNewListing } from "#domain/moderation";

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

  test("labels the seller reads", () => {
    expect(moderationLabel("pending", null)).toBe("Pending review");
    expect(moderationLabel("approved", null)).toBe("Approved");
    expect(moderationLabel("rejected", "Blurry images")).toBe("Rejected: Blurry images");
  });
});
