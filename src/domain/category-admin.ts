import { z } from "zod";
import { categorySchema } from "#domain/catalog-schemas";
import { slugify } from "#domain/slug";

export const CATEGORY_NAME_MAX = 60;

/** The add-category form and POST /api/admin/categories; the slug is always derived from the name. */
export const categoryInputSchema = z.object({
  name: z
    .string({ error: "Category name is required" })
    .trim()
    .min(1, "Category name is required")
    .max(CATEGORY_NAME_MAX, `Category name must be at most ${CATEGORY_NAME_MAX} characters`)
    .refine(
      (name) => /[a-z0-9]/.test(slugify(name)),
      "Category name must contain at least one letter or digit (A-Z, 0-9) to make its slug",
    ),
});
export type CategoryInput = z.input<typeof categoryInputSchema>;

export const adminCategorySchema = categorySchema.extend({
  /** Every product in the category, active or not: any of them blocks deleting it. */
  productCount: z.number().int(),
  createdAt: z.string(),
});
export type AdminCategory = z.infer<typeof adminCategorySchema>;
/** `POST /api/admin/categories`: the category as created. */
export const createdCategorySchema = z.object({ category: adminCategorySchema });
export type CreatedCategory = z.infer<typeof createdCategorySchema>;

export const adminCategoryListSchema = z.object({ items: z.array(adminCategorySchema) });
export type AdminCategoryList = z.infer<typeof adminCategoryListSchema>;

export const productCountLabel = (count: number) => `${count} ${count === 1 ? "product" : "products"}`;

/** Why a category cannot be deleted while products use it. */
export const categoryInUseMessage = (count: number) =>
  `This category still has ${productCountLabel(count)}. Move ${count === 1 ? "it" : "them"} to another category first.`;
