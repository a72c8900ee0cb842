import { sql } from "drizzle-orm";
import { check, index, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";

export const contactMessages = pgTable(
  "contact_messages",
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    email: text().notNull(),
    subject: text().notNull(),
    message: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.createdAt)],
);

export const partnerApplications = pgTable(
  "partner_applications",
  {
    id: uuid().primaryKey().defaultRandom(),
    companyName: text().notNull(),
    contactPerson: text().notNull(),
    email: text().notNull(),
    productType: text().notNull(),
    country: text().notNull(),
    website: text().notNull(),
    companySize: text().notNull(),
    message: text().notNull(),
    status: text().notNull().default("new"),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index().on(t.createdAt),
    // The admin overview counts the applications still open.
    index().on(t.status),
    check("partner_applications_status", sql`${t.status} in ('new', 'reviewing', 'approved', 'rejected')`),
  ],
);

export const newsletterSubscriptions = pgTable("newsletter_subscriptions", {
  id: uuid().primaryKey().defaultRandom(),
  email: text().notNull().unique(),
  /** SHA-256 of the e-mailed tokens; the tokens themselves are never stored. */
  confirmTokenHash: text(),
  unsubscribeTokenHash: text(),
  confirmedAt: timestamp({ withTimezone: true }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  unsubscribedAt: timestamp({ withTimezone: true }),
});

/** One vote per visitor (an anonymous cookie id) per FAQ question; voting again changes it. */
export const faqVotes = pgTable(
  "faq_votes",
  {
    questionId: text().notNull(),
    visitorId: text().notNull(),
    vote: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.questionId, t.visitorId] }),
    check("faq_votes_vote", sql`${t.vote} in ('helpful', 'not_helpful')`),
  ],
);
