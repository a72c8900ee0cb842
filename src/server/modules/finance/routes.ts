import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { financeSummarySchema, periodSchema, reconciliationSchema } from "#domain/finance";
import { requireRole } from "#server/auth/guards";
import { financeSummary, journalCsv, reconciliation } from "#server/modules/finance/service";

/** The operator's books, read from the ledger; super admins only. */
export const financeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  app.addHook("onRequest", requireRole("superAdmin"));

  app.get(
    "/admin/finance",
    {
      schema: {
        tags: ["admin"],
        summary:
          "Sales, fees, commissions, tax due, refunds and payouts booked in a period; balances owed now",
        description: "`from` and `to` are UTC calendar days, `to` included.",
        querystring: periodSchema,
        response: { 200: financeSummarySchema },
      },
    },
    async (request) => financeSummary(db, request.query),
  );

  app.get(
    "/admin/finance/reconciliation",
    {
      schema: {
        tags: ["admin"],
        summary: "Money captured per order against the sale booked in the ledger; every order that differs",
        response: { 200: reconciliationSchema },
      },
    },
    async () => reconciliation(db),
  );

  app.get(
    "/admin/finance/export.csv",
    {
      schema: {
        tags: ["admin"],
        summary:
          "The period's journal as CSV, a row per line (date, entry kind, memo, order, account, debit, credit)",
        querystring: periodSchema,
        produces: ["text/csv"],
      },
    },
    async (request, reply) => {
      const { from, to } = request.query;
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="stackbay-journal-${from}-to-${to}.csv"`)
        .send(await journalCsv(db, request.query));
    },
  );
};
