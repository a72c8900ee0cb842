import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  categoryListSchema,
  productDetailSchema,
  productListQuery,
  productListSchema,
} from "#domain/catalog-schemas";
import { NotFound } from "#server/errors";
import {
  findActiveProduct,
  listCategories,
  listContentBlocks,
  listFeatures,
  listFxRates,
  listProducts,
  listSpecifications,
  toProductDetail,
} from "#server/modules/catalog/repository";
import { didYouMean, searchTerms } from "#server/modules/catalog/search";

// Public catalogue data is the same for everyone, but admins and sellers change it at any time and the
// next page load must show the change: shared caches may store it, and everyone revalidates every time.
const CATALOGUE_CACHE = "public, no-cache";

export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const counts = app.productCounts;

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
    async (request, reply) => {
      reply.header("cache-control", CATALOGUE_CACHE);
      const list = await listProducts(db, request.query, (key, count) => counts.getOrLoad(key, count));
      const { search } = request.query;
      const suggestion = search ? didYouMean(await searchTerms(db, search)) : undefined;
      return suggestion ? { ...list, didYouMean: suggestion } : list;
    },
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
      const row = await findActiveProduct(db, id);
      if (!row) throw notFound;
      // As the spec says: a failure loading features or specifications is logged and shown as none.
      const [features, specifications] = await Promise.all([
        listFeatures(db, id).catch((error: unknown) => {
          request.log.error({ err: error, productId: id }, "loading product features failed");
          return [];
        }),
        listSpecifications(db, id).catch((error: unknown) => {
          request.log.error({ err: error, productId: id }, "loading product specifications failed");
          return [];
        }),
      ]);
      reply.header("cache-control", CATALOGUE_CACHE);
      return toProductDetail(row, features, specifications);
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
    async (_request, reply) => {
      reply.header("cache-control", CATALOGUE_CACHE);
      return listCategories(db);
    },
  );

  app.get(
    "/fx-rates",
    {
      schema: {
        tags: ["catalogue"],
        summary: "Exchange rates from USD, with the buffer applied to displayed prices",
        response: {
          200: z.array(z.object({ currencyCode: z.string(), rateToUsd: z.number(), fxBuffer: z.number() })),
        },
      },
    },
    async (_request, reply) => {
      reply.header("cache-control", CATALOGUE_CACHE);
      return listFxRates(db);
    },
  );

  app.get(
    "/content-blocks",
    {
      schema: {
        tags: ["content"],
        summary: "The site's editable texts",
        response: { 200: z.array(z.object({ key: z.string(), content: z.string() })) },
      },
    },
    async (_request, reply) => {
      reply.header("cache-control", CATALOGUE_CACHE);
      return listContentBlocks(db);
    },
  );
};
