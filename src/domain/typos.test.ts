import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  indexableSpellings,
  isAdjacentSwap,
  oneEditPatterns,
  osaDistance,
  rankCorrections,
} from "#domain/typos";

/** The plain dynamic programme, all of its matrix kept: the reference `osaDistance` is checked against. */
function referenceOsa(a: string, b: string): number {
  const s = Array.from(a);
  const t = Array.from(b);
  const d = Array.from({ length: s.length + 1 }, (_, i) =>
    Array.from({ length: t.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const row = d[i]!;
      const above = d[i - 1]!;
      row[j] = Math.min(above[j]! + 1, row[j - 1]! + 1, above[j - 1]! + (s[i - 1] === t[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) {
        row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1);
      }
    }
  }
  return d[s.length]![t.length]!;
}

/** A whole word matched by a LIKE pattern of `oneEditPatterns` (`_` is any one character). */
const matchesPattern = (pattern: string, word: string) =>
  new RegExp(`^${pattern.replaceAll("_", ".")}$`, "u").test(word);

// Short words over a small alphabet, so that swaps, repeats and near words are frequent.
const word = fc.string({ unit: fc.constantFrom("a", "b", "c", "d", "é"), minLength: 0, maxLength: 8 });
const longWord = fc.string({ unit: fc.constantFrom("a", "b", "c", "d", "é"), minLength: 4, maxLength: 9 });

/** One random edit of a word: a swap of two adjacent characters, an insertion, a deletion or a substitution. */
const edited = longWord.chain((w) =>
  fc
    .record({
      kind: fc.constantFrom("swap", "insert", "delete", "substitute"),
      at: fc.nat({ max: w.length - 1 }),
      letter: fc.constantFrom("a", "b", "c", "d", "é", "z"),
    })
    .map(({ kind, at, letter }) => {
      const c = Array.from(w);
      if (kind === "swap" && at + 1 < c.length) [c[at], c[at + 1]] = [c[at + 1]!, c[at]!];
      if (kind === "insert") c.splice(at, 0, letter);
      if (kind === "delete") c.splice(at, 1);
      if (kind === "substitute") c[at] = letter;
      return { word: w, typo: c.join("") };
    }),
);

describe("osaDistance", () => {
  test.each([
    ["pipleine", "pipeline", 1],
    ["merdiian", "meridian", 1],
    ["wesbite", "website", 1],
    ["egde", "edge", 1],
    ["clod", "cloud", 1],
    ["qantum", "quantum", 1],
    ["helpdsk", "helpdesk", 1],
    ["nade", "node", 1],
    ["cloud", "cloud", 0],
    ["", "abc", 3],
    ["abc", "", 3],
    ["ca", "abc", 3],
    ["kitten", "sitting", 3],
    ["qunatum", "quantum", 1],
    ["abcd", "badc", 2],
  ])("osaDistance(%j, %j) is %i", (a, b, expected) => {
    expect(osaDistance(a, b)).toBe(expected);
    expect(osaDistance(b, a)).toBe(expected);
  });

  test("equals the full-matrix reference, is symmetric and zero only for equal words", () => {
    fc.assert(
      fc.property(word, word, (a, b) => {
        const d = osaDistance(a, b);
        expect(d).toBe(referenceOsa(a, b));
        expect(osaDistance(b, a)).toBe(d);
        expect(d === 0).toBe(a === b);
        expect(d).toBeGreaterThanOrEqual(Math.abs(Array.from(a).length - Array.from(b).length));
        expect(d).toBeLessThanOrEqual(Math.max(Array.from(a).length, Array.from(b).length));
      }),
    );
  });

  test("one swap, insertion, deletion or substitution is at most one edit", () => {
    fc.assert(
      fc.property(edited, ({ word: w, typo }) => {
        expect(osaDistance(w, typo)).toBe(w === typo ? 0 : 1);
      }),
    );
  });
});

describe("isAdjacentSwap", () => {
  test("is true only of two adjacent, different characters swapped", () => {
    expect(isAdjacentSwap("pipleine", "pipeline")).toBe(true);
    expect(isAdjacentSwap("egde", "edge")).toBe(true);
    expect(isAdjacentSwap("edge", "edge")).toBe(false);
    expect(isAdjacentSwap("nade", "node")).toBe(false);
    expect(isAdjacentSwap("abcd", "cbad")).toBe(false);
    expect(isAdjacentSwap("abcd", "badc")).toBe(false);
  });
});

describe("oneEditPatterns", () => {
  test("spell the swaps, deletions, substitutions and inner insertions of a word", () => {
    expect(oneEditPatterns("abcd").sort()).toEqual(
      [
        ...["bacd", "acbd", "abdc"],
        ...["bcd", "acd", "abd", "abc"],
        ...["_bcd", "a_cd", "ab_d", "abc_"],
        ...["a_bcd", "ab_cd", "abc_d"],
      ].sort(),
    );
    expect(oneEditPatterns("aabb")).not.toContain("aabb");
  });

  test("a whole word matches one of them exactly when it is one edit away (inner edits)", () => {
    fc.assert(
      fc.property(longWord, word, (w, other) => {
        const matched = oneEditPatterns(w).some((p) => matchesPattern(p, other));
        const d = osaDistance(w, other);
        // Words holding `w` itself (an insertion before or after it) are not looked for: `w` is absent.
        // So is `w`, which a substitution's `_` also matches: its corrections are looked for because no
        // product holds it.
        const holdsWord = other.includes(w);
        if (matched && other !== w) expect(d).toBe(1);
        if (d === 1 && !holdsWord) expect(matched).toBe(true);
      }),
      // The word itself, every run (a random pair is rarely equal).
      { examples: [["éébé", "éébé"]] },
    );
  });

  test("every single edit of a word is matched, unless it holds the word", () => {
    fc.assert(
      fc.property(edited, ({ word: w, typo }) => {
        // The typed word is `typo`; the word meant, `w`, must be found from it.
        if (typo === w || w.includes(typo) || Array.from(typo).length < 4) return;
        expect(oneEditPatterns(typo).some((p) => matchesPattern(p, w))).toBe(true);
      }),
    );
  });
});

describe("indexableSpellings", () => {
  test("keep a spelling with a run of three characters, spell out `_` in one without", () => {
    expect(indexableSpellings("pip_eine")).toEqual(["pip_eine"]);
    expect(indexableSpellings("_ode")).toEqual(["_ode"]);
    expect(indexableSpellings("edge")).toEqual(["edge"]);
    const spelt = indexableSpellings("n_de");
    expect(spelt).toHaveLength(36);
    expect(spelt).toContain("node");
    expect(spelt).toContain("n2de");
  });

  test("match, among words of a-z and digits, what the spelling matches", () => {
    const alphabet = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789".split(""));
    const shortWord = fc.string({ unit: alphabet, minLength: 4, maxLength: 5 });
    fc.assert(
      fc.property(shortWord, shortWord, (typed, other) => {
        for (const pattern of oneEditPatterns(typed)) {
          const spellings = indexableSpellings(pattern);
          for (const s of spellings) expect(s.split("_").some((run) => run.length >= 3)).toBe(true);
          expect(spellings.some((s) => matchesPattern(s, other))).toBe(matchesPattern(pattern, other));
        }
      }),
    );
  });
});

describe("rankCorrections", () => {
  test("words one edit away come first, swaps before other edits, and only they are kept", () => {
    const ranked = rankCorrections(
      "tset",
      [
        { text: "testing", similarity: 0.45 },
        { text: "set", similarity: 0.29 },
        { text: "test", similarity: 0.11 },
      ],
      3,
    );
    expect(ranked.map((c) => c.text)).toEqual(["test", "set"]);
    expect(ranked[0]!.weight).toBeGreaterThanOrEqual(ranked[1]!.weight);
    for (const c of ranked) expect(c.weight).toBeLessThan(1);
  });

  test("without a word one edit away, the most similar, weighed by their similarity", () => {
    expect(
      rankCorrections(
        "kubernxtxs",
        [
          { text: "kubernetes", similarity: 0.5 },
          { text: "kube", similarity: 0.3 },
          { text: "kubernetes", similarity: 0.5 },
        ],
        3,
      ),
    ).toEqual([
      { text: "kubernetes", weight: 0.5 },
      { text: "kube", weight: 0.3 },
    ]);
  });

  test("weights are below 1 and never increase down the list", () => {
    const known = fc.array(
      fc.record({ text: word, similarity: fc.double({ min: 0, max: 0.95, noNaN: true }) }),
      { maxLength: 12 },
    );
    fc.assert(
      fc.property(longWord, known, fc.integer({ min: 1, max: 5 }), (w, list, max) => {
        const ranked = rankCorrections(w, list, max);
        expect(ranked.length).toBeLessThanOrEqual(max);
        expect(ranked.map((c) => c.text)).not.toContain(w);
        for (const [i, c] of ranked.entries()) {
          expect(c.weight).toBeLessThan(1);
          if (i > 0) expect(c.weight).toBeLessThanOrEqual(ranked[i - 1]!.weight);
        }
      }),
    );
  });
});
