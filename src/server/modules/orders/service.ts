import type { z } from "zod";
import { BANK_TRANSFER_METHOD } from "#domain/bank-transfer";
import {
  buyerOf,
  MAX_QUANTITY,
  type PriceChange,
  type PriceChangedDetails,
  type ProductUnavailableDetails,
  type placeOrderSchema,
  type TrialUsedDetails,
} from "#domain/checkout";
import { computeTotals, MONEY_COLUMN_MAX, toUnits } from "#domain/money";
import type { PaymentRedirect } from "#domain/payments";
import { priceChanges } from "#domain/price-changes";
import { absoluteUrl, paths } from "#domain/routes";
import { isPhysicalCategory, SHIPPING_ADDRESS_REQUIRED } from "#domain/shipping";
import { planUnit, recurringIntervalOf } from "#domain/subscriptions";
import { decideTax } from "#domain/tax";
import type { Database } from "#server/db/client";
import { AppError, ValidationError } from "#server/errors";
import { openBankTransfer } from "#server/modules/bank-transfers/service";
import {
  findActiveProducts,
  findFxRate,
  findOrderIdByIdempotencyKey,
  insertOrderItems,
  insertOrderOnce,
  productNames,
} from "#server/modules/orders/repository";
import { type MethodRow, methodOfUser, trialUsedByCard } from "#server/modules/payment-methods/repository";
import { chargeOrderWithSavedMethod, type PaymentDeps, startPayment } from "#server/modules/payments/service";
import { livePlansOf, productsTrialled } from "#server/modules/plans/repository";
import { planChoices } from "#server/modules/plans/service";
import type { Referral } from "#server/modules/referrals/service";
import { deliverInTx, storeReferral } from "#server/modules/settlement/service";
import { loadEffectiveTaxRates, verifyVatNumber } from "#server/modules/tax/service";
import type { VatRegisters } from "#server/vat/registers";

type PlaceOrder = z.output<typeof placeOrderSchema>;

export class ProductUnavailable extends AppError {
  constructor(productIds: string[], names: string[]) {
    super(
      409,
      "PRODUCT_UNAVAILABLE",
      names.length > 0
        ? `These items are no longer available: ${names.join(", ")}. Remove them from your cart and try again.`
        : "Some items in your cart are no longer available. Remove them and try again.",
      { productIds } satisfies ProductUnavailableDetails,
    );
  }
}

/** A price is not the one the buyer was shown: nothing is ordered, the buyer sees the new prices first. */
export class PriceChanged extends AppError {
  constructor(changes: PriceChange[]) {
    super(
      409,
      "PRICE_CHANGED",
      `Prices changed since these items were added to your cart: ${changes.map((c) => c.name).join(", ")}. Review the new total and place your order again.`,
      { changes } satisfies PriceChangedDetails,
    );
  }
}

/** Refused: a plan that is not one of its product's live plans. */
class PlanNotFound extends AppError {
  constructor(name: string) {
    super(404, "PLAN_NOT_FOUND", `That plan of ${name} is no longer offered. Choose one of its plans again.`);
  }
}

type ActiveProduct = Awaited<ReturnType<typeof findActiveProducts>>[number];
type PlaceLine = PlaceOrder["items"][number];

/**
 * Each product's line as it is sold: its plan when it is recurring (the one named, or its first), the
 * quantity (seats of a per-seat plan, within the plan's range), whether its free trial is taken, and
 * the unit price charged now (nothing during a trial). A buyer gets one trial of a product.
 */
