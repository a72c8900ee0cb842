import { z } from "zod";
import { countryCodeOf } from "#domain/countries";
import { DAY_MS } from "#domain/dates";

/**
 * The categories whose products are goods that travel: they are shipped, delivered, and their refund
 * window counts from delivery. Every other category is delivered at payment. Defined here once.
 */
export const PHYSICAL_CATEGORIES: readonly string[] = ["hardware"];

export function isPhysicalCategory(category: string | null | undefined): boolean {
  return category != null && PHYSICAL_CATEGORIES.includes(category);
}

/** Days after shipping when an item the buyer has not confirmed counts as delivered (DELIVERY_CONFIRM_DAYS). */
export const DEFAULT_DELIVERY_CONFIRM_DAYS = 14;

/** Where a physical order goes; asked at checkout only when the cart holds a physical item. */
export const shippingAddressSchema = z.object({
  fullName: z
    .string({ error: "Enter the recipient's name" })
    .trim()
    .min(2, "Recipient name must be at least 2 characters")
    .max(120, "Recipient name must be at most 120 characters"),
  line1: z
    .string({ error: "Enter the street address" })
    .trim()
    .min(3, "Please enter a valid street address")
    .max(200, "Please enter a valid street address"),
  line2: z.string().trim().max(200, "Address line 2 must be at most 200 characters").default(""),
  city: z
    .string({ error: "Enter the city" })
    .trim()
    .min(2, "Please enter a valid city")
    .max(100, "Please enter a valid city"),
  postalCode: z
    .string({ error: "Enter the postal code" })
    .trim()
    .min(2, "Please enter a valid postal code")
    .max(20, "Please enter a valid postal code")
    .regex(/^[A-Za-z0-9][A-Za-z0-9 -]*$/, "Please enter a valid postal code"),
  country: z
    .string({ error: "Please select a country" })
    .trim()
    .transform((value, ctx) => {
      const code = countryCodeOf(value);
      if (code) return code;
      ctx.addIssue({ code: "custom", message: "Please select a country" });
      return z.NEVER;
    }),
  phone: z
    .string({ error: "Enter a phone number for the carrier" })
    .trim()
    .min(6, "Please enter a valid phone number")
    .max(30, "Please enter a valid phone number")
    .regex(/^\+?[0-9 ()./-]+$/, "Please enter a valid phone number"),
});
export type ShippingAddress = z.output<typeof shippingAddressSchema>;
export type ShippingAddressInput = z.input<typeof shippingAddressSchema>;

/** A stored address as answers carry it (already checked when the order was placed). */
export const storedShippingAddressSchema = z.object({
  fullName: z.string(),
  line1: z.string(),
  line2: z.string(),
  city: z.string(),
  postalCode: z.string(),
  country: z.string(),
  phone: z.string(),
});

export const SHIPPING_ADDRESS_REQUIRED = "A shipping address is needed for physical items";

export const shippingStates = ["awaiting_shipment", "shipped", "delivered"] as const;
export type ShippingState = (typeof shippingStates)[number];
export const deliveredByValues = ["buyer", "automatic"] as const;
export type DeliveredBy = (typeof deliveredByValues)[number];

export const shippingStateLabel: Record<ShippingState, string> = {
  awaiting_shipment: "Awaiting shipment",
  shipped: "Shipped",
  delivered: "Delivered",
};

/** States only move forward: the rank says which of two states is further along. */
export function shippingRank(state: ShippingState): number {
  return shippingStates.indexOf(state);
}

/** What the seller enters when handing the parcel to the carrier. */
export const markShippedSchema = z.object({
  carrier: z
    .string({ error: "Enter the carrier" })
    .trim()
    .min(2, "Carrier must be at least 2 characters")
    .max(60, "Carrier must be at most 60 characters"),
  trackingNumber: z
    .string({ error: "Enter the tracking number" })
    .trim()
    .min(4, "Tracking number must be at least 4 characters")
    .max(64, "Tracking number must be at most 64 characters")
    .regex(/^[A-Za-z0-9][A-Za-z0-9 -]*$/, "Tracking numbers hold letters, digits, spaces and dashes"),
});
export type MarkShippedInput = z.input<typeof markShippedSchema>;

