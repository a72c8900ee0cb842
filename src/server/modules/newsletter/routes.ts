import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { newsletterSchema } from "#domain/newsletter";
import { newsletterSubscriptions } from "#server/db/schema/inbound";

export const newsletterRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/newsletter",
    {
      config: { rateLimit: { max: 10, timeWindow: "1 minute" } },
      schema: {
        tags: ["newsletter"],
        summary: "Subscribe an e-mail address to the newsletter",
        body: newsletterSchema,
        response: { 200: z.object({ subscribed: z.literal(true) }) },
      },
    },
    async (request) => {
      // Subscribing twice, or again after unsubscribing, answers the same way: no list membership leaks.
      await app.database.db
        .insert(newsletterSubscriptions)
        .values({ email: request.body.email })
        .onConflictDoUpdate({ target: newsletterSubscriptions.email, set: { unsubscribedAt: null } });
      return { subscribed: true as const };
    },
  );
};