async function saleLines(
  db: Database,
  userId: string,
  items: readonly PlaceLine[],
  found: ActiveProduct[],
  quantities: Map<string, number>,
) {
  const plans = await livePlansOf(
    db,
    found.filter((p) => recurringIntervalOf(p.pricingUnit)).map((p) => p.id),
  );
  const lines = found.map((product) => {
    const asked = items.find((item) => item.productId === product.id);
    const quantity = quantities.get(product.id) ?? 1;
    const choices = planChoices(product, plans.get(product.id));
    if (!choices) {
      if (asked?.planId) throw new PlanNotFound(product.name);
      if (asked?.trial) throw new TrialNotOffered(product.name);
      return { product, quantity, plan: null, trial: false, charged: product.price };
    }
    const plan = asked?.planId ? choices.find((choice) => choice.id === asked.planId) : choices[0];
    if (!plan) throw new PlanNotFound(product.name);
    if (quantity < plan.minSeats || quantity > plan.maxSeats)
      throw new AppError(
        400,
        "SEATS_OUT_OF_RANGE",
        `The ${plan.name} plan of ${product.name} takes ${plan.minSeats} to ${plan.maxSeats} seats.`,
        [{ path: "items", message: `Choose ${plan.minSeats} to ${plan.maxSeats} seats` }],
      );
    const trial = asked?.trial ?? false;
    if (trial && plan.trialDays === 0) throw new TrialNotOffered(product.name);
    return { product, quantity, plan, trial, charged: trial ? "0" : plan.price };
  });
  const trialled = await productsTrialled(
    db,
    userId,
    lines.filter((line) => line.trial).map((line) => line.product.id),
  );
  if (trialled.length > 0) {
    const names = lines.filter((line) => trialled.includes(line.product.id)).map((line) => line.product.name);
    throw new AppError(
      409,
      "TRIAL_USED",
      `You have had a free trial of ${names.join(", ")} already. Subscribe at the plan's price, or remove it from your cart.`,
      { productIds: trialled } satisfies TrialUsedDetails,
    );
  }
  return lines;
}

class TrialNotOffered extends AppError {
  constructor(name: string) {
    super(
      409,
      "TRIAL_NOT_OFFERED",
      `${name} has no free trial on this plan. Add it to your cart without one.`,
    );
  }
}

/** The rate the buyer saw prices at (buffer included); USD, or a currency without a rate, is 1. */
async function displayRate(db: Database, currency: string): Promise<{ currency: string; rate: string }> {
  if (currency === "USD") return { currency, rate: "1" };
  const row = await findFxRate(db, currency);
  if (!row) return { currency: "USD", rate: "1" };
  return { currency, rate: (Number(row.rateToUsd) * (1 + Number(row.fxBuffer))).toFixed(8) };
}

/**
 * Places an order from product ids and quantities only: prices come from the database, totals are
 * computed here, the order and its items are written in one transaction (with the buyer's referral, so
 * the settlement can still pay the reseller), pending; then a payment is started and the buyer is sent
 * to the provider's page. Only the provider's verified answer confirms it. The same idempotency key
 * from the same user answers with the order it already made and sends the buyer to its open payment
 * (the same session, after a crash) or a new attempt after a refusal.
 *
 * A bank-transfer order goes to no provider: it is made processing (awaiting funds) with its transfer
 * reference, amount due and due date, its instructions e-mail queued in the same transaction, and the
 * buyer is sent to the return page, which shows how to pay.
 */
