import type { FastifyInstance } from "fastify";
import { buildInvoice } from "#domain/invoice";
import { absoluteUrl, paths } from "#domain/routes";
import { operatorTrn, publicUrl } from "#server/env";
import type { Mail } from "#server/mail/mailer";
import { orderConfirmationMail } from "#server/mail/order-mail";
import { licensesOfOrder } from "#server/modules/licenses/repository";
import { findOrder, findOrderAccount } from "#server/modules/orders/repository";

/**
 * The buyer's confirmation e-mail, to their account's address: items, totals, license keys and the
 * invoice link. Null (nothing to send) when the account's address is not verified.
 */
export async function renderOrderConfirmation(app: FastifyInstance, orderId: string): Promise<Mail | null> {
  const { db } = app.database;
  const [order, licenses, account] = await Promise.all([
    findOrder(db, orderId, null, app.env.REFUND_WINDOW_DAYS),
    licensesOfOrder(db, orderId),
    findOrderAccount(db, orderId),
  ]);
  if (!order || !account) throw new Error(`order ${orderId} not found for its confirmation e-mail`);
  // License keys go only to the account's verified address: the billing e-mail is typed at checkout,
  // unchecked, and could be anyone's.
  if (!account.emailVerified) {
    app.log.warn({ orderId }, "order confirmation not sent: the account's e-mail is not verified");
    return null;
  }
  const keysByProduct = new Map<string, string[]>();
  for (const license of licenses) {
    keysByProduct.set(license.productName, [...(keysByProduct.get(license.productName) ?? []), license.key]);
  }
  const base = publicUrl(app.env);
  const mail = orderConfirmationMail({
    invoice: buildInvoice(order, { trn: operatorTrn(app.env) }),
    licenses: [...keysByProduct].map(([productName, keys]) => ({ productName, keys })),
    invoiceUrl: absoluteUrl(base, paths.invoice(orderId)),
    dashboardUrl: absoluteUrl(base, paths.dashboard()),
  });
  return { to: account.email, ...mail };
}
