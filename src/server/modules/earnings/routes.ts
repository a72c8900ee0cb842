import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { requireUser, signedInUser } from "#server/auth/guards";
import { route } from "#server/http/route";
import { salesCsv } from "#server/modules/earnings/csv";
import {
  allSales,
  earningsOverview,
  payoutHistory,
  receivedOrdersPage,
  salesPage,
  sellerStats,
} from "#server/modules/earnings/service";

/** A seller's and reseller's own money: balances, sales with their breakdown, payouts. */
export const earningsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  app.register(async (scope) => {
    const signedIn = scope.withTypeProvider<ZodTypeProvider>();
    // Figures about one person's money: never kept by a shared cache or the browser's back button.
    signedIn.addHook("onSend", async (_request, reply) => {
      reply.header("cache-control", "private, no-store");
    });

    route(
      signedIn,
      "GET /earnings",
      {
        tags: ["earnings"],
        summary:
          "Your balances per earning role (pending, available, in transit, paid) and the last 12 months",
        description:
          "One summary per role you hold (seller, reseller); none for a plain buyer. Every figure is summed from the ledger. Amounts in USD.",
        onRequest: requireUser,
      },
      // The months are counted to the money clock's now, the time the sales and releases are stamped by.
      async (request) =>
        earningsOverview(db, signedInUser(request), app.env.PAYOUT_MINIMUM_USD, app.clock.now()),
    );

    route(
      signedIn,
      "GET /earnings/sales",
      {
        tags: ["earnings"],
        summary:
          "Your sold items of confirmed orders, newest first, with gross, fee, commission, tax and net",
        description: "Sellers only (403 otherwise).",
        onRequest: requireUser,
      },
      async (request) => salesPage(db, signedInUser(request), request.query.page),
    );

    route(
      signedIn,
      "GET /seller/orders",
      {
        tags: ["earnings"],
        summary: "The orders you received as a seller, newest first, with only your items in each",
        description:
          "Sellers only (403 otherwise). The paid orders whose sale is booked (those Orders Received counts); each names the buyer (company, else billing name) and carries only your own items, their refund and shipping state, and their total in USD before fees. Another seller's items of the same order, and the buyer's other lines, are never included.",
        onRequest: requireUser,
      },
      async (request) => receivedOrdersPage(db, signedInUser(request), request.query.page),
    );

    route(
      signedIn,
      "GET /earnings/sales.csv",
      {
        tags: ["earnings"],
        summary: "Your sold items as CSV (up to 10,000 newest lines)",
        description: "Sellers only (403 otherwise).",
        onRequest: requireUser,
      },
      async (request, reply) => {
        const lines = await allSales(db, signedInUser(request));
        const stamp = new Date().toISOString().slice(0, 10);
        return reply
          .type("text/csv; charset=utf-8")
          .header("content-disposition", `attachment; filename="stackbay-sales-${stamp}.csv"`)
          .send(salesCsv(lines));
      },
    );

    route(
      signedIn,
      "GET /earnings/payouts",
      {
        tags: ["earnings"],
        summary: "Your payouts (as seller and reseller), newest first",
        onRequest: requireUser,
      },
      async (request) => payoutHistory(db, signedInUser(request).id, request.query.page),
    );

    route(
      signedIn,
      "GET /earnings/stats",
      {
        tags: ["earnings"],
        summary: "Your seller figures: orders received, gross sales and net earnings",
        description: "Sellers only (403 otherwise). Net earnings is pending + available + in transit + paid.",
        onRequest: requireUser,
      },
      async (request) => sellerStats(db, signedInUser(request)),
    );
  });
};
