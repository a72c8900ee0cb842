import { z } from "zod";
import {
  categoryListSchema,
  marketplaceStatsSchema,
  productDetailSchema,
  productListQuery,
  productListSchema,
} from "#domain/catalog-schemas";
import { endpoint } from "#domain/endpoint";
import { featuredHomeSchema } from "#domain/moderation";
import { siteLinksSchema } from "#domain/site-links";

/** The exchange rates the shop converts prices with, as `GET /fx-rates` lists them. */
export const fxRatesSchema = z.array(
  z.object({ currencyCode: z.string(), rateToUsd: z.number(), fxBuffer: z.number() }),
);
/** The site's editable texts as the public pages read them. */
export const publicContentBlocksSchema = z.array(z.object({ key: z.string(), content: z.string() }));

/** The public catalogue: every answer is the same for everyone and served from the catalogue cache. */
export const catalogEndpoints = {
  "GET /products": endpoint({ query: productListQuery, answer: productListSchema, errors: [] }),
  "GET /products/:id": endpoint({
    params: z.object({ id: z.string().max(64) }),
    answer: productDetailSchema,
    errors: ["PRODUCT_NOT_FOUND"],
  }),
  "GET /featured-products": endpoint({ answer: featuredHomeSchema, errors: [] }),
  "GET /categories": endpoint({ answer: categoryListSchema, errors: [] }),
  "GET /fx-rates": endpoint({ answer: fxRatesSchema, errors: [] }),
  "GET /content-blocks": endpoint({ answer: publicContentBlocksSchema, errors: [] }),
  "GET /marketplace-stats": endpoint({ answer: marketplaceStatsSchema, errors: [] }),
  "GET /site-links": endpoint({ answer: siteLinksSchema, errors: [] }),
} as const;
