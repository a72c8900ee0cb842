import { sql } from "drizzle-orm";
import { check, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * Words that search treats as the same (decision 0017): a query word equal to `term` also matches each
 * of `synonyms`. Both are stored normalised (lower case, no accents), as search compares them.
 */
export const searchSynonyms = pgTable(
  "search_synonyms",
  {
    id: uuid().primaryKey().defaultRandom(),
    term: text().notNull().unique(),
    synonyms: text().array().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("search_synonyms_not_empty", sql`cardinality(${t.synonyms}) > 0`)],
);
