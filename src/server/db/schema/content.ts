import { boolean, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

export type SeoMeta = { title?: string; description?: string; og_image_url?: string };

export const sitePages = pgTable("site_pages", {
  id: uuid().primaryKey().defaultRandom(),
  slug: text().notNull().unique(),
  title: text().notNull(),
  content: text().notNull(),
  isActive: boolean().notNull().default(false),
  seoMeta: jsonb().$type<SeoMeta>(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const siteContentBlocks = pgTable("site_content_blocks", {
  id: uuid().primaryKey().defaultRandom(),
  key: text().notNull().unique(),
  content: text().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
