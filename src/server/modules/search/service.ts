import type { Suggestions, Synonym } from "#domain/search";
import { searchWords, suggestionRank } from "#domain/search";
import type { Database } from "#server/db/client";
import { Conflict, NotFound } from "#server/errors";
import { type AuditActor, recordAudit } from "#server/lib/audit";
import { nameWordCondition } from "#server/modules/catalog/repository";
import { forgetSearchState, searchTerms } from "#server/modules/catalog/search";
import {
  deleteSynonym,
  findSynonym,
  insertSynonym,
  productsMatching,
  suggestCategories,
  suggestVendors,
  termTaken,
  updateSynonym,
} from "#server/modules/search/repository";

type SynonymValues = { term: string; synonyms: string[] };
type SynonymRow = SynonymValues & { id: string; updatedAt: Date };

const PRODUCT_SUGGESTIONS = 5;
/** Products read to pick the suggestions from: a few more than shown, so names starting with the text can come first. */
const PRODUCT_CANDIDATES = 20;
const VENDOR_SUGGESTIONS = 3;
const CATEGORY_SUGGESTIONS = 3;

const notFound = () => new NotFound("Synonym not found.", "SYNONYM_NOT_FOUND");
const taken = (term: string) =>
  new Conflict(`"${term}" already has synonyms. Edit that entry instead.`, "SYNONYM_EXISTS");

export const toSynonym = (row: SynonymRow): Synonym => ({
  id: row.id,
  term: row.term,
  synonyms: row.synonyms,
  updatedAt: row.updatedAt.toISOString(),
});

const audited = (row: SynonymValues) => ({ term: row.term, synonyms: row.synonyms.join(", ") });

export async function createSynonym(db: Database, actor: AuditActor, input: SynonymValues) {
  const row = await db.transaction(async (tx) => {
    const created = await insertSynonym(tx, input);
    if (!created) throw taken(input.term);
    await recordAudit(tx, actor, {
      action: "create",
      entityType: "search_synonym",
      entityId: created.id,
      entityLabel: created.term,
      before: null,
      after: audited(created),
    });
    return created;
  });
  forgetSearchState();
  return toSynonym(row);
}

export async function changeSynonym(db: Database, actor: AuditActor, id: string, input: SynonymValues) {
  const row = await db.transaction(async (tx) => {
    const before = await findSynonym(tx, id);
    if (!before) throw notFound();
    if (await termTaken(tx, input.term, id)) throw taken(input.term);
    const after = await updateSynonym(tx, id, input);
    if (!after) throw notFound();
    await recordAudit(tx, actor, {
      action: "update",
      entityType: "search_synonym",
      entityId: id,
      entityLabel: after.term,
      before: audited(before),
      after: audited(after),
    });
    return after;
  });
  forgetSearchState();
  return toSynonym(row);
}

export async function removeSynonym(db: Database, actor: AuditActor, id: string) {
  await db.transaction(async (tx) => {
    const before = await findSynonym(tx, id);
    if (!before) throw notFound();
    await deleteSynonym(tx, id);
    await recordAudit(tx, actor, {
      action: "delete",
      entityType: "search_synonym",
      entityId: id,
      entityLabel: before.term,
      before: audited(before),
      after: null,
    });
  });
  forgetSearchState();
}

/**
 * Type-ahead: a few products whose name or vendor has a word starting with each word typed (typos
 * corrected as in the listing), those whose name starts with it (or its correction) first; vendors and
 * categories by name, typos allowed.
 */
export async function suggestions(db: Database, q: string): Promise<Suggestions> {
  const text = searchWords(q).join(" ");
  if (!text) return { products: [], vendors: [], categories: [] };
  const terms = await searchTerms(db, q);
  const where = nameWordCondition(terms);
  const [matching, vendors, categories] = await Promise.all([
    where ? productsMatching(db, where, PRODUCT_CANDIDATES) : [],
    suggestVendors(db, text, VENDOR_SUGGESTIONS),
    suggestCategories(db, text, CATEGORY_SUGGESTIONS),
  ]);
  // What stands for the text: the text as typed, and each word's alternatives ("cloud" for "clod").
  const words = [text, ...terms.flatMap((term) => term.alternatives.map((a) => a.text))];
  const products = matching
    .map((product) => ({ product, rank: suggestionRank(product.name, words) }))
    .sort((a, b) => a.rank - b.rank || a.product.name.localeCompare(b.product.name))
    .slice(0, PRODUCT_SUGGESTIONS)
    .map(({ product }) => product);
  return { products, vendors, categories };
}
