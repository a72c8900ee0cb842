import { createHash } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { BANK_TRANSFER_METHOD } from "#domain/bank-transfer";
import { placeOrderSchema } from "#domain/checkout";
import { centsAmount, chargeCents, computeTotals } from "#domain/money";
import { checkoutMethodOf } from "#domain/payment-methods";
import type { PaymentRedirect } from "#domain/payments";
import type {
  SubscriptionChangeCommit,
  SubscriptionChangeInput,
  SubscriptionChangePreview,
} from "#domain/subscription-schemas";
import {
  type Billed,
  boundary,
  type ChangePreview,
  previewChange,
  quantityLabel,
  type SubscriptionChangeKind,
  subscriptionStatusAt,
  unitPriceDue,
} from "#domain/subscriptions";
import type { Database, Db, Transaction } from "#server/db/client";
import { AppError, Conflict, NotFound, ValidationError } from "#server/errors";
import { openBankTransfer } from "#server/modules/bank-transfers/service";
import { findActiveProducts } from "#server/modules/orders/repository";
import { ProductUnavailable, placeOrder } from "#server/modules/orders/service";
import type { MethodRow } from "#server/modules/payment-methods/repository";
import {
  chargeOrderWithSavedMethod,
  type PaymentDeps,
  paymentDepsOf,
} from "#server/modules/payments/service";
import { livePlansOf } from "#server/modules/plans/repository";
import { planChoices } from "#server/modules/plans/service";
import { insertRenewalItems, insertRenewalOrders } from "#server/modules/renewals/repository";
import {
  cancelWaitingChanges,
  effectiveMethodsOf,
  insertChange,
  lockSubscriptionOfUser,
  originOrder,
  planForChange,
  type SubscriptionRow,
  setChangeOrder,
  subscriptionOfUser,
  unpaidRenewalsOf,
  waitingChangesOf,
} from "#server/modules/subscriptions/repository";
import { applyChange, subscriptionsOf } from "#server/modules/subscriptions/service";
import type { VatRegisters } from "#server/vat/registers";

/** What changes need: the payments' (an upgrade is charged on the saved method, or paid as an order). */
export type ChangeDeps = PaymentDeps;

export function changeDepsOf(app: FastifyInstance): ChangeDeps {
  return paymentDepsOf(app);
}

/** How long a preview may be committed after it was priced: prices move on with time. */
export const PREVIEW_VALID_MS = 15 * 60 * 1000;

/** A plan's price (whole cents, as plans are priced) in cents. */
const cents = (amount: string) => chargeCents(amount);

/** A change priced: the preview the buyer sees, and what committing it records. */
type Priced = {
  subscription: SubscriptionRow;
  preview: SubscriptionChangePreview;
  kind: SubscriptionChangeKind;
  amounts: Pick<ChangePreview, "creditCents" | "chargeCents" | "dueCents">;
  plan: { id: string; interval: "month" | "year" };
  /** The price per unit the new terms carry. */
  toUnitPrice: string;
  /** The same plan and seats as now: committing cancels a waiting change and changes nothing else. */
  keep: boolean;
  waitingChangeId: string | null;
};

/**
 * Prices a change of a buyer's subscription to `input` at `at` (decision 0027), from the database:
 * - refused for someone else's subscription (404), an ended or cancelling one, one whose next renewal is
 *   invoiced already (pay it first: it was priced at the present terms), a plan that is not one of the
 *   product's live plans (or the one it is on), seats outside the plan's range, or no change at all;
 * - during a free trial, any change takes effect at once and costs nothing: no period is paid yet;
 * - otherwise `previewChange` decides: a dearer plan or more seats in the same interval is charged now
 *   for the rest of the period (less the old terms' unused part), monthly to yearly starts a year now,
 *   anything else waits for the period's end.
 * The same plan keeps the subscription's own price (and a price announced for the next renewal); a
 * different plan is priced as it is listed now.
 */
