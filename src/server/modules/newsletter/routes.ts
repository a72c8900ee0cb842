import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { newsletterSchema } from "#domain/newsletter";
import { newsletterSubscriptions } from "#server/db/schema/inbound";
import { publicUrl } from "#server/env";
import { message } from "#server/mail/templates";

const hash = (token: string) => createHash("sha256").update(token).digest("hex");
const newToken = () => randomBytes(32).toString("base64url");
const tokenQuery = z.object({ token: z.string().min(20).max(100) });

/**
 * Double opt-in: subscribing stores the address and e-mails a confirmation link; only confirmed,
 * not-unsubscribed addresses are on the list. Every answer is the same, so nobody can probe the list.
 */
export const newsletterRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  app.post(
    "/newsletter",
    {
      config: { rateLimit: { max: 10, timeWindow: "1 minute" } },
      schema: {
        tags: ["newsletter"],
        summary: "Subscribe an e-mail address (a confirmation link is e-mailed)",
        body: newsletterSchema,
        response: { 200: z.object({ subscribed: z.literal(true) }) },
      },
    },
    async (request) => {
      const { email } = request.body;
      const [existing] = await db
        .select()
        .from(newsletterSubscriptions)
        .where(eq(newsletterSubscriptions.email, email));
      if (existing?.confirmedAt && !existing.unsubscribedAt) return { subscribed: true as const };

      const confirm = newToken();
      const unsubscribe = newToken();
      await db
        .insert(newsletterSubscriptions)
        .values({ email, confirmTokenHash: hash(confirm), unsubscribeTokenHash: hash(unsubscribe) })
        .onConflictDoUpdate({
          target: newsletterSubscriptions.email,
          set: {
            confirmTokenHash: hash(confirm),
            unsubscribeTokenHash: hash(unsubscribe),
            confirmedAt: null,
            unsubscribedAt: null,
          },
        });
      const base = publicUrl(app.env);
      try {
        await app.mailer.send({
          to: email,
          subject: "Confirm your Stackbay newsletter subscription",
          ...message(
            [
              "Please confirm that you want Stackbay's deals and product news at this address.",
              `If you did not ask for this, ignore this message. To stop any mail from us: ${base}/api/newsletter/unsubscribe?token=${unsubscribe}`,
            ],
            { label: "Confirm subscription", url: `${base}/api/newsletter/confirm?token=${confirm}` },
          ),
        });
      } catch (error) {
        request.log.error({ err: error }, "newsletter confirmation could not be sent");
      }
      return { subscribed: true as const };
    },
  );

  app.get(
    "/newsletter/confirm",
    {
      schema: {
        tags: ["newsletter"],
        summary: "Confirm a subscription from the e-mailed link",
        querystring: tokenQuery,
      },
    },
    async (request, reply) => {
      const rows = await db
        .update(newsletterSubscriptions)
        .set({ confirmedAt: new Date(), confirmTokenHash: null })
        .where(
          and(
            eq(newsletterSubscriptions.confirmTokenHash, hash(request.query.token)),
            isNull(newsletterSubscriptions.unsubscribedAt),
          ),
        )
        .returning({ id: newsletterSubscriptions.id });
      return reply.redirect(`/?newsletter=${rows.length > 0 ? "confirmed" : "invalid"}`, 303);
    },
  );

  app.get(
    "/newsletter/unsubscribe",
    {
      schema: {
        tags: ["newsletter"],
        summary: "Unsubscribe from the e-mailed link",
        querystring: tokenQuery,
      },
    },
    async (request, reply) => {
      const rows = await db
        .update(newsletterSubscriptions)
        .set({ unsubscribedAt: new Date() })
        .where(eq(newsletterSubscriptions.unsubscribeTokenHash, hash(request.query.token)))
        .returning({ id: newsletterSubscriptions.id });
      return reply.redirect(`/?newsletter=${rows.length > 0 ? "unsubscribed" : "invalid"}`, 303);
    },
  );
};
