import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireRole, signedInUser } from "#server/auth/guards";
import { route } from "#server/http/route";
import { feeRules, removeFeeRule, sellerFees, setFeeRule } from "#server/modules/fees/service";

/** The platform fee rules (super admins) and the fees that apply to a seller (the seller). */
export const feeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const superAdmin = requireRole("superAdmin");

  route(
    app,
    "GET /admin/fees",
    {
      tags: ["admin"],
      summary: "The platform fee rules: the default, and overrides per category and per seller",
      onRequest: superAdmin,
    },
    async () => feeRules(db),
  );

  route(
    app,
    "PUT /admin/fees",
    {
      tags: ["admin"],
      summary: "Set a fee rule's percentage; every sale booked afterwards uses it",
      description:
        "A seller's rule beats its category's, which beats the default. A seller is named by e-mail; an address that is not a seller's answers 404 SELLER_NOT_FOUND.",
      onRequest: superAdmin,
    },
    async (request) => {
      const me = signedInUser(request);
      const rule = await setFeeRule(db, me, request.body);
      request.log.info({ scope: rule.scope, rate: rule.rate, by: me.id }, "fee rule set");
      return { rule };
    },
  );

  route(
    app,
    "DELETE /admin/fees/:scope/:subject?",
    {
      tags: ["admin"],
      summary: "Remove a fee rule; the next rule down applies (the built-in 10% once the default is gone)",
      onRequest: superAdmin,
    },
    async (request, reply) => {
      const me = signedInUser(request);
      const { scope, subject } = request.params;
      await removeFeeRule(db, me, scope, subject);
      request.log.info({ scope, by: me.id }, "fee rule removed");
      return reply.status(204).send(null);
    },
  );

  route(
    app,
    "GET /fees/mine",
    {
      tags: ["seller"],
      summary: "The platform fee on the signed-in seller's sales, per category",
      onRequest: requireRole("seller"),
    },
    async (request) => sellerFees(db, signedInUser(request).id),
  );
};
