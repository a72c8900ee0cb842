import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  categoryListSchema,
  marketplaceStatsSchema,
  productDetailSchema,
  productListQuery,
  productListSchema,
} from "#domain/catalog-schemas";
import { siteLinksOf, siteLinksSchema } from "#domain/site-links";
import { NotFound } from "#server/errors";
import { answerFromCache } from "#server/modules/catalog/cached";
import {
  countMarketplace,
  findProductDetail,
  listCategories,
  listContentBlocks,
  listFxRates,
  listProducts,
} from "#server/modules/catalog/repository";

const fxRatesSchema = z.array(
  z.object({ currencyCode: z.string(), rateToUsd: z.number(), fxBuffer: z.number() }),
);
const contentBlocksSchema = z.array(z.object({ key: z.string(), content: z.string() }));

// Every answer here is public and the same for everyone, so it is served from the catalogue cache
// (decision 0018), keyed by the validated query, which already has its defaults filled in.
export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  const cache = app.catalogueCache;

  app.get(
    "/products",
    {
      schema: {
        tags: ["catalogue"],
        summary: "Active products: search, category, discounts, sort, pages",
        querystring: productListQuery,
        response: { 200: productListSchema },
      },
    },
    async (request, reply) =>
      answerFromCache(request, reply, `products:${JSON.stringify(request.query)}`, productListSchema, (db) =>
        listProducts(
          db,
          request.query,
          (key, count) => cache.value(`count:${key}`, count),
          (key, facets) => cache.value(`facets:${key}`, facets),
          app.env.SEARCH_RANK_EXACT_UP_TO,
          app.env.SEARCH_FACETS_EXACT_UP_TO,
        ),
      ),
  );

  app.get(
    "/products/:id",
    {
      schema: {
        tags: ["catalogue"],
        summary: "One active product with its features and specifications",
        params: z.object({ id: z.string().max(64) }),
        response: { 200: productDetailSchema },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const notFound = new NotFound("Product not found.", "PRODUCT_NOT_FOUND");
      if (!z.uuid().safeParse(id).success) throw notFound;
      // Product, features and specifications in one statement (decision 0018). "Not found" is not
      // cached: ids are endless, and the primary key index answers it.
      const key = `product:${id.toLowerCase()}`;
      return answerFromCache(request, reply, key, productDetailSchema, async (db) => {
        const detail = await findProductDetail(db, id);
        if (!detail) throw notFound;
        return detail;
      });
    },
  );

  app.get(
    "/categories",
    {
      schema: {
        tags: ["catalogue"],
        summary: "Product categories",
        response: { 200: categoryListSchema },
      },
    },
    async (request, reply) =>
      answerFromCache(request, reply, "categories", categoryListSchema, listCategories),
  );

  app.get(
    "/fx-rates",
    {
      schema: {
        tags: ["catalogue"],
        summary: "Exchange rates from USD, with the buffer applied to displayed prices",
        response: { 200: fxRatesSchema },
      },
    },
    async (request, reply) => answerFromCache(request, reply, "fx-rates", fxRatesSchema, listFxRates),
  );

  app.get(
    "/content-blocks",
    {
      schema: {
        tags: ["content"],
        summary: "The site's editable texts",
        response: { 200: contentBlocksSchema },
      },
    },
    async (request, reply) =>
      answerFromCache(request, reply, "content-blocks", contentBlocksSchema, listContentBlocks),
  );

  // Orders and reviews notify no cache (decision 0018): a new customer shows once the catalogue next
  // changes, or at the latest when the entry's five-minute life ends. A review changes its product's
  // rating, which does notify.
  app.get(
    "/marketplace-stats",
    {
      schema: {
        tags: ["catalogue"],
        summary: "The marketplace in figures: products, vendors, countries, customers, mean rating",
        response: { 200: marketplaceStatsSchema },
      },
    },
    async (request, reply) =>
      answerFromCache(request, reply, "marketplace-stats", marketplaceStatsSchema, countMarketplace),
  );

  // From the configuration, the same until the next start; cached like the rest so pages drawn on the
  // server may read it and browsers revalidate it by ETag.
  app.get(
    "/site-links",
    {
      schema: {
        tags: ["content"],
        summary: "The operator's social accounts for the footer (only those configured)",
        response: { 200: siteLinksSchema },
      },
    },
    async (request, reply) =>
      answerFromCache(request, reply, "site-links", siteLinksSchema, async () => siteLinksOf(app.env)),
  );
};
