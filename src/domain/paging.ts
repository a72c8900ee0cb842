import { z } from "zod";

/** `?page=` of a paged list: a whole number from 1 to 10,000, 1 when missing. */
export const pageNumber = z.coerce
  .number({ error: "Page must be a whole number" })
  .int("Page must be a whole number")
  .min(1, "Page must be 1 or more")
  .max(10_000, "Page must be 10000 or less")
  .optional()
  .default(1);

/** One page of a list as every paged endpoint answers it: the page's items and where it sits in the whole. */
export const paged = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number(), page: z.number(), pageSize: z.number() });
export type Paged<T> = z.infer<ReturnType<typeof paged<z.ZodType<T>>>>;
