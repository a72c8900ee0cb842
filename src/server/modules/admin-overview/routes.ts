import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { adminOverviewSchema } from "#domain/admin-overview";
import { requireRole } from "#server/auth/guards";
import { adminOverview } from "#server/modules/admin-overview/service";

/** The admin's start screen: sales figures and the queues waiting for an admin. */
export const adminOverviewRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  app.addHook("onRequest", requireRole("admin"));

  app.get(
    "/admin/overview",
    {
      schema: {
        tags: ["admin"],
        summary:
          "Today's and this month's orders, gross sales and new users; moderation, refund and inbox queues; top products; 30 days of sales",
        description:
          "Orders and gross sales use the Finance screen's definitions (sales booked in the ledger, item subtotals before tax, UTC days).",
        response: { 200: adminOverviewSchema },
      },
    },
    async () => adminOverview(db, app.clock.now()),
  );
};
