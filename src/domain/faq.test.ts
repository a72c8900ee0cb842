import { describe, expect, test } from "vitest";
import { faqCategories, faqItems, isFaqId, searchFaq } from "./faq";

const ids = (items: { id: string }[]) => items.map((item) => item.id);

describe("faq content", () => {
  test("has at least 8 questions, every category covered, unique kebab-case ids", () => {
    expect(faqItems.length).toBeGreaterThanOrEqual(8);
    for (const category of faqCategories) {
      expect(
        faqItems.some((item) => item.category === category),
        category,
      ).toBe(true);
    }
    expect(new Set(ids(faqItems)).size).toBe(faqItems.length);
    for (const item of faqItems) expect(item.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(isFaqId("payment-methods")).toBe(true);
    expect(isFaqId("no-such-question")).toBe(false);
  });
});

describe("searchFaq", () => {
  test("returns everything for empty text and the 'all' category", () => {
    expect(searchFaq(faqItems, "")).toEqual(faqItems);
    expect(searchFaq(faqItems, "   ", "all")).toEqual(faqItems);
  });

  test("is case-insensitive", () => {
    const lower = searchFaq(faqItems, "paypal");
    expect(lower.length).toBeGreaterThan(0);
    expect(searchFaq(faqItems, "PAYPAL")).toEqual(lower);
    expect(searchFaq(faqItems, "  PayPal ")).toEqual(lower);
  });

  test("filters by category, alone and combined with text", () => {
    const licensing = searchFaq(faqItems, "", "licensing");
    expect(licensing.length).toBeGreaterThan(0);
    expect(licensing.every((item) => item.category === "licensing")).toBe(true);
    expect(licensing).toHaveLength(faqItems.filter((item) => item.category === "licensing").length);
    expect(ids(searchFaq(faqItems, "dashboard", "licensing"))).toContain("license-delivery");
    expect(searchFaq(faqItems, "paypal", "support")).toEqual([]);
  });

  test("matches text that only appears in an answer", () => {
    // "JPY" is in the payment currencies answer, not in any question.
    expect(faqItems.some((item) => item.question.toLowerCase().includes("jpy"))).toBe(false);
    expect(ids(searchFaq(faqItems, "jpy"))).toEqual(["payment-currencies"]);
    expect(ids(searchFaq(faqItems, "24 hours"))).toContain("support-response-time");
  });

  test("matches by category name", () => {
    // The crypto payouts question never says "cryptocurrency"; its category does.
    const crypto = faqItems.find((item) => item.id === "crypto-payouts")!;
    expect(`${crypto.question} ${crypto.answer}`.toLowerCase()).not.toContain("cryptocurrency");
    expect(ids(searchFaq(faqItems, "Cryptocurrency"))).toContain("crypto-payouts");
    expect(ids(searchFaq(faqItems, "sellers"))).toEqual(
      ids(faqItems.filter((item) => item.category === "sellers")),
    );
  });

  test("finds nothing for nonsense", () => {
    expect(searchFaq(faqItems, "zqxjvw-nonsense-42")).toEqual([]);
    expect(searchFaq(faqItems, "zqxjvw", "payments")).toEqual([]);
  });
});
