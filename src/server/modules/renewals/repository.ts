import { and, asc, inArray, isNotNull, isNull, lte, sql } from "drizzle-orm";
import { DAY_MS } from "#domain/dates";
import { YEARLY_RENEWAL_NOTICE_DAYS } from "#domain/subscriptions";
import { rowsOf, type Transaction } from "#server/db/client";
import { subscriptions, usagePeriods } from "#server/db/schema/subscriptions";
import { renewsOn } from "#server/modules/subscriptions/repository";

/**
 * The renewal job's set-based writes (decision 0027): each statement writes a whole batch, its rows
 * passed as arrays, one per column, and unnested in PostgreSQL; what the renewal copies from the order
 * and item that started the subscription is copied there, row by row, in the same statement.
 */

/** A renewal order to insert: the amounts `computeTotals` gave, its payment state and idempotency key. */
export type RenewalOrderRow = {
  subscriptionId: string;
  idempotencyKey: string;
  subtotal: string;
  tax: string;
  total: string;
  paymentStatus: string;
  /** The checkout method it is paid by: its saved method's, or null for the origin order's. */
  paymentMethod: string | null;
};

/**
 * Inserts the renewal orders of a batch in one statement, each as the order that started its
 * subscription was made (buyer, address, currency, tax decision, payment method, referral, VAT check),
 * with its own amounts, payment state and key, unpaid and without shipping. An order whose buyer has its
 * key already is skipped; answers those inserted, by key.
 */
export async function insertRenewalOrders(
  tx: Transaction,
  rows: readonly RenewalOrderRow[],
  now: Date,
): Promise<{ id: string; idempotencyKey: string }[]> {
  if (rows.length === 0) return [];
  const column = <K extends keyof RenewalOrderRow>(key: K) => sql.param(rows.map((row) => row[key]));
  return rowsOf<{ id: string; idempotencyKey: string }>(
    tx,
    sql`insert into orders (user_id, subtotal, tax, total_amount, currency, fx_rate, payment_method,
        payment_status, is_paid, customer_info, shipping_address, idempotency_key, referral, buyer_country,
        buyer_company, buyer_tax_id, tax_jurisdiction, tax_label, tax_rate, reverse_charge, tax_note,
        vat_check_register, vat_check_status, vat_check_reference, vat_checked_at, created_at, updated_at)
      select s.user_id, v.subtotal, v.tax, v.total, o.currency, o.fx_rate, coalesce(v.payment_method, o.payment_method),
        v.payment_status, false, o.customer_info, null, v.idempotency_key, o.referral, o.buyer_country,
        o.buyer_company, o.buyer_tax_id, o.tax_jurisdiction, o.tax_label, o.tax_rate, o.reverse_charge, o.tax_note,
        o.vat_check_register, o.vat_check_status, o.vat_check_reference, o.vat_checked_at,
        ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
      from unnest(${column("subscriptionId")}::uuid[], ${column("idempotencyKey")}::text[],
          ${column("subtotal")}::numeric[], ${column("tax")}::numeric[], ${column("total")}::numeric[],
          ${column("paymentStatus")}::text[], ${column("paymentMethod")}::text[]) with ordinality
        as v(subscription_id, idempotency_key, subtotal, tax, total, payment_status, payment_method, n)
        join subscriptions s on s.id = v.subscription_id
        join orders o on o.id = s.order_id
      order by v.n
      on conflict (user_id, idempotency_key) do nothing
      returning id, idempotency_key as "idempotencyKey"`,
  );
}

/** A renewal order's one line: its subscription's product and seats, at the price and tax of its totals. */
export type RenewalItemRow = {
  orderId: string;
  subscriptionId: string;
  price: string;
  quantity: number;
  tax: string;
  taxRate: string;
  /**
   * A line that charges a change of plan or seats rather than a period: what it is for, after the
   * product's name; such a line is a one-time charge.
   */
  description?: string;
};

/**
 * Inserts the renewal orders' lines in one statement, each described as the item that started its
 * subscription was (name, pricing unit, vendor, picture, seller, category), with its own price, seats
 * and tax; a change's line adds its description to the name and is priced once.
 */
