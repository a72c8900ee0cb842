import { and, type SQL, sql } from "drizzle-orm";
import { searchWords } from "#domain/search";
import {
  adjacentSwaps,
  type Correction,
  indexableSpellings,
  isAdjacentSwap,
  ONE_EDIT_MIN_LENGTH,
  oneEditPatterns,
  osaDistance,
  rankCorrections,
} from "#domain/typos";
import { type Database, rowsOf } from "#server/db/client";
import { onSale } from "#server/db/products";
import { categories, products } from "#server/db/schema/catalog";
import { containsPattern, escapeLike } from "#server/lib/like";
import { loadSynonyms } from "#server/modules/catalog/repository";

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
/** Known words shorter than this are not offered: they are too easily "near" anything. */
const CORRECTION_MIN_LENGTH = 3;
/** At most this many known words stand for a misspelt one. */
const MAX_CORRECTIONS = 3;
/** Rows read in table order for a word before asking the trigram index whether any product holds it. */
const EXISTENCE_PREFIX_ROWS = 5_000;
/** Products whose words are weighed for corrections: enough to hold the word meant, bounded in cost. */
const CORRECTION_CANDIDATES = 200;
/** Known words most alike by trigrams that are weighed as corrections (those one edit away go first). */
const SIMILAR_WORDS = 20;
/** Products read for the words one edit from a word: each holds such a word. */
const ONE_EDIT_CANDIDATES = 200;

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
    const pattern = containsPattern(word);
    // Two proofs, the second only if the first fails. A common word is in the first rows on disk. Otherwise
    // the trigram index decides, through a materialised CTE so that PostgreSQL plans it for every row (a
    // plain `exists` plans for the first match and, for a rare or absent word, chose a sequential scan of
    // the whole table: 250 ms at 1,000,000 products, against 2-4 ms this way).
    const [found] = await rowsOf<{ found: boolean }>(
      db,
      sql`select (
        exists (select 1 from (select ${products.searchText} as text from ${products} where ${onSale()} limit ${EXISTENCE_PREFIX_ROWS}) first_rows
          where text like ${pattern})
        or exists (with matching as materialized (select 1 from ${products} where ${onSale()} and ${products.searchText} like ${pattern})
          select 1 from matching)
      ) as found`,
    );
    if (found?.found) return null;
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
  const similar = await rowsOf<{ word: string; similarity: number }>(
    db,
    sql`
    with candidates as (
      select ${products.searchName} as text from ${products}
      where ${onSale()} and ${word} <% ${products.searchName}
      limit ${CORRECTION_CANDIDATES}
    ),
    known as (
      select regexp_split_to_table(text, '[^[:alnum:]]+') as known from candidates
      union
      select regexp_split_to_table(immutable_unaccent(lower(${categories.name})), '[^[:alnum:]]+') from ${categories}
    )
    select known as word, similarity(${word}, known) as similarity from known
    where length(known) >= ${CORRECTION_MIN_LENGTH} and ${word} <% known
    order by similarity(${word}, known) desc, known
    limit ${SIMILAR_WORDS}`,
  );
  const known = similar.map((r) => ({ text: r.word, similarity: Number(r.similarity) }));
  if (known.some((k) => isAdjacentSwap(word, k.text))) return rankCorrections(word, known, MAX_CORRECTIONS);
  const oneEdit = known.some((k) => osaDistance(word, k.text) === 1);
  const spellings = oneEdit ? adjacentSwaps(word) : oneEditPatterns(word);
  return rankCorrections(word, [...known, ...(await wordsSpelt(db, word, spellings))], MAX_CORRECTIONS);
}

/**
 * Known words of the given spellings (LIKE patterns of letters, digits and `_`, as `oneEditPatterns`
 * writes them), with their trigram similarity to `word`: from up to ONE_EDIT_CANDIDATES products on sale
 * holding a word of one of them. Each spelling is looked up through the trigram index: with `like` when
 * it keeps a run of three characters, else ("n_de", `indexableSpellings`) as the expression `n[a-z0-9]de`,
 * whose trigrams the index spells out. A second expression, on `' ' || search_name` so that it filters
 * the rows found rather than joining the index lookup (as an index condition it made an absent spelling
 * cost 15 ms instead of 3 at 30,000 products), keeps only products holding such a whole word (`\m`,
 * `\M`), so "node" for "ndoe" is not crowded out by "nodes" or "anode". One statement for every
 * spelling: one subquery each, with a limit each, spent most of its time planning (22 subqueries for a
 * 6-letter word, 200-300 ms on a busy machine). The lookups are a materialised CTE, planned for every
 * row (as the existence probe above), with sequential scans off for the statement: the OR of 20-odd
 * spellings is estimated to match much of the table, and a sequential scan for spellings no product
 * holds read all of it (1.5 s at 100,000 products). A common spelling ("data" for "dtaa") is read in
 * full, once a minute at most.
 */
