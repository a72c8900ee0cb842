import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  unique,
  uuid,
} from "drizzle-orm/pg-core";
import { pricingUnits } from "#domain/pricing-units";
import type { ShippingAddress } from "#domain/shipping";
import { user } from "#server/db/schema/auth";
import { money, products } from "#server/db/schema/catalog";
import { paymentMethods } from "#server/db/schema/payment-methods";

export type CustomerInfo = {
  fullName: string;
  email: string;
  address: string;
  city: string;
  country: string;
};

export const savedItems = pgTable(
  "saved_items",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    productId: uuid()
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    savedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique().on(t.userId, t.productId), index().on(t.userId, t.savedAt)],
);

/** A Referral as stored on its order: the click time as an ISO string, any other field as it came. */
export type StoredReferral = { resellerId: string; clickedAt: string; [field: string]: unknown };

export const orders = pgTable(
  "orders",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "restrict" }),
    subtotal: money().notNull(),
    tax: money().notNull(),
    totalAmount: money().notNull(),
    /** Display currency at checkout and the rate (buffer included) used to show the amounts. */
    currency: text().notNull().default("USD"),
    fxRate: numeric({ precision: 18, scale: 8 }).notNull().default("1"),
    paymentMethod: text().notNull(),
    /** The saved method the buyer chose at checkout for the order's subscriptions to renew on. */
    savedMethodId: uuid().references(() => paymentMethods.id, { onDelete: "set null" }),
    paymentStatus: text().notNull().default("pending"),
    isPaid: boolean().notNull().default(false),
    customerInfo: jsonb().$type<CustomerInfo>().notNull(),
    /** Where the physical items go; null when the order holds none. */
    shippingAddress: jsonb().$type<ShippingAddress>(),
    idempotencyKey: text(),
    /** The reseller who referred the buyer at checkout, for commissions when the order is confirmed later. */
    referral: jsonb().$type<StoredReferral>(),
    /** The buyer's country (ISO code) the tax was decided by; null on orders from before it was asked. */
    buyerCountry: text(),
    /** A business buyer's company and tax ID (normalised), printed on the invoice. */
    buyerCompany: text(),
    buyerTaxId: text(),
    /** The tax decided at checkout: whose tax (ISO code; null when none is due), its name and rate. */
    taxJurisdiction: text().default("AE"),
    taxLabel: text().notNull().default("UAE VAT"),
    taxRate: numeric({ precision: 6, scale: 4 }).notNull().default("0.0500"),
    reverseCharge: boolean().notNull().default(false),
    /** Printed under the tax line: the reverse-charge wording, or why no tax was charged. */
    taxNote: text(),
    /**
     * A business buyer's VAT number as its register answered at checkout: `VIES` or `HMRC`, `valid`,
     * `invalid`, `unavailable` or `unchecked` (domain `VatCheck`), the consultation number, and when.
     * Null for orders without a VAT number. The proof kept with a reverse-charge invoice.
     */
    vatCheckRegister: text(),
    vatCheckStatus: text(),
    vatCheckReference: text(),
    vatCheckedAt: timestamp({ withTimezone: true }),
    /**
     * When the buyer cancelled the order while it awaited payment (it is then `failed`, its open attempt
     * `cancelled`); null otherwise. A cancelled order is not paid again: the buyer places a new one.
     */
    cancelledAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      "orders_payment_method",
      sql`${t.paymentMethod} in ('stripe', 'paypal', 'apple-pay', 'bank-transfer')`,
    ),
    check(
      "orders_payment_status",
      sql`${t.paymentStatus} in ('pending', 'processing', 'failed', 'mock_confirmed', 'partially_refunded', 'refunded')`,
    ),
    unique().on(t.userId, t.idempotencyKey),
    index().on(t.userId, t.createdAt),
    index().on(t.paymentStatus, t.updatedAt),
  ],
);

export const orderItems = pgTable(
  "order_items",
  {
    id: uuid().primaryKey().defaultRandom(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    productId: uuid().references(() => products.id, { onDelete: "set null" }),
    productName: text().notNull(),
    price: money().notNull(),
    /** The product's pricing unit when it was bought, so the order reads as it was sold. */
    pricingUnit: text({ enum: pricingUnits }),
    quantity: integer().notNull(),
    /**
     * A recurring item's plan (its id as bought; the terms below are kept whatever becomes of it), the price per unit its
     * subscription renews at (the line's `price` is 0 while a trial runs), and its free trial in days.
     */
    planId: uuid(),
    recurringPrice: money(),
    trialDays: integer().notNull().default(0),
    vendor: text(),
    imageUrl: text(),
    /** The product's seller and category when it was bought: who answers refunds, whether it is licensed. */
    sellerId: text().references(() => user.id, { onDelete: "set null" }),
    category: text(),
    refundStatus: text().notNull().default("none"),
    /** The line's share of the order's tax, and the rate it was charged at. */
    tax: money().notNull().default("0"),
    taxRate: numeric({ precision: 6, scale: 4 }).notNull().default("0.0500"),
    /** The platform fee that applied when the item was bought, and its amount on the line's subtotal. */
    feeRate: numeric({ precision: 5, scale: 4 }).notNull().default("0"),
    fee: money().notNull().default("0"),
    /** When the seller's net from the line stops waiting for the refund window (set on delivery). */
    settlesAt: timestamp({ withTimezone: true }),
    /**
     * A physical item's delivery (null on digital items, delivered at payment): awaiting_shipment,
     * shipped (carrier, tracking number, when), delivered (when, and whether the buyer confirmed it or
     * DELIVERY_CONFIRM_DAYS passed). It only moves forward.
     */
    shippingState: text(),
    carrier: text(),
    trackingNumber: text(),
    shippedAt: timestamp({ withTimezone: true }),
    deliveredAt: timestamp({ withTimezone: true }),
    deliveredBy: text(),
  },
  (t) => [
    check("order_items_quantity", sql`${t.quantity} between 1 and 99`),
    check(
      "order_items_pricing_unit",
      sql`${t.pricingUnit} is null or ${t.pricingUnit} in ('one_time', 'month', 'year', 'user_month', 'user_year', 'api_call', 'minute', 'unit')`,
    ),
    check("order_items_refund_status", sql`${t.refundStatus} in ('none', 'refunded')`),
    check(
      "order_items_shipping_state",
      sql`${t.shippingState} is null or ${t.shippingState} in ('awaiting_shipment', 'shipped', 'delivered')`,
    ),
    check(
      "order_items_shipped",
      sql`${t.shippingState} is distinct from 'shipped' or (${t.shippedAt} is not null and ${t.trackingNumber} is not null)`,
    ),
    check(
      "order_items_delivered",
      sql`${t.shippingState} is distinct from 'delivered' or (${t.deliveredAt} is not null and ${t.deliveredBy} in ('buyer', 'automatic'))`,
    ),
    index().on(t.shippingState, t.shippedAt),
    index().on(t.orderId),
    index().on(t.sellerId),
    index().on(t.settlesAt),
  ],
);
