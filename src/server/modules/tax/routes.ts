import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { checkTaxId } from "#domain/tax-ids";
import { requireRole, requireUser, signedInUser } from "#server/auth/guards";
import { operatorTrn } from "#server/env";
import { route } from "#server/http/route";
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

  route(
    app,
    "GET /tax/rates",
    {
      tags: ["tax"],
      summary:
        "The tax rate in force per jurisdiction (UAE, India, EU member states, UK) and the operator's TRN",
      description: "What the checkout shows; the server decides each order's tax from the same list.",
    },
    async () => ({ items: await loadEffectiveTaxRates(db), operatorTrn: operatorTrn(app.env) }),
  );

  route(
    app,
    "POST /tax/vat-check",
    {
      tags: ["tax"],
      summary: "What VIES (EU) or HMRC (UK) says about a business buyer's VAT number, for the checkout",
      description:
        "Only a number the register confirms earns the reverse charge; invalid, unavailable and unchecked (HMRC without credentials) are charged VAT. A confirmation is kept for 24 hours, and placing the order uses it. A number that is not well-formed for the country answers check: null.",
      onRequest: requireUser,
      config: { rateLimit: { max: 30, timeWindow: "10 minutes" } },
    },
    async (request) => {
      const { country, taxId } = request.body;
      const checked = checkTaxId(country, taxId);
      if (!checked.ok || checked.kind !== "VAT") return { vatNumber: null, check: null };
      const check = await verifyVatNumber(db, app.vatRegisters, checked.value, new Date());
      return { vatNumber: checked.value, check };
    },
  );

  route(
    app,
    "GET /admin/tax-rates",
    {
      tags: ["admin"],
      summary: "Every jurisdiction's rate, its default and its last change; super admins only",
      onRequest: superAdmin,
    },
    async () => ({ items: await listAdminTaxRates(db) }),
  );

  route(
    app,
    "PUT /admin/tax-rates/:jurisdiction",
    {
      tags: ["admin"],
      summary: "Set a jurisdiction's rate (percent, 0–50, at most 2 decimals); audited",
      description: "New orders are taxed at it; placed orders keep the rate they were charged.",
      onRequest: superAdmin,
    },
    async (request) => {
      const me = signedInUser(request);
      const { jurisdiction } = request.params;
      await changeTaxRate(db, me, jurisdiction, request.body.ratePercent);
      request.log.info({ jurisdiction, ratePercent: request.body.ratePercent }, "tax rate changed");
      return { items: await listAdminTaxRates(db) };
    },
  );

  route(
    app,
    "DELETE /admin/tax-rates/:jurisdiction",
    {
      tags: ["admin"],
      summary: "Return a jurisdiction to its default rate; audited",
      onRequest: superAdmin,
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