export async function insertRenewalItems(tx: Transaction, rows: readonly RenewalItemRow[]): Promise<void> {
  if (rows.length === 0) return;
  const column = <K extends keyof RenewalItemRow>(key: K) => sql.param(rows.map((row) => row[key]));
  const inserted = await rowsOf<{ id: string }>(
    tx,
    sql`insert into order_items (order_id, product_id, product_name, price, pricing_unit, quantity, vendor,
        image_url, seller_id, category, tax, tax_rate, shipping_state)
      select v.order_id, s.product_id,
        case when v.description is null then i.product_name else i.product_name || ' — ' || v.description end,
        v.price, case when v.description is null then i.pricing_unit else 'one_time' end, v.quantity, i.vendor,
        i.image_url, i.seller_id, i.category, v.tax, v.tax_rate, null
      from unnest(${column("orderId")}::uuid[], ${column("subscriptionId")}::uuid[], ${column("price")}::numeric[],
          ${column("quantity")}::int[], ${column("tax")}::numeric[], ${column("taxRate")}::numeric[],
          ${sql.param(rows.map((row) => row.description ?? null))}::text[]) with ordinality
        as v(order_id, subscription_id, price, quantity, tax, tax_rate, description, n)
        join subscriptions s on s.id = v.subscription_id
        join order_items i on i.id = s.order_item_id
      order by v.n
      returning id`,
  );
  // Each order was planned from its subscription's item read in this transaction: one line each, always.
  if (inserted.length !== rows.length)
    throw new Error(`${rows.length - inserted.length} renewal orders would have had no line`);
}

/**
 * Yearly subscriptions, live and renewing, with a notice of their coming renewal due at `now` and not
 * yet sent (`yearlyNoticesDue`), locked for the pass, with what the notice says: the buyer's checkout
 * details, the product and the tax rate of the order that started it.
 */
export async function yearlyNoticesToSend(tx: Transaction, now: Date, limit: number) {
  // The latest due date each notice reaches now, the earliest notice (the furthest ahead) first.
  const limits = YEARLY_RENEWAL_NOTICE_DAYS.map((days) => new Date(now.getTime() + days * DAY_MS)).sort(
    (a, b) => b.getTime() - a.getTime(),
  );
  const rows = await rowsOf<{
    id: string;
    paidThrough: Date;
    unitPrice: string;
    nextUnitPrice: string | null;
    priceChangeAt: Date | null;
    quantity: number;
    renewalNoticesSent: number;
    customerInfo: { fullName: string; email: string };
    taxRate: string;
    productName: string;
  }>(
    tx,
    sql`select s.id, s.paid_through as "paidThrough", s.unit_price as "unitPrice",
        s.next_unit_price as "nextUnitPrice", s.price_change_at as "priceChangeAt", s.quantity,
        s.renewal_notices_sent as "renewalNoticesSent", o.customer_info as "customerInfo",
        o.tax_rate as "taxRate", i.product_name as "productName"
      from subscriptions s
      join orders o on o.id = s.order_id
      join order_items i on i.id = s.order_item_id
      where s.ended_at is null and not s.cancel_at_period_end and s.interval = 'year' and s.periods_paid > 0
        and s.paid_through > ${now.toISOString()}::timestamptz
        and s.paid_through <= ${limits.at(0)?.toISOString()}::timestamptz
        and s.renewal_notices_sent < (select count(*) from unnest(${sql.param(limits.map((d) => d.toISOString()))}::timestamptz[]) l
          where s.paid_through <= l)
      order by s.paid_through
      limit ${limit}
      for update of s skip locked`,
  );
  // Both drivers read timestamps as dates, but raw rows are not typed by the schema: made sure of here.
  return rows.map((row) => ({
    ...row,
    paidThrough: new Date(row.paidThrough),
    priceChangeAt: row.priceChangeAt === null ? null : new Date(row.priceChangeAt),
  }));
}

/** Records how many notices of its coming renewal a subscription has had this period. */
export async function setRenewalNoticesSent(tx: Transaction, id: string, sent: number) {
  await tx.execute(sql`update subscriptions set renewal_notices_sent = ${sent} where id = ${id}`);
}

/** The effective saved method of a subscription, by the same rule as `effectiveMethodsOf`. */
const effectiveMethod = sql`join lateral (select pm.* from payment_methods pm
    where pm.user_id = s.user_id and pm.removed_at is null
      and ${renewsOn("s", "pm")}
    limit 1) pm on true`;

/** A renewal to charge on its saved method, or to send India's pre-debit notice for. */
export type RenewalCharge = {
  claimId: string;
  orderId: string;
  subscriptionId: string;
  dueAt: Date;
  chargesTried: number;
  methodId: string;
  methodKind: string;
  buyerCountry: string | null;
  total: string;
  customerInfo: { fullName: string; email: string };
  productName: string;
  /** A final bill of an ended metered subscription's use, rather than a renewal. */
  final: boolean;
};

