import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  categoryListSchema,
  marketplaceStatsSchema,
  productDetailSchema,
  productListSchema,
} from "#domain/catalog-schemas";
import { fxRatesSchema, publicContentBlocksSchema } from "#domain/endpoints/catalog";
import { siteLinksOf, siteLinksSchema } from "#domain/site-links";
import { NotFound } from "#server/errors";
import { route } from "#server/http/route";
import { answerFromCache } from "#server/modules/catalog/cached";
import {
  countMarketplace,
  findProductDetail,
  listCategories,
  listContentBlocks,
  listFxRates,
  listProducts,
} from "#server/modules/catalog/repository";

// Every answer here is public and the same for everyone, so it is served from the catalogue cache
// (decision 0018), keyed by the validated query, which already has its defaults filled in.
export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  const cache = app.catalogueCache;

  route(
    app,
    "GET /products",
    {
      tags: ["catalogue"],
      summary: "Active products: search, category, discounts, sort, pages",
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

  route(
    app,
    "GET /products/:id",
    {
      tags: ["catalogue"],
      summary: "One active product with its features and specifications",
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

  route(
    app,
    "GET /categories",
    {
      tags: ["catalogue"],
      summary: "Product categories",
    },
    async (request, reply) =>
      answerFromCache(request, reply, "categories", categoryListSchema, listCategories),
  );

  route(
    app,
    "GET /fx-rates",
    {
      tags: ["catalogue"],
      summary: "Exchange rates from USD, with the buffer applied to displayed prices",
    },
    async (request, reply) => answerFromCache(request, reply, "fx-rates", fxRatesSchema, listFxRates),
  );

  route(
    app,
    "GET /content-blocks",
    {
      tags: ["content"],
      summary: "The site's editable texts",
    },
    async (request, reply) =>
      answerFromCache(request, reply, "content-blocks", publicContentBlocksSchema, listContentBlocks),
  );

  // Orders and reviews notify no cache (decision 0018): a new customer shows once the catalogue next
  // changes, or at the latest when the entry's five-minute life ends. A review changes its product's
  // rating, which does notify.
  route(
    app,
    "GET /marketplace-stats",
    {
      tags: ["catalogue"],
      summary: "The marketplace in figures: products, vendors, countries, customers, mean rating",
    },
    async (request, reply) =>
      answerFromCache(request, reply, "marketplace-stats", marketplaceStatsSchema, countMarketplace),
  );

  // From the configuration, the same until the next start; cached like the rest so pages drawn on the
  // server may read it and browsers revalidate it by ETag.
  route(
    app,
    "GET /site-links",
    {
      tags: ["content"],
      summary: "The operator's social accounts for the footer (only those configured)",
    },
    async (request, reply) =>
      answerFromCache(request, reply, "site-links", siteLinksSchema, async () => siteLinksOf(app.env)),
  );
};
