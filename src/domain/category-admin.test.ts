import { describe, expect, test } from "vitest";
import { categoryInputSchema, categoryInUseMessage, productCountLabel } from "#domain/category-admin";

const problem = (input: unknown) => {
  const result = categoryInputSchema.safeParse(input);
  return result.success ? null : result.error.issues[0]?.message;
};

describe("categoryInputSchema", () => {
  test("trims the name", () => {
    expect(categoryInputSchema.parse({ name: "  Cloud Storage  " })).toEqual({ name: "Cloud Storage" });
  });

  test.each([
    [{}, "Category name is required"],
    [{ name: "" }, "Category name is required"],
    [{ name: "   " }, "Category name is required"],
    [{ name: "x".repeat(61) }, "Category name must be at most 60 characters"],
    [
      { name: "&&& !!!" },
      "Category name must contain at least one letter or digit (A-Z, 0-9) to make its slug",
    ],
    [
      { name: " - - " },
      "Category name must contain at least one letter or digit (A-Z, 0-9) to make its slug",
    ],
  ])("%j is refused: %s", (input, message) => {
    expect(problem(input)).toBe(message);
  });

  test.each([["x".repeat(60)], ["3D Printing"], ["Cloud Storage & Backup!"]])("%j is accepted", (name) => {
    expect(problem({ name })).toBeNull();
  });
});

describe("messages", () => {
  test("count the products in words", () => {
    expect(productCountLabel(0)).toBe("0 products");
    expect(productCountLabel(1)).toBe("1 product");
    expect(categoryInUseMessage(4)).toBe(
      "This category still has 4 products. Move them to another category first.",
    );
    expect(categoryInUseMessage(1)).toBe(
      "This category still has 1 product. Move it to another category first.",
    );
  });
});
