import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { stateOfFilter } from "#domain/shipping";
import { requireAnyRole, requireUser, signedInUser } from "#server/auth/guards";
import { route } from "#server/http/route";
import { listShipments } from "#server/modules/shipping/repository";
import { confirmDelivery, markShipped, shippingDepsOf } from "#server/modules/shipping/service";

/** Delivery of physical goods: the seller ships, the buyer (or time) confirms delivery. */
export const shippingRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = shippingDepsOf(app);

  app.register(async (scope) => {
    const sellers = scope.withTypeProvider<ZodTypeProvider>();
    // A buyer's address is personal data: never kept by a shared cache.
    sellers.addHook("onSend", async (_request, reply) => {
      reply.header("cache-control", "private, no-store");
    });

    route(
      sellers,
      "GET /seller/shipments",
      {
        tags: ["shipping"],
        summary: "Your physical items of paid orders in one state (to_ship by default), with where they go",
        onRequest: requireAnyRole("seller", "admin"),
      },
      async (request) => ({
        items: await listShipments(deps.db, signedInUser(request).id, stateOfFilter(request.query.state)),
      }),
    );

    route(
      sellers,
      "POST /shipments/:itemId/ship",
      {
        tags: ["shipping"],
        summary: "Mark one of your items shipped with its carrier and tracking number; the buyer is e-mailed",
        description:
          "Only the item's seller or an admin; anyone else's item answers 404 SHIPMENT_NOT_FOUND. The order must be paid (409 ORDER_NOT_PAID). The same carrier and tracking number again answers the item unchanged; other values on a shipped or delivered item answer 409 ALREADY_SHIPPED.",
        onRequest: requireAnyRole("seller", "admin"),
      },
      async (request) => {
        const me = signedInUser(request);
        const shipment = await markShipped(deps, me, request.params.itemId, request.body);
        request.log.info({ orderItemId: shipment.orderItemId, by: me.id }, "item shipped");
        return { shipment };
      },
    );
  });

  route(
    app,
    "POST /orders/:orderId/items/:itemId/confirm-delivery",
    {
      tags: ["shipping"],
      summary: "Confirm that a shipped item of your order arrived",
      description:
        "Only the order's buyer; anyone else answers 404 SHIPMENT_NOT_FOUND. An item not yet shipped answers 409 NOT_SHIPPED; confirming again answers the item unchanged. The item's refund window starts now.",
      onRequest: requireUser,
    },
    async (request) => {
      const me = signedInUser(request);
      const shipment = await confirmDelivery(deps, me, request.params);
      request.log.info({ orderItemId: shipment.orderItemId }, "delivery confirmed");
      return { shipment };
    },
  );
};
