import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  adminTaxRatesSchema,
  effectiveTaxRatesSchema,
  taxJurisdictionParams,
  taxRateInputSchema,
} from "#domain/tax";
import { requireRole, signedInUser } from "#server/auth/guards";
import { operatorTrn } from "#server/env";
import { changeTaxRate, listAdminTaxRates, loadEffectiveTaxRates } from "#server/modules/tax/service";

/** Tax rates: the effective list for the checkout (public), and super admins' overrides of it. */
export const taxRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const superAdmin = requireRole("superAdmin");

  app.get(
    "/tax/rates",
    {
      schema: {
        tags: ["tax"],
        summary:
          "The tax rate in force per jurisdiction (UAE, India, EU member states, UK) and the operator's TRN",
        description: "What the checkout shows; the server decides each order's tax from the same list.",
        response: { 200: effectiveTaxRatesSchema },
      },
    },
    async () => ({ items: await loadEffectiveTaxRates(db), operatorTrn: operatorTrn(app.env) }),
  );

  app.get(
    "/admin/tax-rates",
    {
      onRequest: superAdmin,
      schema: {
        tags: ["admin"],
        summary: "Every jurisdiction's rate, its default and its last change; super admins only",
        response: { 200: adminTaxRatesSchema },
      },
    },
    async () => ({ items: await listAdminTaxRates(db) }),
  );

  app.put(
    "/admin/tax-rates/:jurisdiction",
    {
      onRequest: superAdmin,
      schema: {
        tags: ["admin"],
        summary: "Set a jurisdiction's rate (percent, 0–50, at most 2 decimals); audited",
        description: "New orders are taxed at it; placed orders keep the rate they were charged.",
        params: taxJurisdictionParams,
        body: taxRateInputSchema,
        response: { 200: adminTaxRatesSchema },
      },
    },
    async (request) => {
      const me = signedInUser(request);
      const { jurisdiction } = request.params;
      await changeTaxRate(db, me, jurisdiction, request.body.ratePercent);
      request.log.info({ jurisdiction, ratePercent: request.body.ratePercent }, "tax rate changed");
      return { items: await listAdminTaxRates(db) };
    },
  );

  app.delete(
    "/admin/tax-rates/:jurisdiction",
    {
      onRequest: superAdmin,
      schema: {
        tags: ["admin"],
        summary: "Return a jurisdiction to its default rate; audited",
        params: taxJurisdictionParams,
        response: { 200: adminTaxRatesSchema },
      },
    },
    async (request) => {
      const me = signedInUser(request);
      const { jurisdiction } = request.params;
      await changeTaxRate(db, me, jurisdiction, null);
      request.log.info({ jurisdiction }, "tax rate back to default");
      return { items: await listAdminTaxRates(db) };
    },
  );
};
