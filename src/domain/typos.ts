/**
 * Typos as edits (decision 0017): the optimal string alignment distance, in which swapping two adjacent
 * letters costs one edit like inserting, deleting or replacing one. Trigram similarity cannot see a swap
 * in a short word ("pipleine" and "pipeline" share 5 of 13 trigrams, "egde" and "edge" 1 of 9), so a word
 * one edit from the typed one is a correction whatever its trigram score.
 */

/** Words shorter than this are matched only as written: one edit from a 3-letter word is almost anything. */
export const ONE_EDIT_MIN_LENGTH = 4;

/**
 * Optimal string alignment (restricted Damerau–Levenshtein) distance between two words, counting code
 * points: insertions, deletions, substitutions and swaps of two adjacent characters each cost 1, and no
 * substring is edited twice ("ca" → "abc" is 3, not 2).
 */
export function osaDistance(a: string, b: string): number {
  const s = Array.from(a);
  const t = Array.from(b);
  if (s.length === 0) return t.length;
  if (t.length === 0) return s.length;
  // Three rows of the dynamic programme: the one before last (for swaps), the last and the current.
  let beforeLast: number[] = [];
  let last = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const current = [i];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let best = Math.min((last[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (last[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) {
        best = Math.min(best, (beforeLast[j - 2] ?? 0) + 1);
      }
      current.push(best);
    }
    beforeLast = last;
    last = current;
  }
  return last[t.length] ?? 0;
}

/** Whether `b` is `a` with two adjacent, different characters swapped (the commonest typo). */
export function isAdjacentSwap(a: string, b: string): boolean {
  const s = Array.from(a);
  const t = Array.from(b);
  if (s.length !== t.length) return false;
  const differ = s.flatMap((c, i) => (c === t[i] ? [] : [i]));
  const [i, j] = differ;
  return differ.length === 2 && i !== undefined && j === i + 1 && s[i] === t[j] && s[j] === t[i];
}

/** `word` with each pair of adjacent, different characters swapped: the commonest typos of it, or of the word meant. */
export function adjacentSwaps(word: string): string[] {
  const c = Array.from(word);
  const swaps = new Set<string>();
  for (let i = 0; i + 1 < c.length; i++) {
    if (c[i] !== c[i + 1]) swaps.add([...c.slice(0, i), c[i + 1], c[i], ...c.slice(i + 2)].join(""));
  }
  return [...swaps];
}

/**
 * LIKE patterns (`_` standing for any one character) that, matched against a whole word, find exactly the
 * words one edit from `word` (the word itself aside): each adjacent swap, each deletion, each character
 * replaced by `_`, and `_` inserted between two characters. `_` is not inserted before the first character
 * or after the last: such a word holds `word` itself, and the patterns are for a word no product holds.
 * `word` is letters and digits only (as `normalizeSearch` leaves it), so nothing in it needs escaping.
 */
export function oneEditPatterns(word: string): string[] {
  const c = Array.from(word);
  const patterns = new Set(adjacentSwaps(word));
  for (let i = 0; i < c.length; i++) {
    patterns.add([...c.slice(0, i), ...c.slice(i + 1)].join(""));
    patterns.add([...c.slice(0, i), "_", ...c.slice(i + 1)].join(""));
    if (i > 0) patterns.add([...c.slice(0, i), "_", ...c.slice(i)].join(""));
  }
  patterns.delete(word);
  patterns.delete("");
  return [...patterns];
}

/** A trigram index can look a LIKE spelling up only through a run of three characters without `_`. */
const TRIGRAM = 3;
/** What `_` stands for when a spelling has no such run: the characters of normalised words (mostly). */
const WORD_CHARACTERS = Array.from("abcdefghijklmnopqrstuvwxyz0123456789");

/**
 * The LIKE spellings a trigram index can look up that together match what `pattern` matches among words
 * of letters a–z and digits: the pattern itself when it keeps a run of three characters without `_`;
 * otherwise (a replaced or inserted character in the middle of a word of 4 or 5 letters: "n_de") one
 * spelling per character `_` may stand for ("nade", "nbde" … "n9de"), each of which keeps two trigrams.
 */
export function indexableSpellings(pattern: string): string[] {
  if (pattern.split("_").some((run) => Array.from(run).length >= TRIGRAM)) return [pattern];
  if (!pattern.includes("_")) return [pattern];
  return WORD_CHARACTERS.map((c) => pattern.replace("_", c));
}

export type Correction = { text: string; weight: number };

/** A one-edit correction weighs at least this, so a swap that trigrams barely see still ranks its products. */
const ONE_EDIT_MIN_WEIGHT = 0.5;
/** Below 1: a word as written always outranks a correction. */
const ONE_EDIT_MAX_WEIGHT = 0.99;

/**
 * The corrections for a word no product holds, from known words with their trigram similarity to it:
 * when some are one edit away, only those, swaps first (the commonest typo), then by similarity, weighing
 * their similarity but at least ONE_EDIT_MIN_WEIGHT and never more than the one before (so products of
 * the first, the one "Did you mean" offers, rank first); otherwise the most similar ones, weighing their
 * similarity, as before one-edit words were known. Every weight is below 1: words as written rank first.
 */
export function rankCorrections(
  word: string,
  known: readonly { text: string; similarity: number }[],
  max: number,
): Correction[] {
  const seen = new Set<string>();
  const unique = known.filter((k) => k.text !== word && !seen.has(k.text) && seen.add(k.text));
  const oneEdit = unique.filter((k) => osaDistance(word, k.text) === 1);
  const bySimilarity = (a: { text: string; similarity: number }, b: { text: string; similarity: number }) =>
    b.similarity - a.similarity || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0);
  if (oneEdit.length === 0) {
    return [...unique]
      .sort(bySimilarity)
      .slice(0, max)
      .map((k) => ({ text: k.text, weight: k.similarity }));
  }
  const swapFirst = (k: { text: string }) => (isAdjacentSwap(word, k.text) ? 0 : 1);
  let ceiling = ONE_EDIT_MAX_WEIGHT;
  return [...oneEdit]
    .sort((a, b) => swapFirst(a) - swapFirst(b) || bySimilarity(a, b))
    .slice(0, max)
    .map((k) => {
      ceiling = Math.min(ceiling, Math.max(k.similarity, ONE_EDIT_MIN_WEIGHT));
      return { text: k.text, weight: ceiling };
    });
}
