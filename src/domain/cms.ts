import { z } from "zod";
import { SLUG_PATTERN } from "#domain/slug";

/** The longest page body accepted, in characters of HTML. */
export const PAGE_CONTENT_MAX = 200_000;
/** The longest content block text accepted. */
export const CONTENT_BLOCK_MAX = 5_000;

const optionalText = (max: number, message: string) =>
  z.string().trim().max(max, message).optional().default("");

export const seoMetaSchema = z.object({
  title: optionalText(200, "SEO title must be at most 200 characters"),
  description: optionalText(500, "SEO description must be at most 500 characters"),
  ogImageUrl: z
    .string()
    .trim()
    .max(2000, "OG image URL must be a valid URL or empty")
    .refine(
      (value) => value === "" || z.url({ protocol: /^https?$/ }).safeParse(value).success,
      "OG image URL must be a valid URL or empty",
    )
    .optional()
    .default(""),
});
export type SeoMeta = z.output<typeof seoMetaSchema>;

/**
 * A page as the form sends it, for create and for update. `isActive` and `seoMeta` may be left out:
 * a new page is then a draft, an updated one keeps what it had.
 */
export const pageInputSchema = z.object({
  title: z.string().trim().min(1, "Title is required").max(200, "Title must be at most 200 characters"),
  slug: z
    .string()
    .trim()
    .min(1, "Slug is required")
    .max(100, "Slug must be at most 100 characters")
    .regex(SLUG_PATTERN, "Slug can only contain lowercase letters, numbers, and hyphens"),
  content: z
    .string()
    .trim()
    .min(1, "Content is required")
    .max(PAGE_CONTENT_MAX, `Content must be at most ${PAGE_CONTENT_MAX.toLocaleString("en-US")} characters`),
  isActive: z.boolean().optional(),
  seoMeta: seoMetaSchema.optional(),
});
export const PAGE_LINK_MESSAGE = "Enter a full address starting with https://, http:// or mailto:";

/**
 * A link the page editor inserts: a web page or an e-mail address, nothing the sanitiser would strip
 * (javascript:, data:) and nothing that depends on where the page is shown (relative paths).
 */
export const pageLinkSchema = z
  .string()
  .trim()
  .min(1, PAGE_LINK_MESSAGE)
  .max(2000, "Links must be at most 2,000 characters")
  .refine((value) => {
    if (/^mailto:/i.test(value)) return /^mailto:[^\s@]+@[^\s@]+$/i.test(value);
    return z.url({ protocol: /^https?$/ }).safeParse(value).success;
  }, PAGE_LINK_MESSAGE);

/** An image's text alternative: what a reader who cannot see the picture should learn from it. */
export const pageImageAltSchema = z
  .string()
  .trim()
  .min(1, "Describe the image for readers who cannot see it")
  .max(300, "Alt text must be at most 300 characters");
export type PageInput = z.input<typeof pageInputSchema>;
export type PageValues = z.output<typeof pageInputSchema>;

export const pageSchema = z.object({
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  content: z.string(),
  isActive: z.boolean(),
  seoMeta: z.object({ title: z.string(), description: z.string(), ogImageUrl: z.string() }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Page = z.infer<typeof pageSchema>;

/** What visitors get: an active page without its bookkeeping. */
export const publicPageSchema = pageSchema.pick({
  slug: true,
  title: true,
  content: true,
  seoMeta: true,
  updatedAt: true,
});
export type PublicPage = z.infer<typeof publicPageSchema>;

export const pageListItemSchema = pageSchema.pick({
  id: true,
  slug: true,
  title: true,
  isActive: true,
  updatedAt: true,
});
export const pageListSchema = z.object({ items: z.array(pageListItemSchema) });
export type PageListItem = z.infer<typeof pageListItemSchema>;

export const searchQuery = z.object({
  search: z.string().trim().max(200, "Search must be at most 200 characters").optional(),
});

/** Keys are dotted names like `home.hero.title`; nothing that needs escaping in a URL or a log line. */
export const CONTENT_BLOCK_KEY_PATTERN = /^[a-z0-9][a-z0-9._-]{0,79}$/;

export const contentBlockKeySchema = z
  .string()
  .regex(
    CONTENT_BLOCK_KEY_PATTERN,
    "Key must be 1 to 80 lowercase letters, digits, dots, underscores or hyphens",
  );

/** Blocks are plain text: the site renders them as text, never as HTML. */
export const contentBlockInputSchema = z.object({
  content: z
    .string()
    .trim()
    .min(1, "Content is required")
    .max(
      CONTENT_BLOCK_MAX,
      `Content must be at most ${CONTENT_BLOCK_MAX.toLocaleString("en-US")} characters`,
    ),
});
export type ContentBlockInput = z.input<typeof contentBlockInputSchema>;

export const contentBlockSchema = z.object({
  key: z.string(),
  content: z.string(),
  /** When it was last saved; null for a known block nobody has saved yet. */
  updatedAt: z.string().nullable(),
  /** True when the text is the built-in default because the database has no row for the key. */
  isDefault: z.boolean(),
});
export type ContentBlock = z.infer<typeof contentBlockSchema>;
export const contentBlockListSchema = z.object({ items: z.array(contentBlockSchema) });