/** A physical item's delivery as answers show it; null on digital items. */
export const itemShippingSchema = z.object({
  state: z.enum(shippingStates),
  carrier: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  shippedAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  deliveredBy: z.enum(deliveredByValues).nullable(),
});
export type ItemShipping = z.infer<typeof itemShippingSchema>;

/** One physical item a seller sells, with where it goes, for the seller's "To ship" view. */
export const shipmentSchema = z.object({
  orderId: z.string(),
  orderItemId: z.string(),
  orderedAt: z.string(),
  productName: z.string(),
  quantity: z.number(),
  refunded: z.boolean(),
  shipping: itemShippingSchema,
  address: storedShippingAddressSchema.nullable(),
});
export type Shipment = z.infer<typeof shipmentSchema>;

export const shipmentFilters = ["to_ship", "shipped", "delivered"] as const;
export type ShipmentFilter = (typeof shipmentFilters)[number];
export const shipmentsQuery = z.object({ state: z.enum(shipmentFilters).default("to_ship") });
export const shipmentListSchema = z.object({ items: z.array(shipmentSchema) });
export type ShipmentList = z.infer<typeof shipmentListSchema>;
export const shipmentAnswerSchema = z.object({ shipment: shipmentSchema });

const filterState: Record<ShipmentFilter, ShippingState> = {
  to_ship: "awaiting_shipment",
  shipped: "shipped",
  delivered: "delivered",
};
export function stateOfFilter(filter: ShipmentFilter): ShippingState {
  return filterState[filter];
}

/**
 * When a physical item's seller net stops waiting: the refund window counted from delivery. Before
 * delivery there is no such date, and the net stays pending.
 */
export function settlesAtOnDelivery(deliveredAt: Date, refundWindowDays: number): Date {
  return new Date(deliveredAt.getTime() + refundWindowDays * DAY_MS);
}

/** The moment before which a shipped item is not yet delivered automatically. */
export function autoDeliveryCutoff(now: Date, confirmDays: number): Date {
  return new Date(now.getTime() - confirmDays * DAY_MS);
}

/**
 * The refund window's end for one item: from the order for digital items; from delivery for a
 * physical one, and open until it is delivered (a buyer whose parcel never comes can always ask; the
 * seller answers as for any refund request).
 */
export function itemRefundableUntil(
  item: { shippingState: string | null; deliveredAt: Date | null },
  orderedAt: Date,
  refundWindowDays: number,
): Date | null {
  // Items without a shipping state (digital, or hardware bought before shipping existed) count from the order.
  if (!item.shippingState) return new Date(orderedAt.getTime() + refundWindowDays * DAY_MS);
  return item.deliveredAt ? settlesAtOnDelivery(item.deliveredAt, refundWindowDays) : null;
}

/**
 * The order's progress after payment, for a paid order with physical items: Delivered when every
 * one arrived, Shipped when some are on their way or arrived, otherwise null (the payment label, e.g.
 * "Confirmed", stands). Refunded items do not count.
 */
export function fulfilmentLabel(
  items: { shipping: ItemShipping | null; refundStatus: string }[],
): string | null {
  const physical = items.filter((item) => item.shipping && item.refundStatus !== "refunded");
  if (physical.length === 0) return null;
  if (physical.every((item) => item.shipping?.state === "delivered")) return "Delivered";
  if (physical.some((item) => item.shipping?.state !== "awaiting_shipment")) return "Shipped";
  return null;
}

/**
 * The label an order's status shows: the payment's (the spec's texts, e.g. "Confirmed"), or, for a
 * confirmed order with physical items, how far they got (Shipped, Delivered).
 */
export function orderProgressLabel(
  paymentLabel: string,
  items: { shipping: ItemShipping | null; refundStatus: string }[],
): string {
  return paymentLabel === "Confirmed" ? (fulfilmentLabel(items) ?? paymentLabel) : paymentLabel;
}
