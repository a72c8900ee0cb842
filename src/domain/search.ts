import { z } from "zod";
import { MAX_SEARCH_LENGTH } from "#domain/catalog";

/** More words than this in one query add nothing but cost: each word is one more index condition. */
export const MAX_SEARCH_WORDS = 6;
export const SYNONYM_MAX_LENGTH = 40;
export const MAX_SYNONYMS = 10;

/**
 * Search text as the database compares it (decision 0017): lower case, accents removed (the column
 * goes through unaccent), and every run of other characters a word break.
 */
export function normalizeSearch(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/**
 * How well a product's name (and vendor) fits what was typed, for type-ahead: 0 when it starts with one of
 * the words that stand for the text (the words typed, or their corrections: "cloud" for "clod"), 1 when
 * one of its words does, 2 otherwise. Lower first.
 */
export function suggestionRank(name: string, words: readonly string[]): number {
  const normalized = normalizeSearch(name);
  if (words.some((word) => normalized.startsWith(word))) return 0;
  return words.some((word) => ` ${normalized}`.includes(` ${word}`)) ? 1 : 2;
}

/** The distinct words of a query, in order, at most `MAX_SEARCH_WORDS`. */
export function searchWords(text: string): string[] {
  const words = normalizeSearch(text).split(" ").filter(Boolean);
  return [...new Set(words)].slice(0, MAX_SEARCH_WORDS);
}

const synonymWord = z
  .string()
  .transform(normalizeSearch)
  .pipe(
    z
      .string()
      .min(1, "Each word needs at least one letter or digit")
      .max(SYNONYM_MAX_LENGTH, `Each word must be at most ${SYNONYM_MAX_LENGTH} characters`),
  );

/** The synonyms form and `POST/PUT /api/admin/search/synonyms`: a word and what it also means. */
export const synonymInputSchema = z
  .object({
    term: synonymWord.refine((t) => !t.includes(" "), "The word must be a single word"),
    synonyms: z
      .array(synonymWord, { error: "Give at least one synonym" })
      .min(1, "Give at least one synonym")
      .max(MAX_SYNONYMS, `At most ${MAX_SYNONYMS} synonyms`)
      .transform((list) => [...new Set(list)]),
  })
  .refine((input) => !input.synonyms.includes(input.term), {
    message: "A word cannot be its own synonym",
    path: ["synonyms"],
  });
export type SynonymInput = z.input<typeof synonymInputSchema>;

export const synonymSchema = z.object({
  id: z.string(),
  term: z.string(),
  synonyms: z.array(z.string()),
  updatedAt: z.string(),
});
export type Synonym = z.infer<typeof synonymSchema>;
export const synonymListSchema = z.object({ items: z.array(synonymSchema) });
export type SynonymList = z.infer<typeof synonymListSchema>;

/** `GET /api/search/suggestions?q=`: what the header's search box offers while the visitor types. */
export const suggestionsQuery = z.object({
  q: z
    .string()
    .trim()
    .max(MAX_SEARCH_LENGTH, `Search text can be at most ${MAX_SEARCH_LENGTH} characters`)
    .optional()
    .default(""),
});

export const suggestionsSchema = z.object({
  products: z.array(z.object({ id: z.string(), name: z.string(), vendor: z.string().nullable() })),
  vendors: z.array(z.object({ slug: z.string(), name: z.string() })),
  categories: z.array(z.object({ slug: z.string(), name: z.string() })),
});
export type Suggestions = z.infer<typeof suggestionsSchema>;
