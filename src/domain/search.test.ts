import { describe, expect, test } from "vitest";
import { suggestionRank } from "#domain/search";

describe("suggestionRank", () => {
  test("names starting with a word that stands for the text first, then names with such a word", () => {
    expect(suggestionRank("Cloud Migration Assessment", ["clod", "cloud"])).toBe(0);
    expect(suggestionRank("Palisade Identity Cloud", ["clod", "cloud"])).toBe(1);
    expect(suggestionRank("Address Data Cleanup Service", ["clod", "cloud"])).toBe(2);
    expect(suggestionRank("Café Écran", ["ecran"])).toBe(1);
  });
});
