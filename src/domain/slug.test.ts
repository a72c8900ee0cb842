import { describe, expect, test } from "vitest";
import { SLUG_PATTERN, slugify } from "#domain/slug";

describe("slugify", () => {
  test.each([
    ["Hello  World!", "hello-world"],
    ["APIs & Dev Tools", "apis-dev-tools"],
    ["a--b", "a-b"],
    ["already-a-slug", "already-a-slug"],
    ["UPPER case", "upper-case"],
    ["Version 2.0", "version-20"],
    ["snake_case name", "snakecase-name"],
    ["a - b", "a-b"],
    ["  padded title  ", "padded-title"],
    ["tab\tand\nnewline", "tab-and-newline"],
    ["100% Off: Deals", "100-off-deals"],
    ["", ""],
  ])("slugify(%j) is %j", (input, expected) => {
    expect(slugify(input)).toBe(expected);
  });

  test("results of ordinary titles match SLUG_PATTERN", () => {
    for (const title of ["Hello  World!", "APIs & Dev Tools", "Version 2.0", "a--b"]) {
      expect(slugify(title)).toMatch(SLUG_PATTERN);
    }
  });

  test("is idempotent", () => {
    const once = slugify("APIs & Dev Tools");
    expect(slugify(once)).toBe(once);
  });
});

describe("SLUG_PATTERN", () => {
  test("accepts lowercase letters, digits and hyphens", () => {
    expect(SLUG_PATTERN.test("abc-123")).toBe(true);
    expect(SLUG_PATTERN.test("a")).toBe(true);
  });

  test("rejects anything else", () => {
    expect(SLUG_PATTERN.test("")).toBe(false);
    expect(SLUG_PATTERN.test("Abc")).toBe(false);
    expect(SLUG_PATTERN.test("a b")).toBe(false);
    expect(SLUG_PATTERN.test("a_b")).toBe(false);
    expect(SLUG_PATTERN.test("a/b")).toBe(false);
  });
});
