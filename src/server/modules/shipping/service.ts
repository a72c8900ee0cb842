import type { FastifyInstance } from "fastify";
import { hasRole } from "#domain/accounts";
import { confirmedStatuses } from "#domain/checkout";
import { absoluteUrl, paths } from "#domain/routes";
import { autoDeliveryCutoff, type DeliveredBy, type Shipment, settlesAtOnDelivery } from "#domain/shipping";
import type { UserRow } from "#server/auth/guards";
import type { Database, Db, Transaction } from "#server/db/client";
import { publicUrl } from "#server/env";
import { Conflict, NotFound } from "#server/errors";
import type { JobDefinition } from "#server/jobs/queue";
import type { Clock } from "#server/lib/clock";
import type { Mailer } from "#server/mail/mailer";
import { shippedMail } from "#server/mail/shipping-mail";
import {
  buyerAccount,
  dueForAutoDelivery,
  findShipment,
  lockShipment,
  setDelivered,
  setShipped,
} from "#server/modules/shipping/repository";

export type ShippingDeps = {
  db: Database;
  mailer: Mailer;
  clock: Clock;
  /** The site's public origin, for the link in the buyer's e-mail. */
  origin: string;
  refundWindowDays: number;
  deliveryConfirmDays: number;
};

export function shippingDepsOf(app: FastifyInstance): ShippingDeps {
  return {
    db: app.database.db,
    mailer: app.mailer,
    clock: app.clock,
    origin: publicUrl(app.env),
    refundWindowDays: app.env.REFUND_WINDOW_DAYS,
    deliveryConfirmDays: app.env.DELIVERY_CONFIRM_DAYS,
  };
}

const notFound = () => new NotFound("Shipment not found.", "SHIPMENT_NOT_FOUND");

async function reread(db: Db, orderItemId: string): Promise<Shipment> {
  const shipment = await findShipment(db, orderItemId);
  if (!shipment) throw notFound();
  return shipment;
}

/**
 * The item's seller (or an admin) hands it to the carrier: awaiting_shipment → shipped, and the buyer is
 * e-mailed the carrier and tracking number in the same transaction. Someone else's item is as absent as
 * a missing one. The same carrier and tracking number again is a replay and answers the item as it is
 * (no second e-mail); other values on an item already shipped are refused, as states only move forward.
 */
export async function markShipped(
  deps: ShippingDeps,
  me: UserRow,
  orderItemId: string,
  input: { carrier: string; trackingNumber: string },
): Promise<Shipment> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = await lockShipment(tx, orderItemId);
    if (!row?.item.shippingState) throw notFound();
    const { item, order } = row;
    if (item.sellerId !== me.id && !hasRole(me, "admin")) throw notFound();
    if (!confirmedStatuses.includes(order.paymentStatus as never)) {
      throw new Conflict("This order has not been paid yet, so it cannot ship.", "ORDER_NOT_PAID");
    }
    if (item.shippingState !== "awaiting_shipment") {
      if (item.carrier === input.carrier && item.trackingNumber === input.trackingNumber) {
        return reread(tx, orderItemId);
      }
      throw new Conflict(
        item.shippingState === "delivered"
          ? "This item has already been delivered."
          : "This item has already been marked shipped.",
        "ALREADY_SHIPPED",
      );
    }
    if (item.refundStatus === "refunded") {
      throw new Conflict("This item was refunded, so it does not ship.", "ITEM_REFUNDED");
    }
    if (!(await setShipped(tx, orderItemId, input, now)))
      throw new Conflict("This item changed; reload.", "ALREADY_SHIPPED");
    const buyer = await buyerAccount(tx, order.userId);
    if (buyer) {
      await deps.mailer.send(
        {
          to: buyer.email,
          ...shippedMail({
            name: order.customerInfo.fullName,
            orderId: order.id,
            productName: item.productName,
            quantity: item.quantity,
            carrier: input.carrier,
            trackingNumber: input.trackingNumber,
            confirmDays: deps.deliveryConfirmDays,
            link: { label: "View your order", url: absoluteUrl(deps.origin, paths.dashboard()) },
          }),
        },
        { tx },
      );
    }
    return reread(tx, orderItemId);
  });
}

/** Delivers a shipped item: its refund window, and so its seller net's settling date, start now. */
async function deliverItem(
  deps: Pick<ShippingDeps, "refundWindowDays">,
  tx: Transaction,
  orderItemId: string,
  by: DeliveredBy,
  now: Date,
): Promise<boolean> {
  return setDelivered(tx, orderItemId, by, now, settlesAtOnDelivery(now, deps.refundWindowDays));
}

/**
 * The order's buyer confirms receipt: shipped → delivered. Only the buyer of that order may; anyone
 * else gets not-found. Confirming again is harmless; an item not yet shipped cannot be confirmed.
 */
export async function confirmDelivery(
  deps: ShippingDeps,
  me: UserRow,
  ids: { orderId: string; itemId: string },
): Promise<Shipment> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = await lockShipment(tx, ids.itemId);
    if (!row?.item.shippingState || row.order.id !== ids.orderId || row.order.userId !== me.id) {
      throw notFound();
    }
    if (row.item.shippingState === "awaiting_shipment") {
      throw new Conflict("This item has not been shipped yet.", "NOT_SHIPPED");
    }
    if (row.item.shippingState === "shipped") await deliverItem(deps, tx, ids.itemId, "buyer", now);
    return reread(tx, ids.itemId);
  });
}

/**
 * Items shipped DELIVERY_CONFIRM_DAYS ago or earlier that the buyer never confirmed count as delivered,
 * a transaction each; the conditional update leaves alone any the buyer confirmed meanwhile.
 */
export async function deliverOverdue(
  deps: Pick<ShippingDeps, "db" | "refundWindowDays" | "deliveryConfirmDays">,
  now: Date,
  limit = 500,
): Promise<number> {
  const due = await dueForAutoDelivery(deps.db, autoDeliveryCutoff(now, deps.deliveryConfirmDays), limit);
  let delivered = 0;
  for (const id of due) {
    if (await deps.db.transaction((tx) => deliverItem(deps, tx, id, "automatic", now))) delivered++;
  }
  return delivered;
}

/** The automatic delivery as a job, every fifteen minutes across all instances. */
export function deliveryConfirmJob(deps: ShippingDeps): JobDefinition {
  return {
    name: "delivery-confirm",
    cron: "*/15 * * * *",
    retryLimit: 2,
    retryDelaySeconds: 60,
    describe: () => "Count shipped items as delivered after DELIVERY_CONFIRM_DAYS",
    async run() {
      await deliverOverdue(deps, deps.clock.now());
    },
  };
}
