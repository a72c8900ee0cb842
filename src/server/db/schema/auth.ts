import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * better-auth's tables (user, session, account, verification, two-factor) under our table names, with
 * the marketplace's profile and role columns on the user. Property names are the ones better-auth's
 * Drizzle adapter expects. E-mail verification codes live in `verifications` (better-auth's emailOTP).
 */
export const user = pgTable(
  "users",
  {
    id: text().primaryKey(),
    name: text().notNull(),
    email: text().notNull().unique(),
    emailVerified: boolean().notNull().default(false),
    image: text(),
    firstName: text().notNull().default(""),
    lastName: text().notNull().default(""),
    phone: text(),
    address: text(),
    city: text(),
    country: text(),
    isBuyer: boolean().notNull().default(true),
    isSeller: boolean().notNull().default(false),
    isReseller: boolean().notNull().default(false),
    isAdmin: boolean().notNull().default(false),
    isSuperAdmin: boolean().notNull().default(false),
    /** A seller whose new listings and edits go public without an admin's review (decision 0013). */
    isTrustedSeller: boolean().notNull().default(false),
    preferredCurrency: text().notNull().default("USD"),
    settings: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    twoFactorEnabled: boolean().notNull().default(false),
    banned: boolean().notNull().default(false),
    banReason: text(),
    banExpires: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // New users per day and month on the admin overview.
    index("users_created_at_index").on(t.createdAt),
    // The admin order search matches part of a buyer's e-mail or name with ILIKE.
    index("users_email_trgm").using("gin", t.email.op("gin_trgm_ops")),
    index("users_name_trgm").using("gin", t.name.op("gin_trgm_ops")),
  ],
);

export const session = pgTable(
  "sessions",
  {
    id: text().primaryKey(),
    token: text().notNull().unique(),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    ipAddress: text(),
    userAgent: text(),
    impersonatedBy: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.userId)],
);

export const account = pgTable(
  "accounts",
  {
    id: text().primaryKey(),
    accountId: text().notNull(),
    providerId: text().notNull(),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: text(),
    refreshToken: text(),
    idToken: text(),
    accessTokenExpiresAt: timestamp({ withTimezone: true }),
    refreshTokenExpiresAt: timestamp({ withTimezone: true }),
    scope: text(),
    password: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.userId)],
);

export const verification = pgTable(
  "verifications",
  {
    id: text().primaryKey(),
    identifier: text().notNull(),
    value: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.identifier)],
);

export const twoFactor = pgTable(
  "two_factors",
  {
    id: text().primaryKey(),
    secret: text().notNull(),
    backupCodes: text().notNull(),
    /** False between "enable" and the first correct code from the authenticator app. */
    verified: boolean().notNull().default(true),
    // Wrong codes at sign-in lock two-factor for a while (better-auth's lockout).
    failedVerificationCount: integer().notNull().default(0),
    lockedUntil: timestamp({ withTimezone: true }),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
  },
  (t) => [index().on(t.userId)],
);

/**
 * When a code was last e-mailed to an address, per purpose, so "one code a minute" holds across
 * instances and survives restarts. better-auth's own rows change on every wrong guess, so they can't
 * carry this.
 */
export const emailCodeSends = pgTable(
  "email_code_sends",
  {
    email: text().notNull(),
    purpose: text().notNull(),
    sentAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.email, t.purpose] })],
);

/**
 * Consecutive failed sign-ins per address, shared by every instance. Keyed by an HMAC of the
 * normalised e-mail (AUTH_SECRET), for unknown addresses exactly as for accounts, so the limit
 * answers the same whether or not an account exists, and the table holds no addresses.
 */
export const signInFailures = pgTable("sign_in_failures", {
  key: text().primaryKey(),
  failures: integer().notNull(),
  /** No attempt is accepted before this; null while the first few failures are free. */
  nextAttemptAt: timestamp({ withTimezone: true }),
  updatedAt: timestamp({ withTimezone: true }).notNull(),
});
