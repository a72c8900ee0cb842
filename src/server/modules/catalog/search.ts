import { and, type SQL, sql } from "drizzle-orm";
import { searchWords } from "#domain/search";
import type { Database } from "#server/db/client";
import { categories, products } from "#server/db/schema/catalog";
import { containsPattern, escapeLike } from "#server/lib/like";
import { loadSynonyms } from "#server/modules/search/repository";

/**
 * One word of a query and what may stand for it: the word itself and its synonyms (decision 0017).
 * Alternatives are normalised by `normalizeSearch` (letters, digits and single spaces), except a query
 * of punctuation only, which is kept as written.
 */
export type SearchTerm = { word: string; alternatives: string[] };

/** Trigrams mean little below this length: shorter words match only as written. */
const FUZZY_MIN_LENGTH = 4;
/** How long another instance may keep using synonyms an admin has since changed. */
const SYNONYMS_TTL_MS = 30_000;

type SynonymMap = Map<string, string[]>;
// Per database handle, so several apps in one process (tests) never share synonyms.
const synonymCache = new WeakMap<Database, { loadedAt: number; map: Promise<SynonymMap> }>();

async function synonymsOf(db: Database): Promise<SynonymMap> {
  const cached = synonymCache.get(db);
  if (cached && Date.now() - cached.loadedAt < SYNONYMS_TTL_MS) return cached.map;
  const map = loadSynonyms(db).then((rows) => new Map(rows.map((r) => [r.term, r.synonyms])));
  synonymCache.set(db, { loadedAt: Date.now(), map });
  // A failed load must not stay cached: the next search tries again.
  map.catch(() => synonymCache.delete(db));
  return map;
}

/** Called after an admin changes synonyms, so this instance's next search uses them. */
export function forgetSynonyms(db: Database) {
  synonymCache.delete(db);
}

/** The query's words, each with its synonyms. */
export async function searchTerms(db: Database, text: string): Promise<SearchTerm[]> {
  const words = searchWords(text);
  if (words.length === 0) {
    // Only punctuation ("%", "+"): matched as written, like any text, rather than ignored.
    const literal = text.trim().toLowerCase();
    return literal ? [{ word: literal, alternatives: [literal] }] : [];
  }
  const synonyms = await synonymsOf(db);
  return words.map((word) => ({ word, alternatives: [word, ...(synonyms.get(word) ?? [])] }));
}

// Both drivers answer raw SQL with `rows`; drizzle's type for it differs per driver.
const rows = async <T>(db: Database, query: SQL) =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

const contains = (text: string) => containsPattern(text);
// Fuzzy matching needs trigrams: a word of letters and digits long enough to have a few.
const fuzzy = (alternative: string) =>
  alternative.length >= FUZZY_MIN_LENGTH && /^[\p{L}\p{N}]+$/u.test(alternative);

/**
 * Every word must match, as written (a substring of name, vendor or description) or nearly (`<%`:
 * trigram word similarity above `pg_trgm.word_similarity_threshold`). Both forms are answered by the
 * GIN trigram index on `search_text`.
 */
export function searchCondition(terms: SearchTerm[]): SQL | undefined {
  return and(
    ...terms.map(
      (term) =>
        sql`(${sql.join(
          term.alternatives.map((alternative) =>
            fuzzy(alternative)
              ? sql`(${products.searchText} like ${contains(alternative)} or ${alternative} <% ${products.searchText})`
              : sql`${products.searchText} like ${contains(alternative)}`,
          ),
          sql` or `,
        )})`,
    ),
  );
}

const nameText = sql`immutable_unaccent(lower(${products.name}))`;
const vendorText = sql`immutable_unaccent(lower(coalesce(${products.vendor}, '')))`;

/**
 * How well one alternative matches a product, from 100 (the name or vendor is exactly the word) down
 * through prefixes and words of the name and vendor, the description, to a near spelling (at most 20,
 * so any exact match outranks every typo match).
 */
function alternativeScore(alternative: string): SQL {
  const prefix = `${escapeLike(alternative)}%`;
  const wordPrefix = `% ${escapeLike(alternative)}%`;
  const anywhere = contains(alternative);
  const near = fuzzy(alternative)
    ? sql`10 * strict_word_similarity(${alternative}, ${nameText} || ' ' || ${vendorText}) + 10 * word_similarity(${alternative}, ${products.searchText})`
    : sql`0`;
  return sql`case
    when ${nameText} = ${alternative} or ${vendorText} = ${alternative} then 100
    when ${nameText} like ${prefix} or ${vendorText} like ${prefix} then 80
    when ' ' || ${nameText} like ${wordPrefix} or ' ' || ${vendorText} like ${wordPrefix} then 60
    when ${nameText} like ${anywhere} or ${vendorText} like ${anywhere} then 40
    when ${products.searchText} like ${anywhere} then 25
    else ${near}
  end`;
}

/** The relevance score: each word's best alternative, summed, plus a bonus when the whole name is the query. */
export function relevanceScore(terms: SearchTerm[]): SQL {
  const phrase = terms.map((t) => t.word).join(" ");
  const perTerm = terms.map((term) =>
    term.alternatives.length === 1
      ? alternativeScore(term.alternatives[0]!)
      : sql`greatest(${sql.join(term.alternatives.map(alternativeScore), sql`, `)})`,
  );
  return sql`(${sql.join(perTerm, sql` + `)} + case when ${nameText} = ${phrase} then 100 else 0 end)`;
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
 * found as written, or when no known word is near enough.
 */
export async function didYouMean(db: Database, terms: SearchTerm[], onSale: SQL): Promise<string | null> {
  if (terms.length === 0) return null;
  const found = await rows<{ found: boolean }>(
    db,
    sql`
    select (${sql.join(
      terms.map(
        (term) =>
          sql`(${sql.join(
            term.alternatives.map(
              (alternative) =>
                sql`exists (select 1 from ${products} where ${onSale} and ${products.searchText} like ${contains(alternative)})`,
            ),
            sql` or `,
          )})`,
      ),
      sql` and `,
    )}) as found`,
  );
  if (found[0]?.found) return null;

  let changed = false;
  const words: string[] = [];
  for (const term of terms) {
    const nearest = await nearestKnownWord(db, term, onSale);
    if (nearest && nearest !== term.word) changed = true;
    words.push(nearest ?? term.word);
  }
  return changed ? words.join(" ") : null;
}

async function nearestKnownWord(db: Database, term: SearchTerm, onSale: SQL): Promise<string | null> {
  const { word } = term;
  const exact = await rows<{ found: boolean }>(
    db,
    sql`
    select exists (select 1 from ${products} where ${onSale} and ${products.searchText} like ${contains(word)}) as found`,
  );
  if (exact[0]?.found || word.length < SUGGESTED_WORD_MIN_LENGTH) return null;
  const result = await rows<{ word: string }>(
    db,
    sql`
    with candidates as (
      select ${nameText} || ' ' || ${vendorText} as text from ${products}
      where ${onSale} and ${word} <% ${products.searchText}
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
