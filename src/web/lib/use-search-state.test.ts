import { describe, expect, test } from "vitest";
import { pageOf, withChanges } from "#web/lib/use-search-state";

describe("a screen's state in the URL", () => {
  test("the page is a positive whole number, 1 when missing or bad", () => {
    const page = (query: string) => pageOf(new URLSearchParams(query));
    expect(page("")).toBe(1);
    expect(page("page=3")).toBe(3);
    expect(page("page=0")).toBe(1);
    expect(page("page=-4")).toBe(1);
    expect(page("page=abc")).toBe(1);
    expect(page("page=2.9")).toBe(2);
  });

  test("a change sets or removes only the keys it names, and leaves the params it was given alone", () => {
    const before = new URLSearchParams("search=vpn&page=3&sort=price-asc");
    const after = withChanges(before, { page: undefined, category: "security", search: "" });
    expect(after.toString()).toBe("sort=price-asc&category=security");
    expect(before.toString()).toBe("search=vpn&page=3&sort=price-asc");
  });
});
