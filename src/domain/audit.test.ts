import { describe, expect, test } from "vitest";
import { diffFields } from "#domain/audit";

describe("diffFields", () => {
  test("lists only the fields whose values changed, with before and after", () => {
    expect(
      diffFields(
        { name: "Vault", price: "10.0000", isActive: true, features: ["a"] },
        { name: "Vault", price: "12.5000", isActive: false, features: ["a"] },
      ),
    ).toEqual({
      price: { before: "10.0000", after: "12.5000" },
      isActive: { before: true, after: false },
    });
  });

  test("a created record lists every field with before null; a deleted one every field with after null", () => {
    expect(diffFields(null, { name: "Docs", slug: "docs" })).toEqual({
      name: { before: null, after: "Docs" },
      slug: { before: null, after: "docs" },
    });
    expect(diffFields({ name: "Docs" }, null)).toEqual({ name: { before: "Docs", after: null } });
  });

  test("ignores bookkeeping timestamps and compares dates and arrays by value", () => {
    const at = new Date("2026-11-01T10:00:00Z");
    expect(
      diffFields(
        { updatedAt: new Date(1), publishedAt: at, images: ["/a.webp", "/b.webp"] },
        { updatedAt: new Date(2), publishedAt: new Date(at.getTime()), images: ["/b.webp", "/a.webp"] },
      ),
    ).toEqual({ images: { before: ["/a.webp", "/b.webp"], after: ["/b.webp", "/a.webp"] } });
  });

  test("a field that appears or disappears counts as changed; undefined and null are the same", () => {
    expect(diffFields({ a: 1, b: undefined }, { b: null, c: 2 })).toEqual({
      a: { before: 1, after: null },
      c: { before: null, after: 2 },
    });
  });
});
