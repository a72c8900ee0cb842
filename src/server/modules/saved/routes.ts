import type { onRequestAsyncHookHandler } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { savedListSchema } from "#domain/catalog-schemas";
import { currentUser, signedInUser } from "#server/auth/guards";
import { NotFound, Unauthorized } from "#server/errors";
import { isSaved, listSaved, saveProduct, unsaveProduct } from "#server/modules/saved/repository";

const params = z.object({ productId: z.uuid("Product id must be a UUID") });
const savedAnswer = z.object({ saved: z.boolean() });

/** 401 with the spec's wording before anything else runs; the user id only ever comes from here. */
const requireSession: onRequestAsyncHookHandler = async (request, reply) => {
  if (!(await currentUser(request, reply))) throw new Unauthorized("User must be authenticated");
};

/** Saved products: each signed-in user's own list, keyed by the session, never by the request. */
export const savedRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  app.addHook("onRequest", requireSession);

  app.get(
    "/saved",
    {
      schema: {
        tags: ["saved"],
        summary: "Your saved products, newest saved first; those no longer on sale are marked unavailable",
        response: { 200: savedListSchema },
      },
    },
    async (request) => ({ items: await listSaved(db, signedInUser(request).id) }),
  );

  app.get(
    "/saved/:productId",
    {
      schema: {
        tags: ["saved"],
        summary: "Whether you saved this product",
        params,
        response: { 200: savedAnswer },
      },
    },
    async (request) => ({ saved: await isSaved(db, signedInUser(request).id, request.params.productId) }),
  );

  app.put(
    "/saved/:productId",
    {
      schema: {
        tags: ["saved"],
        summary: "Save a product (saving it again changes nothing)",
        params,
        response: { 200: z.object({ saved: z.literal(true) }) },
      },
    },
    async (request) => {
      if (!(await saveProduct(db, signedInUser(request).id, request.params.productId))) {
        throw new NotFound("This product does not exist or is no longer available.", "PRODUCT_NOT_FOUND");
      }
      return { saved: true as const };
    },
  );

  app.delete(
    "/saved/:productId",
    {
      schema: {
        tags: ["saved"],
        summary: "Remove a product from your saved items (removing it again changes nothing)",
        params,
        response: { 200: z.object({ saved: z.literal(false) }) },
      },
    },
    async (request) => {
      await unsaveProduct(db, signedInUser(request).id, request.params.productId);
      return { saved: false as const };
    },
  );
};
