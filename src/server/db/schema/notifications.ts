import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { user } from "#server/db/schema/auth";

/**
 * Something that asks a person to act (a sale to ship, a refund to answer, a decision to read): shown
 * in their notification list and e-mailed, both written in the transaction of the event that caused it
 * (`modules/notifications/service.ts`). `link` is a path of the app, where the person acts.
 */
export const notifications = pgTable(
  "notifications",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    kind: text().notNull(),
    title: text().notNull(),
    /** Paragraphs separated by a blank line; the e-mail uses the same words. */
    body: text().notNull(),
    link: text().notNull(),
    /** The words of the link: "Answer the request", "Ship the order". */
    action: text().notNull(),
    readAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // A person's list, newest first, and their unread count.
    index().on(t.userId, t.createdAt),
    index("notifications_unread").on(t.userId).where(sql`${t.readAt} is null`),
  ],
);
