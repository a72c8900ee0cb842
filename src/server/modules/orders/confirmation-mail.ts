import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { buildInvoice } from "#domain/invoice";
import { orders } from "#server/db/schema/orders";
import { publicUrl } from "#server/env";
import { orderConfirmationMail } from "#server/mail/order-mail";
import { licensesOfOrder } from "#server/modules/licenses/repository";
import { loadOrders } from "#server/modules/orders/service";

/** E-mails the buyer their confirmed order: items, totals, licence keys and the invoice link. */
export async function sendOrderConfirmation(app: FastifyInstance, orderId: string): Promise<void> {
  const { db } = app.database;
  const [[order], licenses] = await Promise.all([
    loadOrders(db, eq(orders.id, orderId)),
    licensesOfOrder(db, orderId),
  ]);
  if (!order) throw new Error(`order ${orderId} not found for its confirmation e-mail`);
  const keysByProduct = new Map<string, string[]>();
  for (const licence of licenses) {
    keysByProduct.set(licence.productName, [...(keysByProduct.get(licence.productName) ?? []), licence.key]);
  }
  const base = publicUrl(app.env);
  const mail = orderConfirmationMail({
    invoice: buildInvoice(order),
    licenses: [...keysByProduct].map(([productName, keys]) => ({ productName, keys })),
    invoiceUrl: `${base}/dashboard/orders/${encodeURIComponent(orderId)}/invoice`,
    dashboardUrl: `${base}/dashboard`,
  });
  await app.mailer.send({ to: order.customerInfo.email, ...mail });
  app.log.info({ orderId }, "order confirmation e-mail sent");
}
