import { z } from "zod";
import { MAX_SEARCH_LENGTH } from "#domain/catalog";
import { pricingUnitSchema } from "#domain/catalog-schemas";
import { DEFAULT_COMMISSION_RATE, MAX_COMMISSION_RATE } from "#domain/commissions";
import { payAsYouGoSchema } from "#domain/metering";
import { moderationStatusSchema } from "#domain/moderation";
import { MONEY_SCALE } from "#domain/money";
import { paged, pageNumber } from "#domain/paging";

export const MANAGE_PRODUCTS_PAGE_SIZE = 25;
export const MAX_PRODUCT_IMAGES = 8;
export const MAX_PRODUCT_FEATURES = 30;
export const MAX_PRODUCT_SPECIFICATIONS = 50;
export const MAX_FEATURE_LENGTH = 200;
/**
 * A million dollars: with MAX_QUANTITY and MAX_ORDER_LINES (#domain/checkout) the largest order's
 * subtotal, tax and total still fit the numeric(14,4) money columns (checkout.test.ts proves it).
 */
export const MAX_PRICE = 1_000_000;
/** Upload limits as the spec words them; the upload endpoint enforces the same. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const IMAGE_TYPE_MESSAGE = "Please select an image file";
export const IMAGE_SIZE_MESSAGE = "Image size must be less than 5MB";

/** `POST /api/uploads/images`: where the re-encoded picture and its thumbnail now live, and its size. */
export const uploadedImageSchema = z.object({
  url: z.string(),
  thumbnailUrl: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type UploadedImage = z.infer<typeof uploadedImageSchema>;

/** The spec's checks on a picked file, before it is sent: null when it may be uploaded. */
export function imageFileProblem(file: { type: string; size: number }): string | null {
  if (!file.type.startsWith("image/")) return IMAGE_TYPE_MESSAGE;
  if (file.size >= MAX_IMAGE_BYTES) return IMAGE_SIZE_MESSAGE;
  return null;
}

/** Form inputs give text; JSON gives numbers or null. Either way an empty field means "not given". */
const blankToUndefined = (value: unknown) => {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "string") return value.trim() === "" ? undefined : Number(value);
  return value;
};

const hasAtMostDecimals = (value: number, places: number) => {
  const scaled = value * 10 ** places;
  return Math.abs(scaled - Math.round(scaled)) < 1e-6;
};

/**
 * USD amounts. Four decimals, as stored: per-call API products are priced like $0.004, and a product
 * the form cannot save unchanged would be a trap.
 */
const amount = (label: string) =>
  z
    .number({
      error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be a number`),
    })
    .min(0, `${label} must be 0 or more`)
    .max(MAX_PRICE, `${label} must be at most $${MAX_PRICE.toLocaleString("en-US")}`)
    .refine((v) => hasAtMostDecimals(v, MONEY_SCALE), `${label} can have at most ${MONEY_SCALE} decimals`);

const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess(blankToUndefined, schema.optional()).transform((v) => v ?? null);

/** Optional text: trimmed, and an empty field is stored as null. */
const optionalText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v ? v : null));

/**
 * A picture uploaded to Stackbay: a path under /uploads/ (local storage) or an http(s) address (the
 * bucket of S3 storage), each part a plain file or folder name, so no `..` tricks, query or fragment
 * get into product pages. The server also checks an address is one of its storage's (other sites are refused).
 */
export const imagePath = z
  .string({ error: "Images must be uploaded to Stackbay" })
  .trim()
  .max(300, "Image path is too long")
  .regex(
    /^(\/uploads|https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?)(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)+$/,
    "Images must be uploaded to Stackbay",
  );

export const featureText = z
  .string({ error: "Feature must be text" })
  .trim()
  .min(1, "Feature can't be empty")
  .max(MAX_FEATURE_LENGTH, `Feature must be at most ${MAX_FEATURE_LENGTH} characters`);

export const specificationRow = z.object({
  key: z
    .string({ error: "Specification name is required" })
    .trim()
    .min(1, "Specification name is required")
    .max(100, "Specification name must be at most 100 characters"),
  value: z
    .string({ error: "Specification value is required" })
    .trim()
    .min(1, "Specification value is required")
    .max(500, "Specification value must be at most 500 characters"),
});

/** Every editable field but the lists, shared by the API body and the form. */
const productScalars = z.object({
  name: z
    .string({ error: "Product name is required" })
    .trim()
    .min(1, "Product name is required")
    .max(200, "Product name must be at most 200 characters"),
  vendor: optionalText("Vendor", 120),
  description: optionalText("Description", 5000),
  category: z
    .string({ error: "Please select a category" })
    .trim()
    .min(1, "Please select a category")
    .regex(/^[a-z0-9-]{1,60}$/, "Please select a category"),
  price: z.preprocess(blankToUndefined, amount("Price")),
  originalPrice: optional(amount("Original price")),
  /** A select gives "" for "not set"; stored as null, which reads by the spec's fallback. */
  pricingUnit: z
    .preprocess((v) => (v === "" ? null : v), pricingUnitSchema.nullish())
    .transform((v) => v ?? null),
  discountLabel: optionalText("Discount label", 60),
  discountPercentage: optional(
    z
      .number({ error: "Discount percentage must be a number" })
      .int("Discount percentage must be a whole number")
      .min(0, "Discount percentage must be between 0 and 100")
      .max(100, "Discount percentage must be between 0 and 100"),
  ),
  isActive: z.boolean({ error: "Active must be true or false" }).default(true),
  isResellable: z.boolean({ error: "Resellable must be true or false" }).default(false),
  /** The reseller commission the seller offers, in percent of the item subtotal (stored as a rate). */
  commissionPercent: z
    .preprocess(
      blankToUndefined,
      z
        .number({ error: "Commission must be a number" })
        .min(0, "Commission must be between 0 and 50%")
        .max(MAX_COMMISSION_RATE * 100, "Commission must be between 0 and 50%")
        .refine((v) => hasAtMostDecimals(v, 2), "Commission can have at most 2 decimals")
        .optional(),
    )
    .transform((v) => v ?? DEFAULT_COMMISSION_RATE * 100),
});

const features = z
  .array(featureText, { error: "Features must be a list" })
  .max(MAX_PRODUCT_FEATURES, `A product can have at most ${MAX_PRODUCT_FEATURES} features`);
const specifications = z
  .array(specificationRow, { error: "Specifications must be a list" })
  .max(MAX_PRODUCT_SPECIFICATIONS, `A product can have at most ${MAX_PRODUCT_SPECIFICATIONS} specifications`);
const images = z
  .array(imagePath, { error: "Images must be a list" })
  .max(MAX_PRODUCT_IMAGES, `A product can have at most ${MAX_PRODUCT_IMAGES} images`)
  .refine((list) => new Set(list).size === list.length, "Each image can be added only once");

/**
 * A product as a seller or admin writes it (create, and full replacement on edit). Owner, dates and
 * ids are not part of it: unknown keys are dropped. `hasDiscount` follows the discount label, and the
 * main image defaults to the first one.
 */
export const productInputSchema = productScalars
  .extend({
    features: features.default([]),
    specifications: specifications.default([]),
    images: images.default([]),
    imageUrl: imagePath.nullish(),
  })
  .superRefine((value, ctx) => {
    if (value.imageUrl && !value.images.includes(value.imageUrl)) {
      ctx.addIssue({
        code: "custom",
        path: ["imageUrl"],
        message: "The main image must be one of the product's images",
      });
    }
  })
  .transform(({ imageUrl, ...product }) => ({
    ...product,
    imageUrl: imageUrl ?? product.images[0] ?? null,
    hasDiscount: product.discountLabel !== null,
  }));
export type ProductInput = z.input<typeof productInputSchema>;
export type ProductValues = z.output<typeof productInputSchema>;

/**
 * The form's fields: the same rules, with features as rows (a form array needs objects) and the
 * pictures kept beside the form, since new ones are files until they are uploaded on save.
 */
export const productFormSchema = productScalars.extend({
  features: z
    .array(z.object({ value: featureText }))
    .max(MAX_PRODUCT_FEATURES, `A product can have at most ${MAX_PRODUCT_FEATURES} features`),
  specifications,
});
export type ProductFormInput = z.input<typeof productFormSchema>;
export type ProductFormValues = z.output<typeof productFormSchema>;

export const productStatuses = ["all", "active", "inactive"] as const;
export type ProductStatusFilter = (typeof productStatuses)[number];

export const manageProductsQuery = z.object({
  search: z
    .string()
    .trim()
    .max(MAX_SEARCH_LENGTH, `Search text can be at most ${MAX_SEARCH_LENGTH} characters`)
    .optional()
    .default(""),
  status: z
    .enum(productStatuses, { error: "Status must be all, active or inactive" })
    .optional()
    .default("all"),
  page: pageNumber,
  mine: z
    .enum(["true", "false"], { error: "mine must be true or false" })
    .optional()
    .transform((v) => v === "true"),
});
export type ManageProductsQuery = z.output<typeof manageProductsQuery>;

export const managedProductRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  category: z.string(),
  categoryName: z.string().nullable(),
  price: z.number(),
  originalPrice: z.number().nullable(),
  /** What the price buys ("month", "user_month"…); null for a one-time price. */
  pricingUnit: pricingUnitSchema.nullable(),
  /** Priced by use alone: its unit price, listed instead of its $0 fee (`listedPriceLabel`). */
  payAsYouGo: payAsYouGoSchema.nullable(),
  vendor: z.string().nullable(),
  imageUrl: z.string().nullable(),
  isActive: z.boolean(),
  isResellable: z.boolean(),
  sellerId: z.string().nullable(),
  moderationStatus: moderationStatusSchema,
  moderationReason: z.string().nullable(),
  updatedAt: z.string(),
});
export type ManagedProductRow = z.infer<typeof managedProductRowSchema>;

export const managedProductListSchema = paged(managedProductRowSchema);
export type ManagedProductList = z.infer<typeof managedProductListSchema>;

/** A product with everything its owner may edit, plus who owns it and when it changed. */
export const editableProductSchema = z.object({
  id: z.string(),
  name: z.string(),
  vendor: z.string().nullable(),
  description: z.string().nullable(),
  category: z.string(),
  price: z.number(),
  originalPrice: z.number().nullable(),
  pricingUnit: pricingUnitSchema.nullable(),
  rating: z.number().nullable(),
  reviewsCount: z.number(),
  discountLabel: z.string().nullable(),
  discountPercentage: z.number().nullable(),
  hasDiscount: z.boolean(),
  features: z.array(z.string()),
  specifications: z.array(z.object({ key: z.string(), value: z.string() })),
  images: z.array(z.string()),
  imageUrl: z.string().nullable(),
  isActive: z.boolean(),
  isResellable: z.boolean(),
  commissionPercent: z.number(),
  sellerId: z.string().nullable(),
  moderationStatus: moderationStatusSchema,
  moderationReason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type EditableProduct = z.infer<typeof editableProductSchema>;
