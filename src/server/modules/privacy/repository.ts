import { and, desc, eq, inArray, or, sql } from "drizzle-orm";
import { type Db, rowsOf, type Transaction } from "#server/db/client";
import {
  commissions,
  licenseActivations,
  licenses,
  referralClicks,
  refundRequests,
  resellerCodes,
  resellerFingerprints,
} from "#server/db/schema/after-sale";
import { auditLog } from "#server/db/schema/audit";
import { account, emailCodeSends, session, twoFactor, user, verification } from "#server/db/schema/auth";
import { products, storefrontChanges, storefronts } from "#server/db/schema/catalog";
import { newsletterSubscriptions } from "#server/db/schema/inbound";
import { journalLines, payouts } from "#server/db/schema/ledger";
import { notifications } from "#server/db/schema/notifications";
import { orderItems, orders, savedItems } from "#server/db/schema/orders";
import { paymentCustomers, paymentMethodSetups, paymentMethods } from "#server/db/schema/payment-methods";
import { payoutAccounts } from "#server/db/schema/payouts";
import { productQuestions, questionReports } from "#server/db/schema/questions";
import { reviewReports, reviews } from "#server/db/schema/reviews";
import { sellerApiKeys, sellerWebhookEndpoints, sellerWebhookEvents } from "#server/db/schema/seller-api";
import { subscriptionRenewals, subscriptions } from "#server/db/schema/subscriptions";

/** An order is in progress while its payment is: not paid yet, not failed. */
export const OPEN_PAYMENT_STATES = ["pending", "processing"];
/** A refund request nobody has decided for good yet. */
export const OPEN_REFUND_STATES = ["requested", "seller_rejected", "escalated"];
export const UNDELIVERED_SHIPPING_STATES = ["awaiting_shipment", "shipped"];
/** Orders whose invoice was issued: paid at some point, refunded or not. */
export const INVOICED_PAYMENT_STATES = ["mock_confirmed", "partially_refunded", "refunded"];

// ---- export ---------------------------------------------------------------------------------------

export async function ordersWithItems(db: Db, userId: string) {
  const rows = await db
    .select({
      id: orders.id,
      createdAt: orders.createdAt,
      paymentMethod: orders.paymentMethod,
      paymentStatus: orders.paymentStatus,
      currency: orders.currency,
      subtotal: orders.subtotal,
      tax: orders.tax,
      totalAmount: orders.totalAmount,
      customerInfo: orders.customerInfo,
      shippingAddress: orders.shippingAddress,
      buyerCountry: orders.buyerCountry,
      buyerCompany: orders.buyerCompany,
      buyerTaxId: orders.buyerTaxId,
    })
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt));
  const items = rows.length
    ? await db
        .select({
          orderId: orderItems.orderId,
          productId: orderItems.productId,
          productName: orderItems.productName,
          vendor: orderItems.vendor,
          price: orderItems.price,
          quantity: orderItems.quantity,
          tax: orderItems.tax,
          refundStatus: orderItems.refundStatus,
          shippingState: orderItems.shippingState,
          carrier: orderItems.carrier,
          trackingNumber: orderItems.trackingNumber,
          shippedAt: orderItems.shippedAt,
          deliveredAt: orderItems.deliveredAt,
        })
        .from(orderItems)
        .where(
          inArray(
            orderItems.orderId,
            rows.map((row) => row.id),
          ),
        )
    : [];
  return rows.map((row) => ({
    ...row,
    items: items.filter((item) => item.orderId === row.id).map(({ orderId: _, ...item }) => item),
  }));
}

export const licensesOf = (db: Db, userId: string) =>
  db
    .select({
      id: licenses.id,
      key: licenses.key,
      orderId: licenses.orderId,
      productName: licenses.productName,
      status: licenses.status,
      issuedAt: licenses.issuedAt,
      renewsAt: licenses.renewsAt,
      revokedAt: licenses.revokedAt,
    })
    .from(licenses)
    .where(eq(licenses.userId, userId))
    .orderBy(desc(licenses.issuedAt));

