import type { FastifyInstance } from "fastify";
import { buildInvoice } from "#domain/invoice";
import { absoluteUrl, paths } from "#domain/routes";
import { publicUrl } from "#server/env";
import { orderConfirmationMail } from "#server/mail/order-mail";
import { licensesOfOrder } from "#server/modules/licenses/repository";
import { findOrder, findOrderAccount } from "#server/modules/orders/repository";

/** E-mails the buyer, at their account's address, their confirmed order: items, totals, licence keys and the invoice link. */
export async function sendOrderConfirmation(app: FastifyInstance, orderId: string): Promise<void> {
  const { db } = app.database;
  const [order, licenses, account] = await Promise.all([
    findOrder(db, orderId, null, app.env.REFUND_WINDOW_DAYS),
    licensesOfOrder(db, orderId),
    findOrderAccount(db, orderId),
  ]);
  if (!order || !account) throw new Error(`order ${orderId} not found for its confirmation e-mail`);
  // Licence keys go only to the account's verified address: the billing e-mail is typed at checkout,
  // unchecked, and could be anyone's.
  if (!account.emailVerified) {
    app.log.warn({ orderId }, "order confirmation not sent: the account's e-mail is not verified");
    return;
  }
  const keysByProduct = new Map<string, string[]>();
  for (const licence of licenses) {
    keysByProduct.set(licence.productName, [...(keysByProduct.get(licence.productName) ?? []), licence.key]);
  }
  const base = publicUrl(app.env);
  const mail = orderConfirmationMail({
    invoice: buildInvoice(order),
    licenses: [...keysByProduct].map(([productName, keys]) => ({ productName, keys })),
    invoiceUrl: absoluteUrl(base, paths.invoice(orderId)),
    dashboardUrl: absoluteUrl(base, paths.dashboard()),
  });
  await app.mailer.send({ to: account.email, ...mail });
  app.log.info({ orderId }, "order confirmation e-mail sent");
}
