import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  adminTaxRatesSchema,
  effectiveTaxRatesSchema,
  taxJurisdictionParams,
  taxRateInputSchema,
  vatCheckAnswerSchema,
  vatCheckBodySchema,
} from "#domain/tax";
import { checkTaxId } from "#domain/tax-ids";
import { requireRole, requireUser, signedInUser } from "#server/auth/guards";
import { operatorTrn } from "#server/env";
import {
  changeTaxRate,
  listAdminTaxRates,
  loadEffectiveTaxRates,
  verifyVatNumber,
} from "#server/modules/tax/service";

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

  app.post(
    "/tax/vat-check",
    {
      onRequest: requireUser,
      config: { rateLimit: { max: 30, timeWindow: "10 minutes" } },
      schema: {
        tags: ["tax"],
        summary: "What VIES (EU) or HMRC (UK) says about a business buyer's VAT number, for the checkout",
        description:
          "Only a number the register confirms earns the reverse charge; invalid, unavailable and unchecked (HMRC without credentials) are charged VAT. A confirmation is kept for 24 hours, and placing the order uses it. A number that is not well-formed for the country answers check: null.",
        body: vatCheckBodySchema,
        response: { 200: vatCheckAnswerSchema },
      },
    },
    async (request) => {
      const { country, taxId } = request.body;
      const checked = checkTaxId(country, taxId);
      if (!checked.ok || checked.kind !== "VAT") return { vatNumber: null, check: null };
      const check = await verifyVatNumber(db, app.vatRegisters, checked.value, new Date());
      return { vatNumber: checked.value, check };
    },
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