export const refundRequestsOf = (db: Db, userId: string) =>
  db
    .select({
      id: refundRequests.id,
      orderId: refundRequests.orderId,
      reason: refundRequests.reason,
      status: refundRequests.status,
      sellerNote: refundRequests.sellerNote,
      createdAt: refundRequests.createdAt,
    })
    .from(refundRequests)
    .where(eq(refundRequests.buyerId, userId));

export const reviewsOf = (db: Db, userId: string) =>
  db
    .select({
      id: reviews.id,
      productId: reviews.productId,
      productName: products.name,
      rating: reviews.rating,
      title: reviews.title,
      body: reviews.body,
      status: reviews.status,
      createdAt: reviews.createdAt,
    })
    .from(reviews)
    .leftJoin(products, eq(products.id, reviews.productId))
    .where(eq(reviews.userId, userId));

export const questionsOf = (db: Db, userId: string) =>
  db
    .select({
      id: productQuestions.id,
      productId: productQuestions.productId,
      productName: products.name,
      text: productQuestions.text,
      answer: productQuestions.answer,
      status: productQuestions.status,
      createdAt: productQuestions.createdAt,
    })
    .from(productQuestions)
    .leftJoin(products, eq(products.id, productQuestions.productId))
    .where(eq(productQuestions.askerId, userId));

export const savedProductsOf = (db: Db, userId: string) =>
  db
    .select({ productId: savedItems.productId, productName: products.name, savedAt: savedItems.savedAt })
    .from(savedItems)
    .innerJoin(products, eq(products.id, savedItems.productId))
    .where(eq(savedItems.userId, userId));

export async function storefrontOf(db: Db, userId: string) {
  const [row] = await db
    .select({
      slug: storefronts.slug,
      name: storefronts.name,
      description: storefronts.description,
      website: storefronts.website,
      country: storefronts.country,
    })
    .from(storefronts)
    .where(eq(storefronts.userId, userId));
  return row ?? null;
}

export const commissionsOf = (db: Db, userId: string) =>
  db
    .select({
      id: commissions.id,
      orderId: commissions.orderId,
      rate: commissions.rate,
      amount: commissions.amount,
      status: commissions.status,
      createdAt: commissions.createdAt,
    })
    .from(commissions)
    .where(eq(commissions.resellerId, userId));

export const payoutsOf = (db: Db, userId: string) =>
  db
    .select({
      id: payouts.id,
      role: payouts.role,
      amount: payouts.amount,
      status: payouts.status,
      createdAt: payouts.createdAt,
    })
    .from(payouts)
    .where(eq(payouts.userId, userId));

export async function payoutMethodOf(db: Db, userId: string) {
  const [row] = await db
    .select({
      method: payoutAccounts.method,
      bankMasked: payoutAccounts.bankMasked,
      stripeStatus: payoutAccounts.stripeStatus,
      country: payoutAccounts.country,
    })
    .from(payoutAccounts)
    .where(eq(payoutAccounts.userId, userId));
  return row ?? null;
}

/** What the person did themselves (without the before/after, which may describe others' records). */
export const ownAuditTrail = (db: Db, userId: string) =>
  db
    .select({
      action: auditLog.action,
      entityType: auditLog.entityType,
      entityId: auditLog.entityId,
      entityLabel: auditLog.entityLabel,
      createdAt: auditLog.createdAt,
    })
    .from(auditLog)
    .where(eq(auditLog.actorId, userId))
    .orderBy(desc(auditLog.createdAt))
    .limit(1000);

/** `-sum(lines)` per account: what is owed to the earner on each (money units). */
export async function ledgerBalances(db: Db, accountIds: string[]) {
  const rows = await db
    .select({
      accountId: journalLines.accountId,
      owed: sql<number>`coalesce(-sum(${journalLines.amount}), 0)`.mapWith(Number),
    })
    .from(journalLines)
    .where(inArray(journalLines.accountId, accountIds))
    .groupBy(journalLines.accountId);
  return new Map(rows.map((row) => [row.accountId, row.owed]));
}

// ---- what blocks a deletion -----------------------------------------------------------------------

export async function firstOpenOrder(db: Db, userId: string) {
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.userId, userId), inArray(orders.paymentStatus, OPEN_PAYMENT_STATES)))
    .limit(1);
  return row ?? null;
}

