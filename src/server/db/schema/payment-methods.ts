import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { savedMethodKinds } from "#domain/payment-methods";
import { user } from "#server/db/schema/auth";

/**
 * A buyer's customer at a provider (a Stripe customer, a PayPal customer id): made by the first setup
 * there, and given to every later one, so all the buyer's saved cards belong to one customer.
 */
export const paymentCustomers = pgTable(
  "payment_customers",
  {
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    provider: text().notNull(),
    customerRef: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.provider] })],
);

/**
 * A saved payment method (decision 0027): a card at Stripe or a PayPal vault token, by reference only,
 * or a bank transfer (no provider: its renewals are invoiced for payment by transfer). Removed ones are
 * kept (`removedAt`) for the attempts that name them; one live default per buyer.
 */
export const paymentMethods = pgTable(
  "payment_methods",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    kind: text({ enum: savedMethodKinds }).notNull(),
    /** `test`, `stripe` or `paypal`; null for a bank transfer. */
    provider: text(),
    customerRef: text(),
    methodRef: text(),
    brand: text(),
    last4: text(),
    expMonth: integer(),
    expYear: integer(),
    /** The provider's fingerprint of the card number, for the one-trial-per-card check. */
    fingerprint: text(),
    /** The PayPal account's e-mail, masked before it is stored. */
    email: text(),
    isDefault: boolean().notNull().default(false),
    /** Set by a hard decline: not charged again off-session; the reason is shown to the buyer. */
    declinedAt: timestamp({ withTimezone: true }),
    declineReason: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    removedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    check("payment_methods_kind", sql`${t.kind} in ('card', 'paypal', 'bank_transfer')`),
    check(
      "payment_methods_reference",
      sql`(${t.kind} = 'bank_transfer') = (${t.provider} is null and ${t.methodRef} is null)`,
    ),
    unique().on(t.provider, t.methodRef),
    uniqueIndex("payment_methods_one_default")
      .on(t.userId)
      .where(sql`${t.isDefault} and ${t.removedAt} is null`),
    index().on(t.userId, t.createdAt),
  ],
);

/**
 * One visit to a provider's page to save a method: opened by the buyer, finished by the return page or
 * the provider's webhook (whichever comes first; the other finds it done).
 */
export const paymentMethodSetups = pgTable(
  "payment_method_setups",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    kind: text().notNull(),
    provider: text().notNull(),
    /** The provider's session (a Checkout Session, a PayPal setup token); null until it answers. */
    providerRef: text(),
    state: text().notNull().default("pending"),
    reason: text(),
    methodId: uuid().references(() => paymentMethods.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("payment_method_setups_state", sql`${t.state} in ('pending', 'saved', 'failed', 'cancelled')`),
    unique().on(t.provider, t.providerRef),
    index().on(t.userId, t.createdAt),
  ],
);

/** The test provider's setup sessions: what Stripe or PayPal keep on their side of a setup. */
export const testSetupSessions = pgTable(
  "test_setup_sessions",
  {
    ref: text().primaryKey(),
    /** Our setup's id: the same setup opens the same session. */
    setupId: text().notNull().unique(),
    kind: text().notNull(),
    customerRef: text().notNull(),
    returnUrl: text().notNull(),
    cancelUrl: text().notNull(),
    state: text().notNull().default("pending"),
    /** The test card saved (its last four digits); null for PayPal. */
    card: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("test_setup_sessions_state", sql`${t.state} in ('pending', 'saved', 'cancelled')`)],
);