async function price(
  db: Db,
  subscription: SubscriptionRow | null,
  input: SubscriptionChangeInput,
  taxRate: string,
  at: Date,
): Promise<Priced> {
  if (!subscription) throw new NotFound("Subscription not found.", "SUBSCRIPTION_NOT_FOUND");
  const s = subscription;
  const status = subscriptionStatusAt(s, at);
  if (status === "ended")
    throw new Conflict("This subscription has ended. Buy it again to start a new one.", "SUBSCRIPTION_ENDED");
  if (status === "cancelling")
    throw new Conflict(
      "This subscription ends at the end of its period. Resume it before changing its plan.",
      "SUBSCRIPTION_CANCELLING",
    );
  const unpaid = (await unpaidRenewalsOf(db, [s.id])).get(s.id);
  if (unpaid || status === "past_due")
    throw new Conflict(
      "Your next renewal is invoiced at your present plan. Pay it first, then change your plan.",
      "RENEWAL_INVOICED",
    );
  const plan = s.productId ? await planForChange(db, s.productId, input.planId, s.planId) : null;
  if (!plan) throw new NotFound("That plan is not one of this product's plans.", "PLAN_NOT_FOUND");
  if (input.seats < plan.minSeats || input.seats > plan.maxSeats)
    throw new AppError(
      400,
      "SEATS_OUT_OF_RANGE",
      `The ${plan.name} plan takes ${plan.minSeats} to ${plan.maxSeats} seats.`,
      [{ path: "seats", message: `Choose ${plan.minSeats} to ${plan.maxSeats} seats` }],
    );
  const waiting = (await waitingChangesOf(db, [s.id])).get(s.id) ?? null;
  const samePlan = plan.id === s.planId;
  const keep = samePlan && input.seats === s.quantity;
  if (keep && !waiting)
    throw new AppError(400, "NO_CHANGE", "That is the plan and number of seats you have now.", [
      { path: "seats", message: "Choose another plan or number of seats" },
    ]);

  const current: Billed = {
    plan: { interval: s.interval, priceCents: cents(s.unitPrice), perSeat: true, minSeats: 1, maxSeats: 99 },
    seats: s.quantity,
  };
  // Within the period, the same plan is billed at the subscription's own price; the next period's price
  // is the one due then (an announced new price, once its notice has run).
  const nowUnitPrice = samePlan ? s.unitPrice : plan.price;
  const nextUnitPrice = samePlan ? unitPriceDue(s, s.paidThrough) : plan.price;
  const next: Billed = {
    plan: { ...current.plan, interval: plan.interval, priceCents: cents(nowUnitPrice) },
    seats: input.seats,
  };

  let kind: SubscriptionChangeKind;
  let amounts: Priced["amounts"];
  let effectiveAt: Date;
  let nextChargeAt: Date;
  if (keep) {
    kind = "at_period_end";
    amounts = { creditCents: 0, chargeCents: 0, dueCents: 0 };
    effectiveAt = s.paidThrough;
    nextChargeAt = s.paidThrough;
  } else if (s.periodsPaid === 0) {
    // A trial: no period is paid, so the new terms start now and its first invoice charges them.
    kind = "now";
    amounts = { creditCents: 0, chargeCents: 0, dueCents: 0 };
    effectiveAt = at;
    nextChargeAt = s.paidThrough;
  } else {
    const period = {
      index: s.periodsPaid - 1,
      start: boundary(s, s.periodsPaid - 1),
      end: s.paidThrough,
    };
    const change = previewChange(current, next, period, at);
    kind = change.kind;
    amounts = change;
    effectiveAt = kind === "at_period_end" ? period.end : at;
    nextChargeAt = change.periodEnd;
  }
  // What a period costs from the next renewal on: the dearer terms at once keep the plan's price for the
  // current period (`nowUnitPrice`), and the next renewal is priced as the plan is then.
  const toUnitPrice = kind === "now" && s.periodsPaid > 0 ? nowUnitPrice : nextUnitPrice;
  const due = computeTotals([{ price: centsAmount(amounts.dueCents), quantity: 1 }], taxRate);
  const preview: Omit<SubscriptionChangePreview, "token"> = {
    kind,
    pricedAt: at.toISOString(),
    planId: plan.id,
    planName: plan.name,
    interval: plan.interval,
    perSeat: plan.perSeat,
    seats: input.seats,
    unitPrice: toUnitPrice,
    ...amounts,
    dueTax: due.tax,
    dueTotal: due.total,
    taxRate,
    effectiveAt: effectiveAt.toISOString(),
    nextChargeAt: nextChargeAt.toISOString(),
    nextTotal: computeTotals([{ price: nextUnitPrice, quantity: input.seats }], taxRate).total,
  };
  // The token stands for the preview and everything of the subscription and plan it was priced from: a
  // renewal, a payment, another change or a new price in between gives the commit another token.
  const token = createHash("sha256")
    .update(
      JSON.stringify({
        preview,
        subscription: [
          s.id,
          s.planId,
          s.interval,
          s.unitPrice,
          s.quantity,
          s.periodsPaid,
          s.paidThrough.toISOString(),
          s.claimedPeriod,
          s.nextUnitPrice,
          s.priceChangeAt?.toISOString() ?? null,
          s.cancelAtPeriodEnd,
          s.endedAt?.toISOString() ?? null,
          s.anchor.toISOString(),
          s.anchorPeriod,
        ],
        plan: [plan.id, plan.price, plan.updatedAt.toISOString(), plan.archivedAt?.toISOString() ?? null],
        waiting: waiting?.id ?? null,
      }),
    )
    .digest("base64url");
  return {
    subscription: s,
    preview: { ...preview, token },
    kind,
    amounts,
    plan,
    toUnitPrice,
    keep,
    waitingChangeId: waiting?.id ?? null,
  };
}

