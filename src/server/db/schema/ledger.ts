import { sql } from "drizzle-orm";
import { bigint, check, index, numeric, pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import { ledgerAccountKinds } from "#domain/ledger";

/**
 * The accounts of the double-entry ledger. An id says what the account is, e.g. `clearing`,
 * `seller_pending:<userId>`, `tax:IN`; an account is created the first time a line names it.
 */
export const ledgerAccounts = pgTable(
  "ledger_accounts",
  {
    id: text().primaryKey(),
    kind: text({ enum: ledgerAccountKinds }).notNull(),
    /** The seller or reseller whose money it is; kept as text so history outlives the account. */
    ownerId: text(),
    /** A tax account's jurisdiction (ISO country code). */
    jurisdiction: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("ledger_accounts_kind", sql.raw(`kind in (${ledgerAccountKinds.map((k) => `'${k}'`).join(", ")})`)),
    index().on(t.ownerId),
  ],
);

/**
 * One movement of money and its cause. `sourceKey` names the cause (`sale:<orderId>`,
 * `refund:<refundId>`, `payout:<payoutId>` ...) and is unique, so a cause is booked once however often
 * it is replayed. Entries and their lines are never changed or deleted (a trigger refuses it): a
 * correction is a new entry.
 */
export const journalEntries = pgTable(
  "journal_entries",
  {
    id: uuid().primaryKey().defaultRandom(),
    kind: text().notNull(),
    sourceKey: text().notNull().unique(),
    orderId: uuid(),
    orderItemId: uuid(),
    refundId: uuid(),
    commissionId: uuid(),
    payoutId: uuid(),
    memo: text().notNull(),
    createdBy: text(),
    occurredAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.kind, t.occurredAt), index().on(t.orderId), index().on(t.payoutId)],
);

/**
 * A line of an entry, in money units (1/10,000 USD): debits positive, credits negative. The lines of
 * each entry sum to zero, checked by a deferred constraint trigger when the transaction commits.
 */
export const journalLines = pgTable(
  "journal_lines",
  {
    id: uuid().primaryKey().defaultRandom(),
    entryId: uuid()
      .notNull()
      .references(() => journalEntries.id, { onDelete: "restrict" }),
    accountId: text()
      .notNull()
      .references(() => ledgerAccounts.id, { onDelete: "restrict" }),
    amount: bigint({ mode: "number" }).notNull(),
    /** The order item the line is about, so a sale's lines can be shown and reversed item by item. */
    orderItemId: uuid(),
  },
  (t) => [
    check("journal_lines_amount", sql`${t.amount} <> 0`),
    index().on(t.accountId),
    index().on(t.entryId),
    index().on(t.orderItemId),
  ],
);

/**
 * The platform fee: one `default` row, and overrides per category (`subject` = category slug) and per
 * seller (`subject` = user id). A seller's override beats its category's, which beats the default.
 */
export const feeRules = pgTable(
  "fee_rules",
  {
    scope: text({ enum: ["default", "category", "seller"] }).notNull(),
    subject: text().notNull().default(""),
    rate: numeric({ precision: 5, scale: 4 }).notNull(),
    updatedBy: text(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique().on(t.scope, t.subject),
    check("fee_rules_rate", sql`${t.rate} between 0 and 0.5`),
    check("fee_rules_scope", sql`${t.scope} in ('default', 'category', 'seller')`),
  ],
);

/** Admin changes to a jurisdiction's tax rate; a jurisdiction without a row uses the rate in the code. */
export const taxRates = pgTable(
  "tax_rates",
  {
    jurisdiction: text().primaryKey(),
    rate: numeric({ precision: 6, scale: 4 }).notNull(),
    updatedBy: text(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("tax_rates_rate", sql`${t.rate} between 0 and 0.5`)],
);