/** As the buyer who asked, or as the seller who must answer. */
export async function firstOpenRefund(db: Db, userId: string) {
  const [row] = await db
    .select({ orderId: refundRequests.orderId })
    .from(refundRequests)
    .where(
      and(
        or(eq(refundRequests.buyerId, userId), eq(refundRequests.sellerId, userId)),
        inArray(refundRequests.status, OPEN_REFUND_STATES),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** A physical item on its way to the person, or one they sold and have not delivered yet. */
export async function firstUndeliveredShipment(db: Db, userId: string) {
  const [row] = await db
    .select({ orderId: orderItems.orderId })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(
      and(
        or(eq(orders.userId, userId), eq(orderItems.sellerId, userId)),
        inArray(orderItems.shippingState, UNDELIVERED_SHIPPING_STATES),
        // An order that was never paid ships nothing: the open-order check speaks for it.
        sql`${orders.paymentStatus} not in ('pending', 'processing', 'failed')`,
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function payoutInTransit(db: Db, userId: string) {
  const [row] = await db
    .select({ id: payouts.id })
    .from(payouts)
    .where(and(eq(payouts.userId, userId), eq(payouts.status, "processing")))
    .limit(1);
  return row ?? null;
}

// ---- erasure (all inside the caller's transaction) ------------------------------------------------

/**
 * Erases what identifies the person and what they could sign in with. The row stays (orders,
 * invoices and the ledger point at it) as a disabled "Former customer" with a tombstone address that
 * no one can receive mail at, so the real address is free to sign up again.
 */
export async function eraseIdentity(tx: Transaction, userId: string, email: string, tombstone: string) {
  // Their sessions, and any session they opened as someone else (an admin impersonating).
  await tx.delete(session).where(or(eq(session.userId, userId), eq(session.impersonatedBy, userId)));
  await tx.delete(account).where(eq(account.userId, userId));
  await tx.delete(twoFactor).where(eq(twoFactor.userId, userId));
  await tx.delete(verification).where(sql`position(${email} in ${verification.identifier}) > 0`);
  await tx.delete(emailCodeSends).where(eq(emailCodeSends.email, email));
  await tx.delete(newsletterSubscriptions).where(eq(newsletterSubscriptions.email, email));
  await tx
    .update(user)
    .set({
      name: "Former customer",
      email: tombstone,
      emailVerified: false,
      image: null,
      firstName: "Former customer",
      lastName: "",
      phone: null,
      address: null,
      city: null,
      country: null,
      isBuyer: false,
      isSeller: false,
      isReseller: false,
      isAdmin: false,
      isSuperAdmin: false,
      isTrustedSeller: false,
      settings: {},
      twoFactorEnabled: false,
      banned: true,
      banReason: "account deleted by its owner",
      updatedAt: new Date(),
    })
    .where(eq(user.id, userId));
}

/**
 * Orders: an issued invoice stays as issued (tax law keeps the buyer's name and address on it for
 * years), so invoiced orders keep their billing details; every other order loses them. Delivery
 * addresses go from all of them: nothing is on its way (deletion is refused otherwise).
 */
export async function anonymiseOrders(tx: Transaction, userId: string, tombstone: string) {
  await tx
    .update(orders)
    .set({ shippingAddress: null, updatedAt: new Date() })
    .where(eq(orders.userId, userId));
  await tx
    .update(orders)
    .set({
      customerInfo: { fullName: "Former customer", email: tombstone, address: "", city: "", country: "" },
      buyerCompany: null,
      buyerTaxId: null,
    })
    .where(
      and(
        eq(orders.userId, userId),
        sql`${orders.paymentStatus} not in ('mock_confirmed', 'partially_refunded', 'refunded')`,
      ),
    );
}

/**
 * What only served the person: saved products, reports they filed, reseller code, link clicks and
 * sightings, the payout method with its sealed bank details, their saved payment methods (references to
 * cards and PayPal accounts at the providers), their notifications (an e-mail still queued for one
 * finds it gone and is not sent), a seller's API keys with their access log (a key stops working at
 * once), the machines the person's licences are activated on (their names and identifiers; the
 * licences themselves stay with the books), and their webhook endpoints with their events and
 * deliveries (nothing more is sent).
 */
export async function removeOwnedRows(tx: Transaction, userId: string) {
  await tx
    .delete(licenseActivations)
    .where(
      inArray(
        licenseActivations.licenseId,
        tx.select({ id: licenses.id }).from(licenses).where(eq(licenses.userId, userId)),
      ),
    );
  await tx.delete(notifications).where(eq(notifications.userId, userId));
  await tx.delete(savedItems).where(eq(savedItems.userId, userId));
  await tx.delete(reviewReports).where(eq(reviewReports.userId, userId));
  await tx.delete(questionReports).where(eq(questionReports.userId, userId));
  await tx.delete(resellerCodes).where(eq(resellerCodes.userId, userId));
  await tx.delete(referralClicks).where(eq(referralClicks.resellerId, userId));
  await tx.delete(resellerFingerprints).where(eq(resellerFingerprints.userId, userId));
  await tx.delete(payoutAccounts).where(eq(payoutAccounts.userId, userId));
  await tx.delete(paymentMethodSetups).where(eq(paymentMethodSetups.userId, userId));
  await tx.delete(paymentMethods).where(eq(paymentMethods.userId, userId));
  await tx.delete(paymentCustomers).where(eq(paymentCustomers.userId, userId));
  await tx.delete(sellerApiKeys).where(eq(sellerApiKeys.sellerId, userId));
  // Events first: deleting them deletes their deliveries, then the endpoints go.
  await tx.delete(sellerWebhookEvents).where(eq(sellerWebhookEvents.sellerId, userId));
  await tx.delete(sellerWebhookEndpoints).where(eq(sellerWebhookEndpoints.sellerId, userId));
}

/**
 * A seller's listings come off sale and the storefront (their business's public page) goes, with any
 * name or logo change still waiting for review.
 */
export async function closeShop(tx: Transaction, userId: string) {
  const listings = await tx
    .update(products)
    .set({ isActive: false, updatedAt: new Date() })
    .where(and(eq(products.sellerId, userId), eq(products.isActive, true)))
    .returning({ id: products.id });
  await tx.delete(storefrontChanges).where(eq(storefrontChanges.userId, userId));
  await tx.delete(storefronts).where(eq(storefronts.userId, userId));
  return listings.length;
}

/** Their past audit entries keep the account's id but no longer its address. */
export async function anonymiseAuditTrail(tx: Transaction, userId: string, tombstone: string) {
  await tx.update(auditLog).set({ actorEmail: tombstone }).where(eq(auditLog.actorId, userId));
}

/** What an order's checkout details read after they were anonymised. */
const FORMER_TRIAL = { fullName: "Former trial", email: "", address: "", city: "", country: "" };

/**
 * Anonymises the checkout details (name, e-mail, address, company, tax ID) of the orders of free
 * trials that never converted and ended before `endedBefore`: the order that started the trial, when
 * nothing was paid on it, and the unpaid invoice of its first period. The subscription row stays,
 * with no personal data of its own, so the buyer's one trial of the product is still known. Answers how
 * many orders were anonymised; a second run finds none.
 */
export async function anonymiseDormantTrials(tx: Transaction, endedBefore: Date): Promise<number> {
  const changed = await rowsOf<{ id: string }>(
    tx,
    sql`
    with dormant as (
      select s.id, s.order_id from ${subscriptions} s
      where s.trial_ends_at is not null and s.periods_paid = 0 and s.ended_at < ${endedBefore.toISOString()}::timestamptz
    ), trial_orders as (
      select o.id from ${orders} o join dormant d on d.order_id = o.id where o.total_amount = 0
      union
      select o.id from ${orders} o
      join ${subscriptionRenewals} r on r.order_id = o.id
      join dormant d on d.id = r.subscription_id
      where not o.is_paid
    )
    update ${orders} o
    set customer_info = ${JSON.stringify(FORMER_TRIAL)}::jsonb, buyer_company = null, buyer_tax_id = null,
      shipping_address = null
    from trial_orders t
    where o.id = t.id and o.customer_info->>'fullName' <> ${FORMER_TRIAL.fullName}
    returning o.id`,
  );
  return changed.length;
}