/** The tax rate of the order a subscription started from: every charge of it is taxed so. */
async function taxRateOf(db: Db, subscription: SubscriptionRow | null): Promise<string> {
  return subscription ? ((await originOrder(db, subscription.orderId))?.taxRate ?? "0") : "0";
}

/** What a change of plan or seats would cost now; nothing changes. */
export async function previewSubscriptionChange(
  db: Database,
  userId: string,
  id: string,
  input: SubscriptionChangeInput,
  now: Date,
): Promise<SubscriptionChangePreview> {
  const row = await subscriptionOfUser(db, userId, id);
  return (await price(db, row?.subscription ?? null, input, row?.taxRate ?? "0", now)).preview;
}

/**
 * Commits a change as its preview said (decision 0027): priced again at the preview's moment from the
 * subscription as it is now, under a lock, and refused as stale (409) unless that gives the same token,
 * or when the preview is older than `PREVIEW_VALID_MS` (or from the future). A waiting change is
 * cancelled first. Then:
 * - the same terms as now: only that cancellation;
 * - a change for the period's end: scheduled, for the renewal that starts the next period;
 * - a change at once that costs nothing (a trial): applied now;
 * - one with an amount due: an order for exactly that amount with the preview's tax, made as a renewal
 *   is (the same buyer, tax decision and payment method), which the buyer pays like any order; its
 *   delivery applies the change. Until then the subscription keeps its terms.
 */
