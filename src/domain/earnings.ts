import { z } from "zod";
import { pricingUnitSchema } from "#domain/catalog-schemas";
import { paged } from "#domain/paging";
import { payoutMethods } from "#domain/payouts";
import { fulfilmentLabel, itemShippingSchema } from "#domain/shipping";

/**
 * What sellers and resellers see of their money. Every figure is computed on the server from the
 * ledger; amounts are USD numbers exact to 1/10,000 (as the rest of the API), dates ISO strings.
 */

export const earnerRoles = ["seller", "reseller"] as const;
export type EarnerRole = (typeof earnerRoles)[number];

/** One role's balances: waiting for the refund window, ready to be paid, on the way, and paid. */
export const balanceSummarySchema = z.object({
  role: z.enum(earnerRoles),
  pending: z.number(),
  /** Can be negative: a refund after a payout, recovered from the next one. */
  available: z.number(),
  inTransit: z.number(),
  paid: z.number(),
  /** The pending amounts by the day they become available, soonest first. */
  upcoming: z.array(z.object({ date: z.string(), amount: z.number() })),
  /**
   * Refunds that took an item's earnings back after they became available (perhaps already paid
   * out), newest first: each a negative amount recovered from later earnings.
   */
  clawbacks: z.array(z.object({ label: z.string(), amount: z.number(), occurredAt: z.string() })),
});
export type BalanceSummary = z.infer<typeof balanceSummarySchema>;

/** How many clawbacks the balances list: the latest; older ones are in the sales list as refunded. */
export const CLAWBACKS_SHOWN = 20;

/** What the seller reads for a refund taken back from their available balance. */
export function clawbackLabel(orderId: string): string {
  return `Refund clawback — order ${orderId.slice(0, 8)}`;
}

/** Net earned per month (sales less fees, commissions and refunds), oldest first, for the chart. */
export const earningsPointSchema = z.object({ month: z.string(), net: z.number(), gross: z.number() });
export type EarningsPoint = z.infer<typeof earningsPointSchema>;

export const earningsOverviewSchema = z.object({
  /** One summary per role the user holds (a seller who also resells sees both). */
  balances: z.array(balanceSummarySchema),
  /** The minimum a payout batch pays; smaller balances wait for the next one. */
  payoutMinimum: z.number(),
  series: z.array(earningsPointSchema),
});
export type EarningsOverview = z.infer<typeof earningsOverviewSchema>;

export const saleLineStatuses = ["pending", "available", "refunded"] as const;
export type SaleLineStatus = (typeof saleLineStatuses)[number];

export const saleLineStatusLabel: Record<SaleLineStatus, string> = {
  pending: "Pending",
  available: "Available",
  refunded: "Refunded",
};

/** One item a seller sold, with where each dollar of it went. */
export const saleLineSchema = z.object({
  orderItemId: z.string(),
  orderId: z.string(),
  soldAt: z.string(),
  productName: z.string(),
  quantity: z.number(),
  /** Price × quantity, before tax. */
  gross: z.number(),
  feeRate: z.number(),
  fee: z.number(),
  commission: z.number(),
  /** The tax the buyer paid on the line, which Stackbay remits (not taken from the seller). */
  tax: z.number(),
  taxLabel: z.string(),
  net: z.number(),
  status: z.enum(saleLineStatuses),
  /** When the net becomes (or became) available. */
  availableAt: z.string().nullable(),
});
export type SaleLine = z.infer<typeof saleLineSchema>;
export const saleLinesPageSchema = paged(saleLineSchema);

export const payoutStatuses = ["processing", "paid", "failed"] as const;
export type PayoutStatus = (typeof payoutStatuses)[number];
export const payoutStatusLabel: Record<PayoutStatus, string> = {
  processing: "Processing",
  paid: "Paid",
  failed: "Failed",
};

export const payoutLineSchema = z.object({
  id: z.string(),
  batchId: z.string(),
  role: z.enum(earnerRoles),
  amount: z.number(),
  method: z.enum(payoutMethods),
  status: z.enum(payoutStatuses),
  /** The provider's transfer id or the bank reference, once known. */
  reference: z.string().nullable(),
  failureReason: z.string().nullable(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
});
export type PayoutLine = z.infer<typeof payoutLineSchema>;
export const payoutHistorySchema = paged(payoutLineSchema);

/** The seller's dashboard figures: what they sold, not what they bought. */
export const sellerStatsSchema = z.object({
  ordersReceived: z.number(),
  grossSales: z.number(),
  netEarnings: z.number(),
});
export type SellerStats = z.infer<typeof sellerStatsSchema>;

/** One of the seller's items in an order they received: never another seller's, never the buyer's other lines. */
export const receivedItemSchema = z.object({
  id: z.string(),
  productName: z.string(),
  quantity: z.number(),
  /** The unit price paid (USD) and what it bought. */
  price: z.number(),
  pricingUnit: pricingUnitSchema.nullable(),
  refunded: z.boolean(),
  /** A physical item's delivery; null for digital items, delivered at payment. */
  shipping: itemShippingSchema.nullable(),
});
export type ReceivedItem = z.infer<typeof receivedItemSchema>;

/**
 * An order a seller received (paid, its sale booked: the orders "Orders Received" counts), as the seller
 * sees it: who bought (the company on the invoice, else the billing name), the seller's own items and
 * their total before fees (USD, each line to the cent), newest first.
 */
export const receivedOrderSchema = z.object({
  orderId: z.string(),
  placedAt: z.string(),
  buyer: z.string(),
  items: z.array(receivedItemSchema),
  amount: z.number(),
});
export type ReceivedOrder = z.infer<typeof receivedOrderSchema>;
export const receivedOrdersPageSchema = paged(receivedOrderSchema);
export const RECEIVED_ORDERS_PAGE_SIZE = 20;

/** The seller's side of an order's status: paid, or how much of what they sold in it was refunded. */
export function receivedOrderStatus(items: readonly Pick<ReceivedItem, "refunded">[]): string {
  const refunded = items.filter((item) => item.refunded).length;
  if (refunded === 0) return "Paid";
  return refunded === items.length ? "Refunded" : "Partly refunded";
}

/** Where the seller's items of an order are: digital only, waiting to ship, shipped or delivered. */
export function receivedShippingLabel(items: readonly Pick<ReceivedItem, "shipping" | "refunded">[]): string {
  const lines = items.map((item) => ({
    shipping: item.shipping,
    refundStatus: item.refunded ? "refunded" : "none",
  }));
  if (!lines.some((line) => line.shipping && line.refundStatus !== "refunded")) return "No shipping";
  return fulfilmentLabel(lines) ?? "To ship";
}
