import { and, eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { hasRole } from "#domain/accounts";
import {
  adminOrderListSchema,
  adminOrdersQuery,
  orderListSchema,
  orderSchema,
  orderStatusUpdateSchema,
  placeOrderSchema,
} from "#domain/checkout";
import { requireRole, requireUser, signedInUser } from "#server/auth/guards";
import { orders } from "#server/db/schema/orders";
import { NotFound } from "#server/errors";
import { recordAudit } from "#server/lib/audit";
import { sendOrderConfirmation } from "#server/modules/orders/confirmation-mail";
import { mockPaymentProvider, type PaymentProvider } from "#server/modules/orders/payments";
import { listAllOrders, loadOrders, orderStats, placeOrder } from "#server/modules/orders/service";
import { readReferral } from "#server/modules/referrals/cookie";

const orderAnswer = z.object({ order: orderSchema });
const idParams = z.object({ id: z.uuid("Unknown order") });

/** Checkout and orders. Totals are always the server's; callers see only their own orders. */
export const orderRoutes: FastifyPluginAsyncZod<{ payments?: PaymentProvider }> = async (app, options) => {
  const { db } = app.database;
  const payments = options.payments ?? mockPaymentProvider;
  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "private, no-store");
  });

  app.register(async (scope) => {
    const own = scope.withTypeProvider<ZodTypeProvider>();
    own.addHook("onRequest", requireUser);

    own.post(
      "/orders",
      {
        config: { rateLimit: { max: 20, timeWindow: "10 minutes" } },
        schema: {
          tags: ["orders"],
          summary: "Place an order from product ids and quantities; the server prices it",
          description:
            "Prices, tax and totals are computed from the database; any total in the body is ignored. Each item carries the unit price the buyer was shown: if any differs from the current price, the answer is 409 PRICE_CHANGED with details.changes (productId, name, oldPrice, newPrice) and no order is made. The same idempotencyKey answers with the order it already created (200), before any price check.",
          body: placeOrderSchema,
          response: { 200: orderAnswer, 201: orderAnswer },
        },
      },
      async (request, reply) => {
        const { order, created, confirmed } = await placeOrder(
          db,
          payments,
          signedInUser(request).id,
          request.body,
          { referral: await readReferral(request), refundWindowDays: app.env.REFUND_WINDOW_DAYS },
        );
        request.log.info({ orderId: order.id, created, total: order.totalAmount }, "order placed");
        if (confirmed) {
          // The order stands whether or not the e-mail goes out; a mail failure is logged for follow-up.
          await sendOrderConfirmation(app, order.id).catch((error: unknown) =>
            request.log.error({ err: error, orderId: order.id }, "order confirmation e-mail failed"),
          );
        }
        return reply.status(created ? 201 : 200).send({ order });
      },
    );

    own.get(
      "/orders",
      {
        schema: {
          tags: ["orders"],
          summary: "Your orders with their items, newest first, and the dashboard figures",
          response: { 200: orderListSchema },
        },
      },
      async (request) => {
        const me = signedInUser(request);
        const [items, stats] = await Promise.all([
          loadOrders(db, eq(orders.userId, me.id)),
          orderStats(db, me.id),
        ]);
        return { items, stats };
      },
    );

    own.get(
      "/orders/:id",
      {
        schema: {
          tags: ["orders"],
          summary: "One of your orders (admins may open any)",
          params: idParams,
          response: { 200: orderAnswer },
        },
      },
      async (request) => {
        const me = signedInUser(request);
        const mine = hasRole(me, "admin")
          ? eq(orders.id, request.params.id)
          : and(eq(orders.id, request.params.id), eq(orders.userId, me.id));
        const [order] = await loadOrders(db, mine);
        // Someone else's order is as absent as one that does not exist.
        if (!order) throw new NotFound("Order not found.", "ORDER_NOT_FOUND");
        return { order };
      },
    );
  });

  app.register(async (scope) => {
    const admin = scope.withTypeProvider<ZodTypeProvider>();
    admin.addHook("onRequest", requireRole("admin"));

    admin.get(
      "/admin/orders",
      {
        schema: {
          tags: ["admin"],
          summary: "Every order, newest first, optionally of one payment status",
          querystring: adminOrdersQuery,
          response: { 200: adminOrderListSchema },
        },
      },
      async (request) => listAllOrders(db, request.query),
    );

    admin.patch(
      "/admin/orders/:id",
      {
        schema: {
          tags: ["admin"],
          summary: "Set an order's payment status and paid flag",
          params: idParams,
          body: orderStatusUpdateSchema,
          response: { 200: orderAnswer },
        },
      },
      async (request) => {
        const me = signedInUser(request);
        const { id } = request.params;
        await db.transaction(async (tx) => {
          const [before] = await tx
            .select({ paymentStatus: orders.paymentStatus, isPaid: orders.isPaid })
            .from(orders)
            .where(eq(orders.id, id))
            .for("update");
          if (!before) throw new NotFound("Order not found.", "ORDER_NOT_FOUND");
          await tx
            .update(orders)
            .set({ ...request.body, updatedAt: new Date() })
            .where(eq(orders.id, id));
          await recordAudit(tx, me, {
            action: "update",
            entityType: "order",
            entityId: id,
            entityLabel: id.slice(0, 8),
            before,
            after: { ...before, ...request.body },
          });
        });
        request.log.info({ orderId: id, ...request.body, by: me.id }, "order status changed");
        const [order] = await loadOrders(db, eq(orders.id, request.params.id));
        if (!order) throw new NotFound("Order not found.", "ORDER_NOT_FOUND");
        return { order };
      },
    );
  });
};
