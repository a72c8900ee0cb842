import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { suggestionsSchema } from "#domain/search";
import { requireRole, signedInUser } from "#server/auth/guards";
import { route } from "#server/http/route";
import { answerFromCache } from "#server/modules/catalog/cached";
import { listSynonyms } from "#server/modules/search/repository";
import {
  changeSynonym,
  createSynonym,
  removeSynonym,
  suggestions,
  toSynonym,
} from "#server/modules/search/service";

/** The header's type-ahead (public) and the synonyms admins keep (decision 0017). */
export const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  route(
    app,
    "GET /search/suggestions",
    {
      tags: ["catalogue"],
      summary: "Type-ahead: up to 5 products, 3 vendors and 3 categories matching the text, typos allowed",
    }, // As the catalogue: the same for everyone, so answered from the catalogue cache (decision 0018),
    // which every catalogue change clears; a popular prefix costs one query, not one per keystroke.
    async (request, reply) =>
      answerFromCache(
        request,
        reply,
        `suggestions:${request.query.q.toLowerCase()}`,
        suggestionsSchema,
        (readDb) => suggestions(readDb, request.query.q),
      ),
  );

  // Its own plugin, so the admin guard covers these routes only.
  await app.register(synonymRoutes);
};

const synonymRoutes: FastifyPluginAsyncZod = async (admin) => {
  const { db } = admin.database;

  route(
    admin,
    "GET /admin/search/synonyms",
    {
      tags: ["admin"],
      summary: "Every search synonym, by word",
      onRequest: requireRole("admin"),
    },
    async () => ({ items: (await listSynonyms(db)).map(toSynonym) }),
  );

  route(
    admin,
    "POST /admin/search/synonyms",
    {
      tags: ["admin"],
      summary: "Add a word and the words a search for it also finds",
      onRequest: requireRole("admin"),
    },
    async (request, reply) => {
      const created = await createSynonym(db, signedInUser(request), request.body);
      return reply.status(201).send(created);
    },
  );

  route(
    admin,
    "PUT /admin/search/synonyms/:id",
    {
      tags: ["admin"],
      summary: "Change a word's synonyms",
      onRequest: requireRole("admin"),
    },
    async (request) => {
      const changed = await changeSynonym(db, signedInUser(request), request.params.id, request.body);
      return changed;
    },
  );

  route(
    admin,
    "DELETE /admin/search/synonyms/:id",
    {
      tags: ["admin"],
      summary: "Remove a word's synonyms",
      onRequest: requireRole("admin"),
    },
    async (request) => {
      await removeSynonym(db, signedInUser(request), request.params.id);
      return { ok: true as const };
    },
  );
};
