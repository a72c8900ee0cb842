import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireRole } from "#server/auth/guards";
import { route } from "#server/http/route";
import { financeSummary, journalCsv, reconciliation } from "#server/modules/finance/service";

/** The operator's books, read from the ledger; super admins only. */
export const financeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  route(
    app,
    "GET /admin/finance",
    {
      tags: ["admin"],
      summary: "Sales, fees, commissions, tax due, refunds and payouts booked in a period; balances owed now",
      description: "`from` and `to` are UTC calendar days, `to` included.",
      onRequest: requireRole("superAdmin"),
    },
    async (request) => financeSummary(db, request.query),
  );

  route(
    app,
    "GET /admin/finance/reconciliation",
    {
      tags: ["admin"],
      summary: "Money captured per order against the sale booked in the ledger; every order that differs",
      onRequest: requireRole("superAdmin"),
    },
    async () => reconciliation(db),
  );

  route(
    app,
    "GET /admin/finance/export.csv",
    {
      tags: ["admin"],
      summary:
        "The period's journal as CSV, a row per line (date, entry kind, memo, order, account, debit, credit)",
      onRequest: requireRole("superAdmin"),
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