const chargeColumns = sql`r.id as "claimId", r.final, r.order_id as "orderId", r.subscription_id as "subscriptionId",
    r.due_at as "dueAt", r.charges_tried as "chargesTried", pm.id as "methodId", pm.kind as "methodKind",
    o.buyer_country as "buyerCountry", o.total_amount as "total", o.customer_info as "customerInfo",
    i.product_name as "productName"`;

// A live subscription's next renewal, or the final bill of an ended metered subscription's use.
const chargeFrom = sql`from subscription_renewals r
    join subscriptions s on s.id = r.subscription_id
      and ((s.ended_at is null and r.period_index = s.periods_paid) or r.final)
    join orders o on o.id = r.order_id and o.payment_status in ('pending', 'failed') and o.cancelled_at is null
    join order_items i on i.id = s.order_item_id
    ${effectiveMethod}`;

const asCharges = (rows: RenewalCharge[]) => rows.map((row) => ({ ...row, dueAt: new Date(row.dueAt) }));

/**
 * Unpaid renewals whose saved card or PayPal account is to be charged now (decision 0027): due, on a
 * method not declined for good, on the due date's first try or a retry day's (`retryDays[n - 1]` days
 * after it for the n-th retry), and, for a card billed in India, a day after its pre-debit notice. Locked
 * for the pass (`skip locked`: instances share the work).
 */
export async function renewalsToCharge(
  tx: Transaction,
  now: Date,
  retryDays: readonly number[],
  noticeBefore: Date,
  limit: number,
) {
  const days = sql.raw(`array[${retryDays.map((d) => Math.trunc(Number(d))).join(",")}]::int[]`);
  const at = sql`${now.toISOString()}::timestamptz`;
  return asCharges(
    await rowsOf<RenewalCharge>(
      tx,
      sql`select ${chargeColumns} ${chargeFrom}
      where pm.kind in ('card', 'paypal') and pm.declined_at is null and r.due_at <= ${at}
        and r.charges_tried <= cardinality(${days})
        and (r.charges_tried = 0 or r.due_at + make_interval(days => (${days})[r.charges_tried]) <= ${at})
        and (pm.kind <> 'card' or o.buyer_country is distinct from 'IN'
          or r.pre_debit_notice_at <= ${noticeBefore.toISOString()}::timestamptz)
      order by r.due_at
      limit ${limit}
      for update of r skip locked`,
    ),
  );
}

/** Invoiced renewals to be charged to a card billed in India whose pre-debit notice is not sent yet. */
export async function preDebitNoticesToSend(tx: Transaction, limit: number) {
  return asCharges(
    await rowsOf<RenewalCharge>(
      tx,
      sql`select ${chargeColumns} ${chargeFrom}
      where pm.kind = 'card' and pm.declined_at is null and o.buyer_country = 'IN'
        and r.pre_debit_notice_at is null
      order by r.due_at
      limit ${limit}
      for update of r skip locked`,
    ),
  );
}

export async function setPreDebitNoticeSent(tx: Transaction, claimIds: readonly string[], at: Date) {
  if (claimIds.length === 0) return;
  await tx.execute(
    sql`update subscription_renewals set pre_debit_notice_at = ${at.toISOString()}::timestamptz
      where id = any(${sql.param([...claimIds])}::uuid[])`,
  );
}

export async function setChargesTried(tx: Transaction, claimId: string, chargesTried: number) {
  await tx.execute(
    sql`update subscription_renewals set charges_tried = ${chargesTried} where id = ${claimId}`,
  );
}

/**
 * Ended metered subscriptions whose use is to be billed (decision 0029): ended by `endedBefore` (their
 * end and its grace for late records have passed), with a period not rated yet, and no final bill yet.
 * Read from the unrated periods' index, locked for the pass (`skip locked`: instances share the work).
 */
export async function endedToBill(tx: Transaction, endedBefore: Date, limit: number) {
  return tx
    .select()
    .from(subscriptions)
    .where(
      and(
        isNotNull(subscriptions.meterUnit),
        lte(subscriptions.endedAt, endedBefore),
        inArray(
          subscriptions.id,
          tx
            .select({ id: usagePeriods.subscriptionId })
            .from(usagePeriods)
            .where(isNull(usagePeriods.ratedAt)),
        ),
        // Written out: inside a subquery drizzle would leave the outer row's column unqualified.
        sql`not exists (select 1 from subscription_renewals r where r.subscription_id = subscriptions.id and r.final)`,
      ),
    )
    .orderBy(asc(subscriptions.endedAt))
    .limit(limit)
    .for("update", { skipLocked: true });
}
