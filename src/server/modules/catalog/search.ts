import { searchWords } from "#domain/search";
import {
  adjacentSwaps,
  type Correction,
  isAdjacentSwap,
  ONE_EDIT_MIN_LENGTH,
  oneEditPatterns,
  osaDistance,
  rankCorrections,
} from "#domain/typos";
import type { Database } from "#server/db/client";
import {
  loadSynonyms,
  productHoldsWord,
  similarKnownWords,
  wordsSpelt,
} from "#server/modules/catalog/repository";

/**
 * One word of a query and what may stand for it (decision 0017): the word itself and its synonyms, as
 * normalised by `normalizeSearch`, each with weight 1; a word found nowhere in the catalogue is replaced
 * by the known words nearest to it, weighted by their similarity (below 1), and `corrected` is set.
 * A query of punctuation only is kept as written.
 */
export type SearchTerm = {
  word: string;
  corrected: boolean;
  alternatives: { text: string; weight: number }[];
};

/** Trigrams and edits mean little below this length: shorter words match only as written. */
const FUZZY_MIN_LENGTH = ONE_EDIT_MIN_LENGTH;
/** A backstop: every catalogue change (synonyms included) clears them at once, on every instance. */
const SYNONYMS_TTL_MS = 30_000;
/** How long what was learnt about a word (in the catalogue or not, its nearest words) is trusted. */
const WORD_TTL_MS = 60_000;
const WORD_MAX_ENTRIES = 10_000;
/** At most this many known words stand for a misspelt one. */
const MAX_CORRECTIONS = 3;

type SynonymMap = Map<string, string[]>;
type PerDatabase = {
  synonyms?: { loadedAt: number; map: Promise<SynonymMap> };
  /** Per word: null when the catalogue holds it as written, else its nearest known words. */
  words: Map<string, { at: number; corrections: Promise<Correction[] | null> }>;
};
// Per database handle, so several apps in one process (tests) never share what they learnt; all of it
// is dropped when the catalogue changes (a new product brings new words; synonyms may have changed).
const state = new WeakMap<Database, PerDatabase & { generation: number }>();
let generation = 0;
const stateOf = (db: Database) => {
  let found = state.get(db);
  if (!found || found.generation !== generation) {
    found = { words: new Map(), generation };
    state.set(db, found);
  }
  return found;
};

async function synonymsOf(db: Database): Promise<SynonymMap> {
  const own = stateOf(db);
  const cached = own.synonyms;
  if (cached && Date.now() - cached.loadedAt < SYNONYMS_TTL_MS) return cached.map;
  const map = loadSynonyms(db).then((list) => new Map(list.map((r) => [r.term, r.synonyms])));
  own.synonyms = { loadedAt: Date.now(), map };
  // A failed load must not stay cached: the next search tries again.
  map.catch(() => {
    if (own.synonyms?.map === map) own.synonyms = undefined;
  });
  return map;
}

/**
 * Forgets the synonyms and words learnt, for every database handle (public reads run on pooled
 * connections of their own): called when the catalogue or its synonyms change on any instance.
 */
export function forgetSearchState() {
  generation++;
}

// Near spellings need trigrams: a word of letters and digits long enough to have a few.
const correctable = (text: string) => text.length >= FUZZY_MIN_LENGTH && /^[\p{L}\p{N}]+$/u.test(text);

/**
 * Null when a product on sale holds the word as written (a common word is found by the first rows
 * read, a rare one through the trigram index); otherwise the known words nearest to it. Remembered
 * for a minute, so a popular typo costs one lookup, not one per request.
 */
function correctionsOf(db: Database, word: string): Promise<Correction[] | null> {
  const { words } = stateOf(db);
  const cached = words.get(word);
  if (cached && Date.now() - cached.at < WORD_TTL_MS) return cached.corrections;
  if (words.size >= WORD_MAX_ENTRIES) words.clear();
  const corrections = (async () => {
    if (await productHoldsWord(db, word)) return null;
    return nearestKnownWords(db, word);
  })();
  words.set(word, { at: Date.now(), corrections });
  corrections.catch(() => words.delete(word));
  return corrections;
}

/**
 * The known words (of the names and vendors of products on sale, and of category names) nearest to a
 * word found nowhere (`rankCorrections`): those one edit away (a swap, insertion, deletion or substitution,
 * `osaDistance`), swaps first, else those most alike by trigrams. The trigram candidates come first, as
 * they are cheap: they share enough trigrams with the word (`<%`, the word-similarity threshold, through
 * the name index), ranked by trigram similarity, which prefers words of about its length ("strpie" is
 * nearer "stripe" than "stratowell"). A swap in a short word shares too few trigrams to be among them
 * ("pipleine" and "pipeline" 0.38, "egde" and "edge" 0.11), so unless one of them is a swap of the word,
 * words one edit away are then looked for by their spellings (`wordsSpelt`): the swaps alone when the
 * trigrams found a word one edit away ("usite" is nearer "suite" than "site"), every edit otherwise.
 */
async function nearestKnownWords(db: Database, word: string): Promise<Correction[]> {
  const known = await similarKnownWords(db, word);
  if (known.some((k) => isAdjacentSwap(word, k.text))) return rankCorrections(word, known, MAX_CORRECTIONS);
  const oneEdit = known.some((k) => osaDistance(word, k.text) === 1);
  const spellings = oneEdit ? adjacentSwaps(word) : oneEditPatterns(word);
  return rankCorrections(word, [...known, ...(await wordsSpelt(db, word, spellings))], MAX_CORRECTIONS);
}

/** The query's words, each with its synonyms, and a misspelt word replaced by the known words nearest to it. */
export async function searchTerms(db: Database, text: string): Promise<SearchTerm[]> {
  const words = searchWords(text);
  if (words.length === 0) {
    // Only punctuation ("%", "+"): matched as written, like any text, rather than ignored.
    const literal = text.trim().toLowerCase();
    return literal ? [{ word: literal, corrected: false, alternatives: [{ text: literal, weight: 1 }] }] : [];
  }
  const synonyms = await synonymsOf(db);
  return Promise.all(
    words.map(async (word): Promise<SearchTerm> => {
      const written = [word, ...(synonyms.get(word) ?? [])];
      const corrections = correctable(word) ? await correctionsOf(db, word) : null;
      // A synonym makes the word meaningful even if no product holds the word itself.
      if (!corrections || corrections.length === 0 || written.length > 1) {
        return { word, corrected: false, alternatives: written.map((t) => ({ text: t, weight: 1 })) };
      }
      return { word, corrected: true, alternatives: corrections };
    }),
  );
}

/**
 * "Did you mean …": the query with each misspelt word replaced by the known word nearest to it; null
 * when every word was found as written (or through a synonym), or none has a near known word.
 */
export function didYouMean(terms: SearchTerm[]): string | undefined {
  if (!terms.some((term) => term.corrected)) return undefined;
  return terms.map((term) => (term.corrected ? term.alternatives[0]!.text : term.word)).join(" ");
}
