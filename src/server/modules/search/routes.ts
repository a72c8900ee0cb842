import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  suggestionsQuery,
  suggestionsSchema,
  synonymInputSchema,
  synonymListSchema,
  synonymSchema,
} from "#domain/search";
import { requireRole, signedInUser } from "#server/auth/guards";
import { answerFromCache } from "#server/modules/catalog/cached";
import { listSynonyms } from "#server/modules/search/repository";
import {
  changeSynonym,
  createSynonym,
  removeSynonym,
  suggestions,
  toSynonym,
} from "#server/modules/search/service";

const idParams = z.object({ id: z.uuid("Unknown synonym") });

/** The header's type-ahead (public) and the synonyms admins keep (decision 0017). */
export const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/search/suggestions",
    {
      schema: {
        tags: ["catalogue"],
        summary: "Type-ahead: up to 5 products, 3 vendors and 3 categories matching the text, typos allowed",
        querystring: suggestionsQuery,
        response: { 200: suggestionsSchema },
      },
    },
    // As the catalogue: the same for everyone, so answered from the catalogue cache (decision 0018),
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
  admin.addHook("onRequest", requireRole("admin"));

  admin.get(
    "/admin/search/synonyms",
    {
      schema: {
        tags: ["admin"],
        summary: "Every search synonym, by word",
        response: { 200: synonymListSchema },
      },
    },
    async () => ({ items: (await listSynonyms(db)).map(toSynonym) }),
  );

  admin.post(
    "/admin/search/synonyms",
    {
      schema: {
        tags: ["admin"],
        summary: "Add a word and the words a search for it also finds",
        body: synonymInputSchema,
        response: { 201: synonymSchema },
      },
    },
    async (request, reply) => {
      const created = await createSynonym(db, signedInUser(request), request.body);
      return reply.status(201).send(created);
    },
  );

  admin.put(
    "/admin/search/synonyms/:id",
    {
      schema: {
        tags: ["admin"],
        summary: "Change a word's synonyms",
        params: idParams,
        body: synonymInputSchema,
        response: { 200: synonymSchema },
      },
    },
    async (request) => {
      const changed = await changeSynonym(db, signedInUser(request), request.params.id, request.body);
      return changed;
    },
  );

  admin.delete(
    "/admin/search/synonyms/:id",
    {
      schema: {
        tags: ["admin"],
        summary: "Remove a word's synonyms",
        params: idParams,
        response: { 200: z.object({ ok: z.literal(true) }) },
      },
    },
    async (request) => {
      await removeSynonym(db, signedInUser(request), request.params.id);
      return { ok: true as const };
    },
  );
};
