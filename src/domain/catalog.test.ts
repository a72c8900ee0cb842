import { describe, expect, test } from "vitest";
import { lastPageOf, listingCountLabel, matchesLabel, pastTheEnd } from "#domain/catalog";

const listing = { total: 65, totalCapped: false, page: 1, pageSize: 24, shown: 24 };

describe("the products page's count line", () => {
  test("a page within the list shows every match", () => {
    expect(listingCountLabel(listing)).toBe("Showing 65 products");
    expect(listingCountLabel({ ...listing, page: 3, shown: 17 })).toBe("Showing 65 products");
    expect(listingCountLabel({ ...listing, total: 1, shown: 1 })).toBe("Showing 1 product");
    expect(matchesLabel({ total: 10_000, totalCapped: true }, "Show")).toBe("Show 10,000+ products");
  });

  test("a page past the end says nothing is on it and which page is last", () => {
    const far = { ...listing, page: 99, shown: 0 };
    expect(pastTheEnd(far)).toBe(3);
    expect(listingCountLabel(far)).toBe("No products on page 99: the list has 65 products on 3 pages");
    expect(listingCountLabel({ ...far, total: 1 })).toBe(
      "No products on page 99: the list has 1 product on 1 page",
    );
  });

  test("an empty listing or a full page is not past the end", () => {
    expect(pastTheEnd({ ...listing, total: 0, shown: 0 })).toBeNull();
    expect(pastTheEnd({ ...listing, total: 0, page: 4, shown: 0 })).toBeNull();
    expect(pastTheEnd({ ...listing, page: 3, shown: 17 })).toBeNull();
    expect(lastPageOf(0, 24)).toBe(1);
    expect(lastPageOf(48, 24)).toBe(2);
    expect(lastPageOf(49, 24)).toBe(3);
  });
});
