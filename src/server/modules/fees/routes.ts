import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  feeRuleInputSchema,
  feeRulesSchema,
  feeRuleViewSchema,
  feeScopes,
  sellerFeesSchema,
} from "#domain/fees";
import { requireRole, signedInUser } from "#server/auth/guards";
import { feeRules, removeFeeRule, sellerFees, setFeeRule } from "#server/modules/fees/service";

const ruleParams = z.object({
  scope: z.enum(feeScopes, { error: "Unknown fee scope" }),
  /** Empty for the default rule (`DELETE /admin/fees/default`). */
  subject: z.string().max(200).optional().default(""),
});

/** The platform fee rules (super admins) and the fees that apply to a seller (the seller). */
export const feeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const superAdmin = requireRole("superAdmin");

  app.get(
    "/admin/fees",
    {
      onRequest: superAdmin,
      schema: {
        tags: ["admin"],
        summary: "The platform fee rules: the default, and overrides per category and per seller",
        response: { 200: feeRulesSchema },
      },
    },
    async () => feeRules(db),
  );

  app.put(
    "/admin/fees",
    {
      onRequest: superAdmin,
      schema: {
        tags: ["admin"],
        summary: "Set a fee rule's percentage; every sale booked afterwards uses it",
        description:
          "A seller's rule beats its category's, which beats the default. A seller is named by e-mail; an address that is not a seller's answers 404 SELLER_NOT_FOUND.",
        body: feeRuleInputSchema,
        response: { 200: z.object({ rule: feeRuleViewSchema }) },
      },
    },
    async (request) => {
      const me = signedInUser(request);
      const rule = await setFeeRule(db, me, request.body);
      request.log.info({ scope: rule.scope, rate: rule.rate, by: me.id }, "fee rule set");
      return { rule };
    },
  );

  app.delete(
    "/admin/fees/:scope/:subject?",
    {
      onRequest: superAdmin,
      schema: {
        tags: ["admin"],
        summary: "Remove a fee rule; the next rule down applies (the built-in 10% once the default is gone)",
        params: ruleParams,
        response: { 204: z.null().describe("Removed") },
      },
    },
    async (request, reply) => {
      const me = signedInUser(request);
      const { scope, subject } = request.params;
      await removeFeeRule(db, me, scope, subject);
      request.log.info({ scope, by: me.id }, "fee rule removed");
      return reply.status(204).send(null);
    },
  );

  app.get(
    "/fees/mine",
    {
      onRequest: requireRole("seller"),
      schema: {
        tags: ["seller"],
        summary: "The platform fee on the signed-in seller's sales, per category",
        response: { 200: sellerFeesSchema },
      },
    },
    async (request) => sellerFees(db, signedInUser(request).id),
  );
};
