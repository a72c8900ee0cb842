import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser, guard, signedInUser } from "#server/auth/guards";
import { NotFound, Unauthorized } from "#server/errors";
import { route } from "#server/http/route";
import { isSaved, listSaved, saveProduct, unsaveProduct } from "#server/modules/saved/repository";

/** 401 with the spec's wording before anything else runs; the user id only ever comes from here. */
const requireSession = guard(["UNAUTHORIZED"], async (request, reply) => {
  if (!(await currentUser(request, reply))) throw new Unauthorized("User must be authenticated");
});

/** Saved products: each signed-in user's own list, keyed by the session, never by the request. */
export const savedRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const tags = ["saved"];

  route(
    app,
    "GET /saved",
    {
      tags,
      onRequest: requireSession,
      summary: "Your saved products, newest saved first; those no longer on sale are marked unavailable",
    },
    async (request) => ({ items: await listSaved(db, signedInUser(request).id) }),
  );

  route(
    app,
    "GET /saved/:productId",
    { tags, onRequest: requireSession, summary: "Whether you saved this product" },
    async (request) => ({ saved: await isSaved(db, signedInUser(request).id, request.params.productId) }),
  );

  route(
    app,
    "PUT /saved/:productId",
    { tags, onRequest: requireSession, summary: "Save a product (saving it again changes nothing)" },
    async (request) => {
      if (!(await saveProduct(db, signedInUser(request).id, request.params.productId))) {
        throw new NotFound("This product does not exist or is no longer available.", "PRODUCT_NOT_FOUND");
      }
      return { saved: true as const };
    },
  );

  route(
    app,
    "DELETE /saved/:productId",
    {
      tags,
      onRequest: requireSession,
      summary: "Remove a product from your saved items (removing it again changes nothing)",
    },
    async (request) => {
      await unsaveProduct(db, signedInUser(request).id, request.params.productId);
      return { saved: false as const };
    },
  );
};
