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
};

/**
 * A demo order as the zero-config checkout leaves a paid one: priced, taxed and totalled by the
 * checkout's own rules (each line to the cent, the tax decided for the buyer's country), paid in test
 * mode (the provider's session and the captured attempt, so the books reconcile with what was charged
 * and a refund can be paid back), its licences issued and its sale booked, all at `at`.
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
    input.lines.map(({ product, quantity }) => ({ price: product.price, quantity })),
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
      input.lines.map(({ product: p, quantity, sellerId }, index) => ({
        orderId: order.id,
        productId: p.id,
        productName: p.name,
        price: p.price,
        pricingUnit: p.pricingUnit,
        quantity,
        vendor: p.vendor,
        sellerId,
        category: p.category,
        tax: totals.lineTaxes[index] ?? "0",
        taxRate: tax.rate,
      })),
    )
    .returning({ id: orderItems.id, productId: orderItems.productId });
  const amountCents = chargeCents(totals.total);
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