export async function placeOrder(
  deps: PaymentDeps,
  userId: string,
  input: PlaceOrder,
  referral: Referral | null,
  vatRegisters: VatRegisters,
  /** `chargeSaved`: charge the order's saved method now instead of opening a payment page. */
  options: { chargeSaved?: boolean } = {},
): Promise<{ answer: PaymentRedirect; created: boolean }> {
  const { db } = deps;
  const existing = await findOrderIdByIdempotencyKey(db, userId, input.idempotencyKey);
  if (existing) return { answer: await startPayment(deps, existing), created: false };

  const quantities = new Map<string, number>();
  for (const item of input.items) {
    quantities.set(item.productId, (quantities.get(item.productId) ?? 0) + item.quantity);
  }
  for (const quantity of quantities.values()) {
    if (quantity > MAX_QUANTITY) throw new ValidationError(`Quantity must be at most ${MAX_QUANTITY}`);
  }
  const ids = [...quantities.keys()];
  const found = await findActiveProducts(db, ids);
  const missing = ids.filter((id) => !found.some((p) => p.id === id));
  if (missing.length > 0) {
    throw new ProductUnavailable(missing, await productNames(db, missing));
  }
  const lines = await saleLines(db, userId, input.items, found, quantities);
  const savedMethod = await savedMethodFor(db, userId, input.savedMethodId ?? null, lines);
  const changes = priceChanges(
    input.items,
    lines.map(({ product, plan }) => ({
      id: product.id,
      name: product.name,
      price: plan?.price ?? product.price,
    })),
  );
  if (changes.length) throw new PriceChanged(changes);
  // Whether the order ships is the products' say, not the client's: an address is required then, and
  // kept only then.
  const ships = found.some((product) => isPhysicalCategory(product.category));
  if (ships && !input.shippingAddress) {
    throw new AppError(400, "SHIPPING_ADDRESS_REQUIRED", SHIPPING_ADDRESS_REQUIRED, [
      { path: "shippingAddress", message: SHIPPING_ADDRESS_REQUIRED },
    ]);
  }
  const shippingAddress = ships ? (input.shippingAddress ?? null) : null;
  // The tax follows the buyer's country and tax ID (checked again here) at the rates in force now.
  const buyer = buyerOf(input);
  // A VAT number earns the reverse charge only once its register confirms it (cached a day).
  const vatCheck =
    buyer.business?.kind === "VAT"
      ? await verifyVatNumber(db, vatRegisters, buyer.business.taxId, new Date())
      : null;
  const tax = decideTax(buyer, await loadEffectiveTaxRates(db), vatCheck);
  const totals = computeTotals(
    lines.map(({ charged, quantity }) => ({ price: charged, quantity })),
    tax.rate,
  );
  // Prices are bounded so this cannot happen with today's limits; products priced before them could.
  if (Number(totals.total) > Number(MONEY_COLUMN_MAX)) {
    throw new ValidationError("This order's total is too large. Please split it into smaller orders.");
  }
  const { currency, rate } = await displayRate(db, input.currency);
  // Free trials and plans priced by use alone (decision 0029) charge nothing now.
  const nothingDue = Number(totals.total) === 0 && lines.every((line) => line.trial || paysForUseOnly(line));
  const byTransfer = input.paymentMethod === BANK_TRANSFER_METHOD && !nothingDue;
  const now = new Date();

  const orderId = await db.transaction(async (tx) => {
    const customerInfo = {
      fullName: input.fullName,
      email: input.email,
      address: input.address,
      city: input.city,
      country: input.country,
    };
    const id = await insertOrderOnce(tx, {
      userId,
      subtotal: totals.subtotal,
      tax: totals.tax,
      totalAmount: totals.total,
      currency,
      fxRate: rate,
      paymentMethod: input.paymentMethod,
      savedMethodId: savedMethod?.id ?? null,
      paymentStatus: byTransfer ? "processing" : "pending",
      isPaid: false,
      customerInfo,
      shippingAddress,
      idempotencyKey: input.idempotencyKey,
      referral: storeReferral(referral),
      buyerCountry: buyer.country,
      buyerCompany: buyer.company,
      buyerTaxId: buyer.business?.taxId ?? null,
      taxJurisdiction: tax.jurisdiction,
      taxLabel: tax.label,
      taxRate: tax.rate,
      reverseCharge: tax.reverseCharge,
      taxNote: tax.note,
      vatCheckRegister: vatCheck?.register ?? null,
      vatCheckStatus: vatCheck?.status ?? null,
      vatCheckReference: vatCheck?.reference ?? null,
      vatCheckedAt: vatCheck ? new Date(vatCheck.checkedAt) : null,
    });
    if (!id) return null; // a concurrent submit with the same key won
    await insertOrderItems(
      tx,
      lines.map(({ product, quantity, plan, trial, charged }, index) => ({
        orderId: id,
        productId: product.id,
        productName: product.name,
        price: charged,
        pricingUnit: plan ? planUnit(plan) : product.pricingUnit,
        quantity,
        planId: plan?.id ?? null,
        recurringPrice: plan?.price ?? null,
        trialDays: trial && plan ? plan.trialDays : 0,
        vendor: product.vendor,
        imageUrl: product.imageUrl,
        sellerId: product.sellerId,
        category: product.category,
        tax: totals.lineTaxes[index] ?? "0",
        taxRate: tax.rate,
        shippingState: isPhysicalCategory(product.category) ? "awaiting_shipment" : null,
      })),
    );
    // Nothing to pay (free trials, use billed later): no provider is asked for nothing, the order is delivered now.
    if (nothingDue) await deliverInTx(deps.settlement, tx, id, "nothing_due", deps.settlement.clock.now());
    else if (byTransfer)
      await openBankTransfer(deps, tx, { id, userId, totalAmount: totals.total, customerInfo }, now);
    return id;
  });
  if (!orderId) {
    const winner = await findOrderIdByIdempotencyKey(db, userId, input.idempotencyKey);
    if (!winner) throw new Error("an order with this idempotency key vanished");
    return { answer: await startPayment(deps, winner), created: false };
  }

  const returnPage = { orderId, redirectUrl: absoluteUrl(deps.origin, paths.checkoutComplete(orderId)) };
  if (byTransfer || nothingDue) return { answer: returnPage, created: true };
  // Charged on the saved method when asked to (a subscription started again in one step); a refusal
  // sends the buyer to the payment page instead.
  if (options.chargeSaved && savedMethod && savedMethod.kind !== "bank_transfer" && !savedMethod.declinedAt) {
    const charged = await chargeOrderWithSavedMethod(deps, orderId, savedMethod);
    if (charged.state === "paid" || charged.state === "pending") return { answer: returnPage, created: true };
  }
  return { answer: await startPayment(deps, orderId), created: true };
}

