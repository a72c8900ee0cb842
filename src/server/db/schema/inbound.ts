import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

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
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.createdAt)],
);

export const newsletterSubscriptions = pgTable("newsletter_subscriptions", {
  id: uuid().primaryKey().defaultRandom(),
  email: text().notNull().unique(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  unsubscribedAt: timestamp({ withTimezone: true }),
});