export async function commitSubscriptionChange(
  deps: ChangeDeps,
  userId: string,
  id: string,
  commit: SubscriptionChangeCommit,
  now: Date,
) {
  const pricedAt = new Date(commit.pricedAt);
  const stale = new Conflict(
    "The price of this change has moved on since you saw it. Review the new price and confirm again.",
    "PREVIEW_STALE",
  );
  if (pricedAt.getTime() > now.getTime() || now.getTime() - pricedAt.getTime() > PREVIEW_VALID_MS)
    throw stale;
  const made = await deps.db.transaction(async (tx) => {
    const subscription = await lockSubscriptionOfUser(tx, userId, id);
    const priced = await price(tx, subscription, commit, await taxRateOf(tx, subscription), pricedAt);
    if (priced.preview.token !== commit.token) throw stale;
    const s = priced.subscription;
    if (priced.waitingChangeId) await cancelWaitingChanges(tx, [s.id], now);
    if (priced.keep) return { status: "applied" as const, orderId: null };
    const change = await insertChange(tx, {
      subscriptionId: s.id,
      kind: priced.kind,
      status: priced.kind === "at_period_end" ? "scheduled" : "awaiting_payment",
      pricedAt,
      periodsPaid: s.periodsPaid,
      fromPlanId: s.planId,
      fromInterval: s.interval,
      fromUnitPrice: s.unitPrice,
      fromQuantity: s.quantity,
      toPlanId: priced.plan.id,
      toInterval: priced.plan.interval,
      toUnitPrice: priced.toUnitPrice,
      toQuantity: commit.seats,
      ...priced.amounts,
      effectiveAt: new Date(priced.preview.effectiveAt),
      createdAt: now,
    });
    if (priced.kind === "at_period_end") return { status: "scheduled" as const, orderId: null, method: null };
    if (priced.amounts.dueCents === 0) {
      await applyChange(tx, change, now);
      return { status: "applied" as const, orderId: null, method: null };
    }
    const { orderId, method } = await changeOrder(deps, tx, s, change.id, priced.preview, now);
    await setChangeOrder(tx, change.id, orderId);
    return { status: "awaiting_payment" as const, orderId, method };
  });
  // The buyer confirmed the amount on screen: it is charged on the subscription's saved card or PayPal
  // account now, its order's id (one per change) naming the charge. A refusal leaves the order to pay.
  const charged =
    made.orderId && made.method ? await chargeOrderWithSavedMethod(deps, made.orderId, made.method) : null;
  const [subscription] = (await subscriptionsOf(deps.db, userId, deps.settlement.clock.now())).filter(
    (one) => one.id === id,
  );
  if (!subscription) throw new NotFound("Subscription not found.", "SUBSCRIPTION_NOT_FOUND");
  return {
    subscription,
    change: {
      status: charged?.state === "paid" ? ("applied" as const) : made.status,
      orderId: made.orderId,
      charged:
        charged?.state === "paid"
          ? ("paid" as const)
          : charged?.state === "declined"
            ? ("declined" as const)
            : null,
      declineReason: charged?.state === "declined" ? charged.reason : null,
    },
  };
}

/**
 * The order that charges a change: one line, "<product> — <plan>, <seats> (change)", for the preview's
 * amount due at its tax, made as the subscription's renewals are (`insertRenewalOrders`), its transfer
 * instructions opened when the subscription is paid by bank transfer.
 */
async function changeOrder(
  deps: ChangeDeps,
  tx: Transaction,
  subscription: SubscriptionRow,
  changeId: string,
  preview: SubscriptionChangePreview,
  now: Date,
): Promise<{ orderId: string; method: MethodRow | null }> {
  const origin = await originOrder(tx, subscription.orderId);
  if (!origin) throw new Conflict("This subscription's first order is gone.", "SUBSCRIPTION_ENDED");
  // Paid as its renewals are: on its saved method when it has one, else as the first order was.
  const saved = (await effectiveMethodsOf(tx, [subscription.id])).get(subscription.id) ?? null;
  const paymentMethod = saved ? checkoutMethodOf(saved.kind) : null;
  const byTransfer = (paymentMethod ?? origin.paymentMethod) === BANK_TRANSFER_METHOD;
  const [order] = await insertRenewalOrders(
    tx,
    [
      {
        subscriptionId: subscription.id,
        idempotencyKey: `change:${changeId}`,
        subtotal: centsAmount(preview.dueCents),
        tax: preview.dueTax,
        total: preview.dueTotal,
        paymentStatus: byTransfer ? "processing" : "pending",
        paymentMethod,
      },
    ],
    now,
  );
  if (!order) throw new Error(`the order of change ${changeId} was not made`);
  const seats = quantityLabel(preview.seats, preview.perSeat);
  await insertRenewalItems(tx, [
    {
      orderId: order.id,
      subscriptionId: subscription.id,
      price: centsAmount(preview.dueCents),
      quantity: 1,
      tax: preview.dueTax,
      taxRate: preview.taxRate,
      description: `${preview.planName}, ${seats}: change for the rest of the period`,
    },
  ]);
  if (byTransfer)
    await openBankTransfer(
      deps,
      tx,
      {
        id: order.id,
        userId: subscription.userId,
        totalAmount: preview.dueTotal,
        customerInfo: origin.customerInfo,
      },
      now,
    );
  const chargeable = saved && saved.kind !== "bank_transfer" && !saved.declinedAt ? saved : null;
  return { orderId: order.id, method: chargeable };
}

