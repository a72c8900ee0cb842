import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { hasRole } from "#domain/accounts";
import { requireRole, requireUser, signedInUser } from "#server/auth/guards";
import { NotFound } from "#server/errors";
import { route } from "#server/http/route";
import { findOrder, listAllOrders, listOrdersOfUser, orderStats } from "#server/modules/orders/repository";
import { placeOrder } from "#server/modules/orders/service";
import { paymentDepsOf } from "#server/modules/payments/service";
import { readReferral } from "#server/modules/referrals/cookie";
import { adminSetStatus, settlementOf } from "#server/modules/settlement/service";

/** Checkout and orders. Totals are always the server's; callers see only their own orders. */
export const orderRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const settlement = settlementOf(app);
  const payments = paymentDepsOf(app);

  route(
    app,
    "POST /orders",
    {
      tags: ["orders"],
      summary: "Place an order from product ids and quantities; the server prices it and starts its payment",
      description:
        "Prices, tax and totals are computed from the database; any total in the body is ignored. Each item carries the unit price the buyer was shown: if any differs from the current price, the answer is 409 PRICE_CHANGED with details.changes (productId, name, oldPrice, newPrice) and no order is made. The order is made pending and the answer says where to send the browser to pay (redirectUrl); only the payment provider's verified answer confirms it. The same idempotencyKey answers with the order it already created (200), before any price check, and its open payment (or a new attempt after a refusal).",
      onRequest: requireUser,
      config: { rateLimit: { max: 20, timeWindow: "10 minutes" } },
    },
    async (request, reply) => {
      const { answer, created } = await placeOrder(
        payments,
        signedInUser(request).id,
        request.body,
        await readReferral(request),
        app.vatRegisters,
      );
      request.log.info({ orderId: answer.orderId, created }, "order placed");
      return reply.status(created ? 201 : 200).send(answer);
    },
  );

  route(
    app,
    "GET /orders",
    {
      tags: ["orders"],
      summary: "Your orders with their items, newest first, and the dashboard figures",
      onRequest: requireUser,
    },
    async (request) => {
      const me = signedInUser(request);
      const [items, stats] = await Promise.all([
        listOrdersOfUser(db, me.id, app.env.REFUND_WINDOW_DAYS),
        orderStats(db, me.id),
      ]);
      return { items, stats };
    },
  );

  route(
    app,
    "GET /orders/:id",
    {
      tags: ["orders"],
      summary: "One of your orders (admins may open any)",
      onRequest: requireUser,
    },
    async (request) => {
      const me = signedInUser(request);
      const ownerId = hasRole(me, "admin") ? null : me.id;
      const order = await findOrder(db, request.params.id, ownerId, app.env.REFUND_WINDOW_DAYS);
      // Someone else's order is as absent as one that does not exist.
      if (!order) throw new NotFound("Order not found.", "ORDER_NOT_FOUND");
      return { order };
    },
  );

  app.register(async (scope) => {
    const admin = scope.withTypeProvider<ZodTypeProvider>();

    route(
      admin,
      "GET /admin/orders",
      {
        tags: ["admin"],
        summary: "Every order, newest first, optionally of one payment status or matching a search",
        description:
          "`q` finds an order by its id (full or the first 8 characters) or by part of the buyer's e-mail or name, any case.",
        onRequest: requireRole("admin"),
      },
      async (request) => listAllOrders(db, request.query, app.env.REFUND_WINDOW_DAYS),
    );

    route(
      admin,
      "PATCH /admin/orders/:id",
      {
        tags: ["admin"],
        summary: "Move an order to another payment status, as the order state machine allows",
        description:
          "The paid flag follows the status. Confirming delivers the order (licenses, commissions, e-mail) once; a move the state machine does not allow answers 409 INVALID_ORDER_TRANSITION with the reason.",
        onRequest: requireRole("admin"),
      },
      async (request) => {
        const me = signedInUser(request);
        const { id } = request.params;
        await adminSetStatus(settlement, me, id, request.body.paymentStatus);
        request.log.info({ orderId: id, ...request.body, by: me.id }, "order status changed");
        const order = await findOrder(db, id, null, app.env.REFUND_WINDOW_DAYS);
        if (!order) throw new NotFound("Order not found.", "ORDER_NOT_FOUND");
        return { order };
      },
    );
  });
};
