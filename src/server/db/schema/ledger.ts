import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  unique,
  uuid,
} from "drizzle-orm/pg-core";
import { ledgerAccountKinds } from "#domain/ledger";
import { money } from "#server/db/schema/catalog";

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

/**
 * VAT numbers a register (VIES, HMRC) confirmed, kept a bounded time (`VAT_CHECK_CACHE_HOURS` in the tax
 * service) so a checkout does not ask again for every summary and order; only confirmations are kept.
 */
export const vatChecks = pgTable(
  "vat_checks",
  {
    /** Canonical, with its prefix ("DE136695976"). */
    vatNumber: text().primaryKey(),
    register: text().notNull(),
    /** The register's consultation number, when it gave one. */
    reference: text(),
    checkedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [check("vat_checks_register", sql`${t.register} in ('VIES', 'HMRC')`)],
);

/** A super admin's run of payouts: who approved it and the minimum balance it paid. */
export const payoutBatches = pgTable("payout_batches", {
  id: uuid().primaryKey().defaultRandom(),
  createdBy: text(),
  minimum: money().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * One payee's payout in a batch: the amount left their available balance when the batch was approved
 * (ledger entry `payout:<id>`), and then arrived (`payout_paid:<id>`) or came back (`payout_failed:<id>`).
 */
export const payouts = pgTable(
  "payouts",
  {
    id: uuid().primaryKey().defaultRandom(),
    batchId: uuid()
      .notNull()
      .references(() => payoutBatches.id, { onDelete: "restrict" }),
    userId: text().notNull(),
    role: text({ enum: ["seller", "reseller"] }).notNull(),
    amount: money().notNull(),
    method: text({ enum: ["stripe", "bank"] }).notNull(),
    /** Where it went, masked as the payee sees it. */
    destination: text().notNull(),
    /**
     * The payee's bank details as the batch approved them, sealed as on `payout_accounts`: the bank
     * payment file pays these, not whatever the payout details say when it is downloaded.
     */
    bankSealed: text(),
    /** The Stripe connected account the batch approved: the transfer goes there and nowhere else. */
    stripeAccountId: text(),
    status: text({ enum: ["processing", "paid", "failed"] })
      .notNull()
      .default("processing"),
    /** The Stripe transfer id, or the bank's reference the admin entered. */
    reference: text(),
    failureReason: text(),
    attempts: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    unique().on(t.batchId, t.userId, t.role),
    check("payouts_amount", sql`${t.amount} > 0`),
    check("payouts_status", sql`${t.status} in ('processing', 'paid', 'failed')`),
    check("payouts_role", sql`${t.role} in ('seller', 'reseller')`),
    check("payouts_method", sql`${t.method} in ('stripe', 'bank')`),
    index().on(t.userId, t.createdAt),
    index().on(t.batchId),
  ],
);