/**
 * Starts an ended subscription again in one step (decision 0027): a new order of the same product, plan
 * and seats at the plan's price today, with the billing details of the order that started it, placed
 * as checkout places one (prices, tax and the one-trial rule included: no trial again). It is charged on
 * the subscription's saved method when it has one, else the buyer is sent to pay it. The same ended
 * subscription asked twice answers the same order (its idempotency key comes from the subscription and
 * its end). Its delivery starts the new subscription.
 */
export async function restartSubscription(
  deps: ChangeDeps,
  userId: string,
  id: string,
  vatRegisters: VatRegisters,
): Promise<PaymentRedirect> {
  const row = await subscriptionOfUser(deps.db, userId, id);
  if (!row) throw new NotFound("Subscription not found.", "SUBSCRIPTION_NOT_FOUND");
  const s = row.subscription;
  if (!s.endedAt)
    throw new Conflict(
      "This subscription is still running: there is nothing to start again.",
      "SUBSCRIPTION_LIVE",
    );
  const origin = await originOrder(deps.db, s.orderId);
  const [product] = s.productId ? await findActiveProducts(deps.db, [s.productId]) : [];
  // Its plans as checkout offers them (the listed price as one plan, for a product without any).
  const plans = product
    ? (planChoices(product, (await livePlansOf(deps.db, [product.id])).get(product.id)) ?? [])
    : [];
  if (!origin || !product || plans.length === 0)
    throw new ProductUnavailable(s.productId ? [s.productId] : [], [row.productName]);
  const plan =
    plans.find((p) => p.id === s.planId) ?? (s.planId && plans.some((p) => p.id) ? undefined : plans[0]);
  if (!plan)
    throw new AppError(
      404,
      "PLAN_NOT_FOUND",
      `That plan of ${row.productName} is no longer offered. Choose one of its plans on its page.`,
    );
  const method = (await effectiveMethodsOf(deps.db, [s.id])).get(s.id) ?? null;
  const info = origin.customerInfo;
  const input = placeOrderSchema.safeParse({
    fullName: info.fullName,
    email: info.email,
    address: info.address,
    city: info.city,
    country: origin.buyerCountry ?? info.country,
    business: origin.buyerCompany !== null,
    company: origin.buyerCompany ?? "",
    taxId: origin.buyerTaxId ?? "",
    paymentMethod: method ? checkoutMethodOf(method.kind) : origin.paymentMethod,
    currency: origin.currency,
    idempotencyKey: derivedUuid(`restart:${s.id}:${s.endedAt.toISOString()}`),
    items: [
      {
        productId: product.id,
        quantity: s.quantity,
        price: Number(plan.price),
        planId: plan.id ?? undefined,
      },
    ],
    savedMethodId: method?.id ?? null,
  });
  if (!input.success)
    throw new ValidationError(
      "The billing details of this subscription are no longer complete. Subscribe again from the product page.",
    );
  const { answer } = await placeOrder(deps, userId, input.data, null, vatRegisters, { chargeSaved: true });
  return answer;
}

/** A UUID (version 4 layout) derived from a text: the same text, the same idempotency key. */
function derivedUuid(text: string): string {
  const hex = createHash("sha256").update(text).digest("hex");
  const variant = ((Number.parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
