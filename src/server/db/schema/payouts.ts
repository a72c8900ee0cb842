import { sql } from "drizzle-orm";
import { check, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { user } from "#server/db/schema/auth";

/**
 * Where a seller or reseller is paid: one row per user. A Stripe connected account (its id, the status
 * Stripe's `account.updated` events last reported and what Stripe says is still due), or a bank account
 * whose details are sealed at rest (`lib/sealed.ts`, purpose `payout-bank-account`) with only the masked
 * number and the country in the clear.
 */
export const payoutAccounts = pgTable(
  "payout_accounts",
  {
    userId: text()
      .primaryKey()
      .references(() => user.id, { onDelete: "cascade" }),
    method: text().notNull(),
    /**
     * The idempotency key the connected account is created with: kept from the first attempt, so a
     * retry after a crash (or a double click) answers with the same Stripe account, not a second one.
     */
    stripeAccountKey: text(),
    stripeAccountId: text().unique(),
    stripeStatus: text(),
    stripeRequirements: jsonb().$type<string[]>().notNull().default([]),
    /** When Stripe produced the event the status comes from: an older event delivered late is ignored. */
    stripeStatusAt: timestamp({ withTimezone: true }),
    bankSealed: text(),
    bankMasked: text(),
    /** The bank's country, or the country the Stripe account was opened in (which Stripe keeps for good). */
    country: text(),
    /**
     * When the owner last chose where the money goes (bank details saved, a Stripe account started);
     * Stripe's status reports leave it. Payouts wait out a cooling-off period after it.
     */
    detailsChangedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("payout_accounts_method", sql`${t.method} in ('stripe', 'bank')`),
    check(
      "payout_accounts_stripe_status",
      sql`${t.stripeStatus} is null or ${t.stripeStatus} in ('onboarding', 'enabled', 'restricted')`,
    ),
    check(
      "payout_accounts_shape",
      sql`(${t.method} = 'stripe' and ${t.stripeAccountKey} is not null and ${t.stripeStatus} is not null and ${t.bankSealed} is null and ${t.country} is not null)
        or (${t.method} = 'bank' and ${t.bankSealed} is not null and ${t.bankMasked} is not null and ${t.country} is not null and ${t.stripeAccountId} is null)`,
    ),
  ],
);
