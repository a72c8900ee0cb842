import { createHash, randomBytes } from "node:crypto";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { publicUrl } from "#server/env";
import { route } from "#server/http/route";
import { newsletterConfirmMail } from "#server/mail/forms-mail";
import {
  confirmSubscription,
  findSubscription,
  unsubscribe,
  upsertPendingSubscription,
} from "#server/modules/newsletter/repository";

const hash = (token: string) => createHash("sha256").update(token).digest("hex");
const newToken = () => randomBytes(32).toString("base64url");
/**
 * Double opt-in: subscribing stores the address and e-mails a confirmation link; only confirmed,
 * not-unsubscribed addresses are on the list. Every answer is the same, so nobody can probe the list.
 */
export const newsletterRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  route(
    app,
    "POST /newsletter",
    {
      tags: ["newsletter"],
      summary: "Subscribe an e-mail address (a confirmation link is e-mailed)",
      config: { rateLimit: { max: 10, timeWindow: "1 minute" } },
    },
    async (request) => {
      const { email } = request.body;
      const existing = await findSubscription(db, email);
      if (existing?.confirmedAt && !existing.unsubscribedAt) return { subscribed: true as const };

      const confirm = newToken();
      const unsubscribeToken = newToken();
      await upsertPendingSubscription(db, {
        email,
        confirmTokenHash: hash(confirm),
        unsubscribeTokenHash: hash(unsubscribeToken),
      });
      const base = publicUrl(app.env);
      try {
        await app.mailer.send({
          to: email,
          ...newsletterConfirmMail({
            confirmUrl: `${base}/api/newsletter/confirm?token=${confirm}`,
            unsubscribeUrl: `${base}/api/newsletter/unsubscribe?token=${unsubscribeToken}`,
          }),
        });
      } catch (error) {
        request.log.error({ err: error }, "newsletter confirmation could not be sent");
      }
      return { subscribed: true as const };
    },
  );

  route(
    app,
    "GET /newsletter/confirm",
    {
      tags: ["newsletter"],
      summary: "Confirm a subscription from the e-mailed link",
    },
    async (request, reply) => {
      const confirmed = await confirmSubscription(db, hash(request.query.token));
      return reply.redirect(`/?newsletter=${confirmed ? "confirmed" : "invalid"}`, 303);
    },
  );

  route(
    app,
    "GET /newsletter/unsubscribe",
    {
      tags: ["newsletter"],
      summary: "Unsubscribe from the e-mailed link",
    },
    async (request, reply) => {
      const done = await unsubscribe(db, hash(request.query.token));
      return reply.redirect(`/?newsletter=${done ? "unsubscribed" : "invalid"}`, 303);
    },
  );
};
