import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { NotFound } from "#server/errors";
import { route } from "#server/http/route";
import { compareProducts, relatedProducts } from "#server/modules/compare/service";

// Public catalogue data, as the catalogue routes answer it: shared caches may keep it, and revalidate
// every time, because an admin's change must show on the next load.
const CATALOGUE_CACHE = "public, no-cache";

/** Comparing products side by side and the related products under a product (issue 19, item 5). */
export const compareRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  route(
    app,
    "GET /compare",
    {
      tags: ["catalogue"],
      summary: "Two to four products on sale side by side, their specifications aligned by key",
      description:
        "400 VALIDATION_ERROR for fewer than two, more than four or malformed ids. Ids of products not on sale are listed in `missing`.",
    },
    async (request, reply) => {
      reply.header("cache-control", CATALOGUE_CACHE);
      return compareProducts(db, request.query.ids);
    },
  );

  route(
    app,
    "GET /products/:id/related",
    {
      tags: ["catalogue"],
      summary: "Up to eight products on sale related to one: same category first, then seller, then price",
    },
    async (request, reply) => {
      const { id } = request.params;
      // A malformed id is a product that does not exist, as on the product's own route.
      if (!z.uuid().safeParse(id).success) throw new NotFound("Product not found.", "PRODUCT_NOT_FOUND");
      reply.header("cache-control", CATALOGUE_CACHE);
      return { items: await relatedProducts(db, id) };
    },
  );
};