/** A line on a metered plan without a fee (pay as you go, decision 0029): nothing is due for it now. */
function paysForUseOnly(line: { plan: { price: string; meter: unknown } | null; trial: boolean }): boolean {
  return line.plan !== null && line.plan.meter !== null && toUnits(line.plan.price) === 0;
}

/**
 * The saved method an order's subscriptions renew on (decision 0027): one of the buyer's, or none. A
 * free trial whose plan asks for a card needs one, not declined; and a card that started a trial of a
 * product (on any account) starts no second one: one trial per card fingerprint as per account.
 */
async function savedMethodFor(
  db: Database,
  userId: string,
  id: string | null,
  lines: Awaited<ReturnType<typeof saleLines>>,
): Promise<MethodRow | null> {
  const method = id ? await methodOfUser(db, userId, id) : undefined;
  if (id && !method)
    throw new AppError(
      404,
      "PAYMENT_METHOD_NOT_FOUND",
      "That payment method is not one of yours any more. Choose another.",
    );
  const trials = lines.filter((line) => line.trial);
  const needCard = trials.filter((line) => line.plan?.trialNeedsCard);
  const byUse = lines.filter(paysForUseOnly);
  const noCard = method?.kind !== "card" || Boolean(method.declinedAt);
  if (needCard.length > 0 && noCard) {
    const names = needCard.map((line) => line.product.name).join(", ");
    throw new AppError(
      400,
      "TRIAL_NEEDS_CARD",
      `The free trial of ${names} needs a saved card, charged only when the trial ends. Add a card and choose it for renewals.`,
      [{ path: "savedMethodId", message: "Choose a saved card" }],
    );
  }
  // A plan priced by use alone is charged each month in arrears, as a trial converts: on a saved card.
  if (byUse.length > 0 && noCard) {
    const names = byUse.map((line) => line.product.name).join(", ");
    throw new AppError(
      400,
      "TRIAL_NEEDS_CARD",
      `${names} is billed for use each month, with nothing to pay today: it needs a saved card to charge. Add a card and choose it for renewals.`,
      [{ path: "savedMethodId", message: "Choose a saved card" }],
    );
  }
  if (method?.fingerprint) {
    const used: string[] = [];
    for (const line of trials)
      if (await trialUsedByCard(db, line.product.id, method.fingerprint)) used.push(line.product.id);
    if (used.length > 0) {
      const names = trials.filter((line) => used.includes(line.product.id)).map((line) => line.product.name);
      throw new AppError(
        409,
        "TRIAL_USED",
        `This card has had a free trial of ${names.join(", ")} already. Subscribe at the plan's price, or remove it from your cart.`,
        { productIds: used } satisfies TrialUsedDetails,
      );
    }
  }
  return method ?? null;
}
