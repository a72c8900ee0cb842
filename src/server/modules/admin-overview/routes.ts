import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireRole } from "#server/auth/guards";
import { route } from "#server/http/route";
import { adminOverview } from "#server/modules/admin-overview/service";

/** The admin's start screen: sales figures and the queues waiting for an admin. */
export const adminOverviewRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  route(
    app,
    "GET /admin/overview",
    {
      tags: ["admin"],
      summary:
        "Today's and this month's orders, gross sales and new users; moderation, refund and inbox queues; top products; 30 days of sales",
      description:
        "Orders and gross sales use the Finance screen's definitions (sales booked in the ledger, item subtotals before tax, UTC days).",
      onRequest: requireRole("admin"),
    },
    async () => adminOverview(db, app.clock.now()),
  );
};
