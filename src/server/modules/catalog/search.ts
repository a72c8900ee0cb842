import { and, type SQL, sql } from "drizzle-orm";
import { searchWords } from "#domain/search";
import type { Database } from "#server/db/client";
import { categories, products } from "#server/db/schema/catalog";
import { containsPattern, escapeLike } from "#server/lib/like";
import { onSale } from "#server/modules/catalog/repository";
import { loadSynonyms } from "#server/modules/search/repository";

/**
 * One word of a query and what may stand for it: the word itself and its synonyms (decision 0017).
 * Alternatives are normalised by `normalizeSearch` (letters, digits and single spaces), except a query
 * of punctuation only, which is kept as written. `fuzzy`: the alternative is found nowhere as written,
 * so near spellings of it are matched instead.
 */
export type SearchTerm = { word: string; alternatives: { text: string; fuzzy: boolean }[] };

/** Trigrams mean little below this length: shorter words match only as written. */
const FUZZY_MIN_LENGTH = 4;
/** How long another instance may keep using synonyms an admin has since changed. */
const SYNONYMS_TTL_MS = 30_000;
/** How long "this word is (not) in the catalogue" is trusted; a new product may change it. */
const KNOWN_TTL_MS = 60_000;
const KNOWN_MAX_ENTRIES = 10_000;

type SynonymMap = Map<string, string[]>;
type PerDatabase = {
  synonyms?: { loadedAt: number; map: Promise<SynonymMap> };
  known: Map<string, { at: number; known: Promise<boolean> }>;
};
// Per database handle, so several apps in one process (tests) never share what they learnt.
const state = new WeakMap<Database, PerDatabase>();
const stateOf = (db: Database) => {
  let found = state.get(db);
  if (!found) {
    found = { known: new Map() };
    state.set(db, found);
  }
  return found;
};

// Both drivers answer raw SQL with `rows`; drizzle's type for it differs per driver.
const rows = async <T>(db: Database, query: SQL) =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

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

/** Called after an admin changes synonyms, so this instance's next search uses them. */
export function forgetSynonyms(db: Database) {
  stateOf(db).synonyms = undefined;
}

/**
 * Whether any product on sale holds the text as written. Cheap either way: a common word is found by
 * the first rows read, a rare one through the trigram index; and remembered for a minute.
 */
function isKnown(db: Database, text: string): Promise<boolean> {
  const { known } = stateOf(db);
  const cached = known.get(text);
  if (cached && Date.now() - cached.at < KNOWN_TTL_MS) return cached.known;
  if (known.size >= KNOWN_MAX_ENTRIES) known.clear();
  const answer = rows<{ found: boolean }>(
    db,
    sql`select exists (select 1 from ${products} where ${onSale()} and ${products.searchText} like ${containsPattern(text)}) as found`,
  ).then((r) => Boolean(r[0]?.found));
  known.set(text, { at: Date.now(), known: answer });
  answer.catch(() => known.delete(text));
  return answer;
}

// Fuzzy matching needs trigrams: a word of letters and digits long enough to have a few.
const fuzzyCandidate = (text: string) => text.length >= FUZZY_MIN_LENGTH && /^[\p{L}\p{N}]+$/u.test(text);

/** The query's words, each with its synonyms, each marked fuzzy when it is found nowhere as written. */
export async function searchTerms(db: Database, text: string): Promise<SearchTerm[]> {
  const words = searchWords(text);
  if (words.length === 0) {
    // Only punctuation ("%", "+"): matched as written, like any text, rather than ignored.
    const literal = text.trim().toLowerCase();
    return literal ? [{ word: literal, alternatives: [{ text: literal, fuzzy: false }] }] : [];
  }
  const synonyms = await synonymsOf(db);
  return Promise.all(
    words.map(async (word) => ({
      word,
      alternatives: await Promise.all(
        [word, ...(synonyms.get(word) ?? [])].map(async (alternative) => ({
          text: alternative,
          fuzzy: fuzzyCandidate(alternative) && !(await isKnown(db, alternative)),
        })),
      ),
    })),
  );
}

/**
 * Every word must match: as written (a substring of name, vendor or description), or, for a word found
 * nowhere as written, nearly (`<%`: trigram word similarity with a word of the name or vendor above
 * `pg_trgm.word_similarity_threshold`). Both are answered by GIN trigram indexes. Near spellings are
 * not sought for words the catalogue holds: they would cost a similarity test on every product
 * holding a common word, and a person who typed a real word rarely meant another.
 */
