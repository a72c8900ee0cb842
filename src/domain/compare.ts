import { z } from "zod";
import { productCardSchema } from "#domain/catalog-schemas";
import { isProductId, MAX_COMPARE, MIN_COMPARE, splitIds } from "#domain/compare-ids";

/** `?ids=a,b,c` of `GET /api/compare` and of the compare page's URL. */
export const compareQuery = z.object({
  ids: z
    .string({ error: "Choose the products to compare" })
    .max(400, `You can compare at most ${MAX_COMPARE} products`)
    .transform(splitIds)
    .pipe(
      z
        .array(z.string().refine(isProductId, "Each product id must be a valid id"))
        .min(MIN_COMPARE, "Pick at least two products to compare")
        .max(MAX_COMPARE, `You can compare at most ${MAX_COMPARE} products`),
    ),
});
export type CompareQuery = z.output<typeof compareQuery>;

/** One specification key across the compared products: a value per product, in their order, null where one lacks it. */
export const alignedSpecificationSchema = z.object({
  key: z.string(),
  values: z.array(z.string().nullable()),
});
export type AlignedSpecification = z.infer<typeof alignedSpecificationSchema>;

export const compareProductSchema = productCardSchema.extend({ features: z.array(z.string()) });
export type CompareProduct = z.infer<typeof compareProductSchema>;

export const compareAnswerSchema = z.object({
  /** The products still on sale, in the order they were asked for. */
  products: z.array(compareProductSchema),
  specifications: z.array(alignedSpecificationSchema),
  /** Asked-for ids that are not on sale (removed, hidden, in review): the page says so. */
  missing: z.array(z.string()),
});
export type CompareAnswer = z.infer<typeof compareAnswerSchema>;

export const relatedAnswerSchema = z.object({ items: z.array(productCardSchema) });
export type RelatedAnswer = z.infer<typeof relatedAnswerSchema>;

/** Keys are matched as people read them: "RAM", "ram " and "Ram" are one row. */
const specKey = (key: string) => key.trim().replace(/\s+/g, " ").toLowerCase();

/**
 * Every specification key of the products, once, in the order they first appear (the first product's
 * order, then keys only later products have), with each product's value or null. A product listing a
 * key twice keeps its first value, as its own page shows it first.
 */
export function alignSpecifications(
  perProduct: readonly (readonly { key: string; value: string }[])[],
): AlignedSpecification[] {
  const rows = new Map<string, AlignedSpecification>();
  perProduct.forEach((specifications, index) => {
    for (const { key, value } of specifications) {
      const normalised = specKey(key);
      if (!normalised) continue;
      let row = rows.get(normalised);
      if (!row) {
        row = { key: key.trim(), values: perProduct.map(() => null) };
        rows.set(normalised, row);
      }
      if (row.values[index] === null) row.values[index] = value;
    }
  });
  return [...rows.values()];
}

/** Whether a row's values differ between products (case and spacing ignored; a missing value differs from any). */
export function valuesDiffer(values: readonly (string | number | null)[]): boolean {
  const seen = new Set(
    values.map((v) => (v === null ? "\u0000" : String(v).trim().replace(/\s+/g, " ").toLowerCase())),
  );
  return seen.size > 1;
}
