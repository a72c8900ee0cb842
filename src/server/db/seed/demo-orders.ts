import { chargeCents, computeTotals } from "#domain/money";
import type { PricingUnit } from "#domain/pricing-units";
import { DEFAULT_REFUND_WINDOW_DAYS } from "#domain/refunds";
import { paths } from "#domain/routes";
import type { TaxDecision } from "#domain/tax";
import type { Transaction } from "#server/db/client";
import { orderItems, orders } from "#server/db/schema/orders";
import { payments, testPaymentSessions } from "#server/db/schema/payments";
import { bookSale } from "#server/modules/ledger/bookings";
import { issueLicenses } from "#server/modules/licenses/service";

export type DemoOrderLine = {
  product: {
    id: string;
    name: string;
    price: string;
    pricingUnit: PricingUnit | null;
    vendor: string | null;
    category: string;
  };
  quantity: number;
  sellerId: string | null;
  /** A recurring line's plan, as checkout writes it; a trial's line is charged nothing. */
  plan?: { id: string; price: string; trialDays: number; trial: boolean };
};

/** What a line is charged now: nothing during a free trial, the product's price otherwise. */
const chargedOf = (line: DemoOrderLine) =>
  line.plan?.trial ? "0" : (line.plan?.price ?? line.product.price);

/**
 * A demo order as the zero-config checkout leaves a paid one: priced, taxed and totalled by the
 * checkout's own rules (each line to the cent, the tax decided for the buyer's country), paid in test
 * mode (the provider's session and the captured attempt, so the books reconcile with what was charged
 * and a refund can be paid back), its licences issued and its sale booked, all at `at`. An order of free
 * trials only is confirmed with nothing charged, as checkout confirms it.
 */
export async function insertPaidDemoOrder(
  tx: Transaction,
  input: {
    userId: string;
    customer: { fullName: string; email: string; address: string; city: string; country: string };
    country: string;
    tax: TaxDecision;
    lines: readonly DemoOrderLine[];
    idempotencyKey: string;
    at: Date;
  },
): Promise<{ orderId: string; items: { id: string; productId: string | null }[] }> {
  const { tax, at } = input;
  const totals = computeTotals(
    input.lines.map((line) => ({ price: chargedOf(line), quantity: line.quantity })),
    tax.rate,
  );
  const [order] = await tx
    .insert(orders)
    .values({
      userId: input.userId,
      subtotal: totals.subtotal,
      tax: totals.tax,
      totalAmount: totals.total,
      paymentMethod: "stripe",
      paymentStatus: "mock_confirmed",
      isPaid: true,
      customerInfo: input.customer,
      idempotencyKey: input.idempotencyKey,
      buyerCountry: input.country,
      taxJurisdiction: tax.jurisdiction,
      taxLabel: tax.label,
      taxRate: tax.rate,
      reverseCharge: tax.reverseCharge,
      taxNote: tax.note,
      createdAt: at,
      updatedAt: at,
    })
    .returning({ id: orders.id });
  if (!order) throw new Error("demo order was not created");
  const items = await tx
    .insert(orderItems)
    .values(
      input.lines.map((line, index) => ({
        orderId: order.id,
        productId: line.product.id,
        productName: line.product.name,
        price: chargedOf(line),
        pricingUnit: line.product.pricingUnit,
        quantity: line.quantity,
        planId: line.plan?.id ?? null,
        recurringPrice: line.plan?.price ?? null,
        trialDays: line.plan?.trial ? line.plan.trialDays : 0,
        vendor: line.product.vendor,
        sellerId: line.sellerId,
        category: line.product.category,
        tax: totals.lineTaxes[index] ?? "0",
        taxRate: tax.rate,
      })),
    )
    .returning({ id: orderItems.id, productId: orderItems.productId });
  const amountCents = chargeCents(totals.total);
  // Nothing to pay (a free trial): checkout asks no provider, and neither does the seed.
  if (amountCents === 0) {
    await issueLicenses(tx, order.id, at);
    return { orderId: order.id, items };
  }
  const ref = `tps_demo_${order.id.replaceAll("-", "")}`;
  await tx.insert(testPaymentSessions).values({
    ref,
    idempotencyKey: `${input.idempotencyKey}:${order.id}`,
    orderId: order.id,
    amountCents,
    description: `Stackbay order ${order.id.slice(0, 8).toUpperCase()}`,
    returnUrl: paths.checkoutComplete(order.id),
    cancelUrl: paths.checkout(),
    state: "paid",
    createdAt: at,
    decidedAt: at,
  });
  await tx.insert(payments).values({
    orderId: order.id,
    provider: "test",
    providerRef: ref,
    attempt: 1,
    amountCents,
    state: "paid",
    createdAt: at,
    updatedAt: at,
  });
  await issueLicenses(tx, order.id, at);
  await bookSale(tx, order.id, at, DEFAULT_REFUND_WINDOW_DAYS);
  return { orderId: order.id, items };
}