export function searchCondition(terms: SearchTerm[]): SQL | undefined {
  return and(
    ...terms.map(
      (term) =>
        sql`(${sql.join(
          term.alternatives.map(({ text, fuzzy }) =>
            fuzzy
              ? sql`${text} <% ${products.searchName}`
              : sql`${products.searchText} like ${containsPattern(text)}`,
          ),
          sql` or `,
        )})`,
    ),
  );
}

/**
 * How well one alternative matches a product: 80 when the name starts with it, 60 when a word of the
 * name or vendor does, 40 anywhere in them, 25 in the description, and at most 20 for a near spelling,
 * so any match as written outranks every typo match. With synonyms, an alternative that does not match
 * the product scores 0 (only one of them needs to).
 */
function alternativeScore({ text, fuzzy }: SearchTerm["alternatives"][number], several: boolean): SQL {
  const name = products.searchName;
  if (fuzzy) return sql`20 * strict_word_similarity(${text}, ${name})`;
  return sql`case
    when ${name} like ${`${escapeLike(text)}%`} then 80
    when ' ' || ${name} like ${`% ${escapeLike(text)}%`} then 60
    when ${name} like ${containsPattern(text)} then 40
    ${several ? sql`when ${products.searchText} like ${containsPattern(text)} then 25 else 0` : sql`else 25`}
  end`;
}

/** The relevance score: each word's best alternative, summed, plus a bonus when the name is the query. */
export function relevanceScore(terms: SearchTerm[]): SQL {
  const phrase = terms.map((t) => t.word).join(" ");
  const perTerm = terms.map((term) =>
    term.alternatives.length === 1
      ? alternativeScore(term.alternatives[0]!, false)
      : sql`greatest(${sql.join(
          term.alternatives.map((alternative) => alternativeScore(alternative, true)),
          sql`, `,
        )})`,
  );
  return sql`(${sql.join(perTerm, sql` + `)} + case when lower(${products.name}) = ${phrase} then 100 else 0 end)`;
}

/** Most relevant first; among equals, the better rated and then the newer, with the id as tie-breaker. */
export function relevanceOrder(terms: SearchTerm[]): SQL[] {
  return [
    sql`${relevanceScore(terms)} desc`,
    sql`${products.ratingScore} desc nulls last`,
    sql`${products.createdAt} desc`,
    sql`${products.id} desc`,
  ];
}

/** Known words shorter than this are not offered: they are too easily "near" anything. */
const SUGGESTED_WORD_MIN_LENGTH = 3;
/** How alike (pg_trgm `similarity`) a known word must be to a query word to be suggested instead. */
const SUGGESTION_SIMILARITY = 0.3;
/** Products whose words are weighed for a suggestion: enough to hold the word meant, bounded in cost. */
const SUGGESTION_CANDIDATES = 200;

/**
 * "Did you mean …": when a word of the query is found nowhere as written, the known word (from the
 * names and vendors of products on sale, and category names) nearest to it. Null when every word is
 * found as written (or through a synonym), or when no known word is near enough.
 */
export async function didYouMean(db: Database, terms: SearchTerm[]): Promise<string | null> {
  const unknown = (term: SearchTerm) => term.alternatives.every((a) => a.fuzzy);
  if (!terms.some(unknown)) return null;
  let changed = false;
  const words: string[] = [];
  for (const term of terms) {
    const nearest = unknown(term) ? await nearestKnownWord(db, term.word) : null;
    if (nearest && nearest !== term.word) changed = true;
    words.push(nearest ?? term.word);
  }
  return changed ? words.join(" ") : null;
}

async function nearestKnownWord(db: Database, word: string): Promise<string | null> {
  if (word.length < SUGGESTED_WORD_MIN_LENGTH) return null;
  const result = await rows<{ word: string }>(
    db,
    sql`
    with candidates as (
      select ${products.searchName} as text from ${products}
      where ${onSale()} and ${word} <% ${products.searchName}
      limit ${SUGGESTION_CANDIDATES}
    ),
    known as (
      select regexp_split_to_table(text, '[^[:alnum:]]+') as known from candidates
      union
      select regexp_split_to_table(immutable_unaccent(lower(${categories.name})), '[^[:alnum:]]+') from ${categories}
    )
    select known as word from known
    where length(known) >= ${SUGGESTED_WORD_MIN_LENGTH} and similarity(${word}, known) >= ${SUGGESTION_SIMILARITY}
    order by similarity(${word}, known) desc, known
    limit 1`,
  );
  return result[0]?.word ?? null;
}
