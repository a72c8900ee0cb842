import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { hasRole } from "#domain/accounts";
import { confirmedStatuses } from "#domain/checkout";
import { buildInvoice } from "#domain/invoice";
import { requireUser, signedInUser } from "#server/auth/guards";
import { operatorTrn } from "#server/env";
import { Conflict, NotFound } from "#server/errors";
import { route } from "#server/http/route";
import { invoiceHtml } from "#server/modules/invoices/invoice-html";
import { findOrder } from "#server/modules/orders/repository";

/** An order's invoice as a downloadable HTML file, for its buyer and for admins. */
export const invoiceRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  route(
    app,
    "GET /orders/:id/invoice.html",
    {
      tags: ["orders"],
      summary: "Download the invoice of one of your confirmed orders as a standalone HTML file",
      description:
        "Answers text/html as an attachment. Admins may fetch any order's invoice; anyone else's order is 404, an order not (yet) paid is 409.",
      onRequest: requireUser,
    },
    async (request, reply) => {
      const me = signedInUser(request);
      const order = await findOrder(
        db,
        request.params.id,
        hasRole(me, "admin") ? null : me.id,
        app.env.REFUND_WINDOW_DAYS,
      );
      // Someone else's order is as absent as one that does not exist, like GET /api/orders/:id.
      if (!order) throw new NotFound("Order not found.", "ORDER_NOT_FOUND");
      if (!confirmedStatuses.includes(order.paymentStatus)) {
        throw new Conflict(
          "This order has no invoice yet: an invoice is issued once the payment is confirmed.",
          "INVOICE_NOT_AVAILABLE",
        );
      }
      const invoice = buildInvoice(order, { trn: operatorTrn(app.env) });
      return reply
        .type("text/html; charset=utf-8")
        .header("content-disposition", `attachment; filename="stackbay-invoice-${invoice.number}.html"`)
        .send(invoiceHtml(invoice));
    },
  );
};
