import { z } from "zod";
import { productCardSchema } from "#domain/catalog-schemas";
import { isCountryCode } from "#domain/countries";
import { paged, pageNumber } from "#domain/paging";
import { imagePath } from "#domain/product-admin";

export const STOREFRONT_NAME_MAX = 80;
export const STOREFRONT_DESCRIPTION_MAX = 2000;
export const STOREFRONT_WEBSITE_MAX = 200;
/** Products per page on a storefront: a multiple of the grid's 2, 3 and 4 columns. */
export const STOREFRONT_PAGE_SIZE = 12;
const SLUG_MAX = 60;

/**
 * The slug a new storefront takes from its name: lower case, every run of other characters one
 * hyphen, none at either end; the migration's backfill applies the same rule in SQL.
 */
export function storefrontSlugBase(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, SLUG_MAX)
    .replace(/^-+|-+$/g, "");
  return slug || "vendor";
}

export const storefrontSlugParam = z.object({
  slug: z.string().regex(/^[a-z0-9-]{1,80}$/, "Unknown storefront"),
});

/** An empty text field means "none". */
const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullable()
    .default(null)
    .transform((value) => (value ? value : null));

/** The seller's storefront form and `PUT /api/seller/storefront`. */
export const storefrontInputSchema = z.object({
  name: z
    .string({ error: "Storefront name is required" })
    .trim()
    .min(2, "Storefront name must be at least 2 characters")
    .max(STOREFRONT_NAME_MAX, `Storefront name must be at most ${STOREFRONT_NAME_MAX} characters`),
  description: optionalText(STOREFRONT_DESCRIPTION_MAX, "Description"),
  website: optionalText(STOREFRONT_WEBSITE_MAX, "Website").refine(
    (value) => value === null || isHttpsUrl(value),
    "Website must be a full https:// address",
  ),
  country: z
    .string()
    .nullable()
    .default(null)
    .transform((value) => (value ? value : null))
    .refine((value) => value === null || isCountryCode(value), "Please choose a country from the list"),
  /** One of our uploads; the server also checks it is the seller's own (or already their logo). */
  logoUrl: z
    .union([z.literal(""), imagePath])
    .nullable()
    .default(null)
    .transform((value) => (value ? value : null)),
});
export type StorefrontInput = z.input<typeof storefrontInputSchema>;
export type StorefrontValues = z.output<typeof storefrontInputSchema>;

function isHttpsUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (
    url.protocol === "https:" && url.hostname.includes(".") && url.username === "" && url.password === ""
  );
}

/**
 * A new name or logo the seller asked for (decision 0015): an untrusted seller's waits for an admin,
 * while the public storefront, its badge and the products' vendor keep the approved ones.
 */
export const storefrontChangeSchema = z.object({
  name: z.string(),
  logoUrl: z.string().nullable(),
  status: z.enum(["pending", "rejected"]),
  /** The admin's reason, when rejected. */
  reason: z.string().nullable(),
  submittedAt: z.string(),
});
export type StorefrontChange = z.infer<typeof storefrontChangeSchema>;

/** What the seller reads beside their storefront's name while a change waits or was refused. */
export function storefrontChangeLabel(change: Pick<StorefrontChange, "name" | "status" | "reason">): string {
  if (change.status === "pending") {
    return `"${change.name}" waits for an admin's review: your storefront and products show the approved name and logo until then.`;
  }
  return `"${change.name}" was not approved${change.reason ? `: ${change.reason}` : "."}`;
}

/** The seller's own storefront, as the dashboard form edits it. */
export const storefrontSchema = z.object({
  slug: z.string(),
  name: z.string(),
  logoUrl: z.string().nullable(),
  description: z.string().nullable(),
  website: z.string().nullable(),
  country: z.string().nullable(),
  isVerified: z.boolean(),
  verifiedAt: z.string().nullable(),
  updatedAt: z.string(),
  /** The name and logo asked for and not yet approved (or refused); null when there is none. */
  pendingChange: storefrontChangeSchema.nullable(),
});
export type Storefront = z.infer<typeof storefrontSchema>;

/** `GET /api/admin/storefront-changes`: the changes waiting for a decision, oldest first. */
export const storefrontChangeQueueItemSchema = z.object({
  slug: z.string(),
  currentName: z.string(),
  currentLogoUrl: z.string().nullable(),
  name: z.string(),
  logoUrl: z.string().nullable(),
  isVerified: z.boolean(),
  submittedAt: z.string(),
});
export type StorefrontChangeQueueItem = z.infer<typeof storefrontChangeQueueItemSchema>;
export const storefrontChangeQueueSchema = z.object({ items: z.array(storefrontChangeQueueItemSchema) });
export type StorefrontChangeQueue = z.infer<typeof storefrontChangeQueueSchema>;
export const storefrontAnswerSchema = z.object({ storefront: storefrontSchema });

export const vendorPageQuery = z.object({ page: pageNumber });

/**
 * `GET /api/vendors/{slug}`: the storefront, its public products (the catalogue's cards) and the
 * rating over their published reviews: sum of stars / count, one decimal (null without reviews).
 */
export const vendorPageSchema = z.object({
  slug: z.string(),
  name: z.string(),
  logoUrl: z.string().nullable(),
  description: z.string().nullable(),
  website: z.string().nullable(),
  country: z.string().nullable(),
  isVerified: z.boolean(),
  memberSince: z.string(),
  rating: z.number().nullable(),
  reviewsCount: z.number(),
  /** The seller's answer time on questions (`answerTimeLabel`, decision 0014); null with fewer than 3. */
  answerTime: z.string().nullable(),
  products: paged(productCardSchema),
});
export type VendorPage = z.infer<typeof vendorPageSchema>;

/** An admin's verify / unverify decision. */
export const storefrontVerificationSchema = z.object({ verified: z.boolean() });
export const storefrontVerificationAnswerSchema = z.object({
  slug: z.string(),
  isVerified: z.boolean(),
  verifiedAt: z.string().nullable(),
});
export type StorefrontVerification = z.infer<typeof storefrontVerificationAnswerSchema>;

/** Initials for a storefront without a logo: the first letters of its first two words. */
export function storefrontInitials(name: string): string {
  const letters = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0] ?? "")
    .join("");
  return letters.toUpperCase() || "?";
}