async function wordsSpelt(db: Database, word: string, patterns: string[]) {
  if (patterns.length === 0) return [];
  const lookup = (pattern: string) =>
    indexableSpellings(pattern)[0] === pattern
      ? sql`${products.searchName} like ${`%${pattern}%`}`
      : sql`${products.searchName} ~ ${pattern.replace("_", "[a-z0-9]")}`;
  const wholeWords = `\\m(${patterns.map((p) => p.replaceAll("_", "[[:alnum:]]")).join("|")})\\M`;
  const found = await db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    return rowsOf<{ word: string; similarity: number }>(
      tx,
      sql`
      with matching as materialized (
        select ${products.searchName} as text from ${products}
        where ${onSale()} and (${sql.join(patterns.map(lookup), sql` or `)})
      ),
      candidates as (
        select text from matching where (' ' || text) ~ ${wholeWords} limit ${ONE_EDIT_CANDIDATES}
      ),
      known as (
        select regexp_split_to_table(text, '[^[:alnum:]]+') as known from candidates
        union
        select regexp_split_to_table(immutable_unaccent(lower(${categories.name})), '[^[:alnum:]]+') from ${categories}
      )
      select known as word, similarity(${word}, known) as similarity from known
      where length(known) >= ${CORRECTION_MIN_LENGTH} and (${sql.join(
        patterns.map((pattern) => sql`known like ${pattern}`),
        sql` or `,
      )})`,
    );
  });
  return found.map((r) => ({ text: r.word, similarity: Number(r.similarity) }));
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
 * Every word must match: each of its alternatives is a substring of name, vendor or description
 * (`search_text`, GIN trigram index). Misspelt words were already replaced by known ones, so no
 * similarity is computed per product: a typo costs what the word meant costs.
 */
export function searchCondition(terms: SearchTerm[]): SQL | undefined {
  return and(
    ...terms.map(
      (term) =>
        sql`(${sql.join(
          term.alternatives.map(({ text }) => sql`${products.searchText} like ${containsPattern(text)}`),
          sql` or `,
        )})`,
    ),
  );
}

/**
 * Type-ahead's condition: every word, or one of its alternatives (a correction, a synonym), begins a word
 * of the product's name or vendor. A suggestion is a name under the search box: one that holds the text
 * only in its description ("includes" for "clud", a mention of the cloud in a data-cleaning service's)
 * reads as a wrong answer. The plain `like` lets the trigram index find the rows; the second keeps
 * those where the text starts a word.
 */
export function nameWordCondition(terms: SearchTerm[]): SQL | undefined {
  const name = products.searchName;
  return and(
    ...terms.map(
      (term) =>
        sql`(${sql.join(
          term.alternatives.map(
            ({ text }) =>
              sql`(${name} like ${containsPattern(text)} and ' ' || ${name} like ${`% ${escapeLike(text)}%`})`,
          ),
          sql` or `,
        )})`,
    ),
  );
}

/**
 * How well one alternative matches a product: 80 when the name starts with it, 60 when a word of the
 * name or vendor does, 40 anywhere in them, 25 in the description; times its weight, so a corrected
 * word (weight = similarity, below 1) ranks below words as written and nearer corrections first.
 * With several alternatives, one that does not match the product scores 0.
 */
function alternativeScore({ text, weight }: SearchTerm["alternatives"][number], several: boolean): SQL {
  const name = products.searchName;
  const score = sql`case
    when ${name} like ${`${escapeLike(text)}%`} then 80
    when ' ' || ${name} like ${`% ${escapeLike(text)}%`} then 60
    when ${name} like ${containsPattern(text)} then 40
    ${several ? sql`when ${products.searchText} like ${containsPattern(text)} then 25 else 0` : sql`else 25`}
  end`;
  return weight === 1 ? score : sql`(${weight}::float8 * ${score})`;
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

/** How products of equal relevance are ordered: the better rated, then the newer, then by id. */
const tieOrder = (): SQL[] => [
  sql`${products.ratingScore} desc nulls last`,
  sql`${products.createdAt} desc`,
  sql`${products.id} desc`,
];

/** Most relevant first; among equals, the better rated and then the newer, with the id as tie-breaker. */
export function relevanceOrder(terms: SearchTerm[]): SQL[] {
  return [sql`${relevanceScore(terms)} desc`, ...tieOrder()];
}

/**
 * The ids among which the first `rows` products of a one-word search in relevance order are, found
 * without scoring every match: in each tier, the first `rows` matches in tie order. The tiers are every
 * match, names equal to the word and, per alternative of the word, names starting with it, names with a
 * word starting with it, names holding it and (for a word with several) products holding it. Each tier
 * is the set of matches scoring at least some value, so every product of the true first `rows` is among
 * the first `rows` of the tier of its own score: ranking the union with `relevanceOrder` is exact. Each
 * tier is read off the rating index in tie order and stops after `rows`, so a word held by 10 % of the
 * catalogue costs a few hundred rows, not 100,000 scores and a sort.
 * Null for several words: their scores add up, the sets "scoring at least" are combinations of every
 * word's tiers, and ANDs of correlated conditions mislead the planner (measured: 290 ms instead of 50).
 */
export function rankedCandidates(where: SQL | undefined, terms: SearchTerm[], rows: number): SQL | null {
  const [term] = terms;
  if (!term || terms.length > 1) return null;
  const name = products.searchName;
  const tiers: (SQL | undefined)[] = [undefined, sql`lower(${products.name}) = ${term.word}`];
  for (const { text } of term.alternatives) {
    const starts = sql`${name} like ${`${escapeLike(text)}%`}`;
    // On the column itself (not on ' ' || name, as the score) so that its statistics estimate the tier.
    tiers.push(starts, sql`(${starts} or ${name} like ${`% ${escapeLike(text)}%`})`);
    tiers.push(sql`${name} like ${containsPattern(text)}`);
    if (term.alternatives.length > 1) tiers.push(sql`${products.searchText} like ${containsPattern(text)}`);
  }
  return sql.join(
    tiers.map(
      (tier) =>
        sql`(select ${products.id} from ${products} where ${and(where, tier)} order by ${sql.join(tieOrder(), sql`, `)} limit ${rows})`,
    ),
    sql` union `,
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
