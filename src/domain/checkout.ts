import { z } from "zod";
import { pricingUnitSchema } from "#domain/catalog-schemas";
import { countryCodeOf } from "#domain/countries";
import { type CurrencyCode, currencies } from "#domain/currency";
import { MONEY_SCALE } from "#domain/money";
import { emailField } from "#domain/newsletter";
import { paged, pageNumber } from "#domain/paging";
import { MAX_PRICE } from "#domain/product-admin";
import { buyerPayoutSchema, refundStatuses } from "#domain/refunds";
import { itemShippingSchema, shippingAddressSchema, storedShippingAddressSchema } from "#domain/shipping";
import { type TaxBusiness, vatCheckSchema } from "#domain/tax";
import { checkTaxId, taxIdFieldFor } from "#domain/tax-ids";

export const paymentMethods = [
  { value: "stripe", label: "Credit/Debit Card" },
  { value: "paypal", label: "PayPal" },
  { value: "apple-pay", label: "Apple Pay" },
  { value: "bank-transfer", label: "Bank transfer" },
] as const;
export type PaymentMethod = (typeof paymentMethods)[number]["value"];
const paymentMethodValues = paymentMethods.map((m) => m.value) as [PaymentMethod, ...PaymentMethod[]];

export const MAX_QUANTITY = 99;
export const MAX_ORDER_LINES = 50;

/**
 * The billing form, with the spec's texts; the same schema checks the order on the server. The country
 * is an ISO code (the select's value); an English name, as older clients send, reads as its code.
 * A business buyer gives its company name and, where the country has one, its tax ID.
 */
export const billingSchema = z.object({
  fullName: z
    .string()
    .trim()
    .min(2, "Full name must be at least 2 characters")
    .max(120, "Full name must be at most 120 characters"),
  email: emailField,
  address: z.string().trim().min(5, "Please enter a valid address").max(300, "Please enter a valid address"),
  city: z.string().trim().min(2, "Please enter a valid city").max(100, "Please enter a valid city"),
  country: z
    .string({ error: "Please select a country" })
    .trim()
    .transform((value, ctx) => {
      const code = countryCodeOf(value);
      if (code) return code;
      ctx.addIssue({ code: "custom", message: "Please select a country" });
      return z.NEVER;
    }),
  business: z.boolean().default(false),
  company: z.string().trim().max(200, "Company name must be at most 200 characters").default(""),
  taxId: z.string().trim().max(40, "That tax ID is too long").default(""),
  paymentMethod: z.enum(paymentMethodValues, { error: "Please select a payment method" }),
});
/**
 * A business buyer needs a company name and, where its country has a tax ID, a valid one. A refined
 * object cannot be extended in zod 4: each schema built on `billingSchema` adds this after extending.
 */
function checkBusinessBuyer(
  value: { country: string; business: boolean; company: string; taxId: string },
  ctx: z.RefinementCtx,
) {
  if (!value.business) return;
  if (value.company.length < 2) {
    ctx.addIssue({ code: "custom", path: ["company"], message: "Enter your company name" });
  }
  if (!taxIdFieldFor(value.country)) return;
  const taxId = checkTaxId(value.country, value.taxId);
  if (!taxId.ok) ctx.addIssue({ code: "custom", path: ["taxId"], message: taxId.message });
}
/**
 * The business check runs as soon as the fields it reads are valid, even while others (the name, the
 * address) are not, so the buyer sees every problem at once.
 */
const businessFields = new Set<PropertyKey>(["country", "business", "company", "taxId"]);
const businessCheckParams = {
  when: (payload: { issues: readonly { path?: readonly PropertyKey[] }[] }) =>
    // A body that is not an object at all fails at the root (no path): there are no fields to read.
    !payload.issues.some((issue) => !issue.path?.length || businessFields.has(issue.path[0] ?? "")),
};
export const billingFormSchema = billingSchema.superRefine(checkBusinessBuyer, businessCheckParams);
export type BillingInput = z.input<typeof billingSchema>;

/**
 * Who the order is taxed as: the country and, for a business with a valid tax ID, that ID in its
 * canonical form. A business in a country without a tax ID keeps its company name only.
 */
export function buyerOf(input: { country: string; business: boolean; company: string; taxId: string }): {
  country: string;
  company: string | null;
  business: TaxBusiness | null;
} {
  if (!input.business) return { country: input.country, company: null, business: null };
  const company = input.company.trim();
  const taxId = taxIdFieldFor(input.country) ? checkTaxId(input.country, input.taxId) : null;
  return {
    country: input.country,
    company,
    business: taxId?.ok ? { company, taxId: taxId.value, kind: taxId.kind } : null,
  };
}

/**
 * A unit price the buyer was shown, in USD as the cart holds it. The server never charges it: it only
 * checks that it still equals the database price, so nobody is charged a price they were not shown.
 * At most four decimals, as stored, tested exactly (the number must read back from its 4-place form).
 */
const shownPrice = z
  .number({ error: "Price must be a number" })
  .min(0, "Price must be 0 or more")
  .max(MAX_PRICE, `Price must be at most ${MAX_PRICE.toLocaleString("en-US")}`)
  .refine((v) => Number(v.toFixed(MONEY_SCALE)) === v, `Price can have at most ${MONEY_SCALE} decimals`);

/**
 * What the browser sends to place an order: product ids, quantities and the unit prices it showed
 * (checked, never charged; totals are the server's), the display currency and a key that makes a
 * repeated submit harmless.
 */
export const placeOrderSchema = billingSchema
  .extend({
    items: z
      .array(
        z.object({
          productId: z.uuid("Unknown product"),
          quantity: z
            .number({ error: "Quantity must be a whole number" })
            .int("Quantity must be a whole number")
            .min(1, "Quantity must be at least 1")
            .max(MAX_QUANTITY, `Quantity must be at most ${MAX_QUANTITY}`),
          price: shownPrice,
          /** The plan of a recurring product; its first plan when not given. */
          planId: z.uuid("Unknown plan").optional(),
          /** The buyer asked for the plan's free trial: nothing is charged for the line now. */
          trial: z.boolean().default(false),
        }),
      )
      .min(1, "Please add items to your cart before checking out.")
      .max(MAX_ORDER_LINES, `An order can hold at most ${MAX_ORDER_LINES} different products`),
    currency: z.enum(currencies.map((c) => c.code) as [CurrencyCode, ...CurrencyCode[]]).default("USD"),
    idempotencyKey: z.uuid("A fresh checkout key is needed"),
    /**
     * Where physical items go. The server decides from the cart's products whether it is required
     * (and ignores it for a cart without physical items), never from the client's say-so.
     */
    shippingAddress: shippingAddressSchema.nullish(),
    /**
     * The saved payment method the order's subscriptions renew on (decision 0027); needed, and a card,
     * for a free trial whose plan asks for one. Without it they follow the buyer's default method.
     */
    savedMethodId: z.uuid("Choose one of your saved payment methods").nullish(),
  })
  .superRefine(checkBusinessBuyer, businessCheckParams);
export type PlaceOrderInput = z.input<typeof placeOrderSchema>;

/** `details` of a 409 PRODUCT_UNAVAILABLE: the cart's products that are gone or inactive. */
export const productUnavailableDetailsSchema = z.object({ productIds: z.array(z.string()) });
export type ProductUnavailableDetails = z.infer<typeof productUnavailableDetailsSchema>;

/** One product whose price is not the one the buyer was shown; prices are USD. */
export const priceChangeSchema = z.object({
  productId: z.string(),
  name: z.string(),
  oldPrice: z.number(),
  newPrice: z.number(),
});
export type PriceChange = z.infer<typeof priceChangeSchema>;

/** `details` of a 409 PRICE_CHANGED: nothing was ordered; the buyer sees the new prices and decides. */
export const priceChangedDetailsSchema = z.object({ changes: z.array(priceChangeSchema) });
export type PriceChangedDetails = z.infer<typeof priceChangedDetailsSchema>;

/** `details` of a 409 TRIAL_USED: the products whose free trial this buyer has had already. */
export const trialUsedDetailsSchema = z.object({ productIds: z.array(z.string()) });
export type TrialUsedDetails = z.infer<typeof trialUsedDetailsSchema>;

/** The payment statuses an admin may set. */
export const orderStatuses = ["pending", "processing", "failed", "mock_confirmed"] as const;
export type OrderStatus = (typeof orderStatuses)[number];
/** Every payment status: approved refunds move a confirmed order to partially refunded or refunded. */
export const paymentStatuses = [...orderStatuses, "partially_refunded", "refunded"] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

/**
 * The spec's labels: mock_confirmed, and any paid order, read 'Confirmed'; refunds say so first. A
 * failed order its buyer cancelled (`cancelledAt` set) reads 'Cancelled'.
 */
export function orderStatusLabel(
  status: PaymentStatus,
  isPaid: boolean,
  cancelledAt?: string | null,
): string {
  if (status === "refunded") return "Refunded";
  if (status === "partially_refunded") return "Partially refunded";
  if (isPaid || status === "mock_confirmed") return "Confirmed";
  if (status === "failed" && cancelledAt) return "Cancelled";
  return { pending: "Pending", processing: "Processing", failed: "Failed" }[status];
}

/**
 * Whether the buyer may still pay or cancel the order: it awaits a provider's payment (pending), or
 * the money of a bank transfer (processing); a cancelled order awaits nothing.
 */
export function awaitsPayment(order: { paymentStatus: PaymentStatus; paymentMethod: string }): boolean {
  if (order.paymentStatus === "pending") return true;
  return order.paymentStatus === "processing" && order.paymentMethod === "bank-transfer";
}

/** Statuses of an order that was paid and delivered: these have invoices and may be refunded. */
export const confirmedStatuses: readonly PaymentStatus[] = [
  "mock_confirmed",
  "partially_refunded",
  "refunded",
];

export const orderItemRefundSchema = z.object({
  id: z.string(),
  status: z.enum(refundStatuses),
  reason: z.string(),
  sellerDueAt: z.string(),
  sellerNote: z.string().nullable(),
  platformNote: z.string().nullable(),
  createdAt: z.string(),
  resolvedAt: z.string().nullable(),
  /** How an approved refund's money goes back, and whether it has. */
  payout: buyerPayoutSchema.nullable(),
});

export const orderItemSchema = z.object({
  id: z.string(),
  productId: z.string().nullable(),
  productName: z.string(),
  price: z.number(),
  /** The product's pricing unit when it was bought; null reads by the spec's fallback. */
  pricingUnit: pricingUnitSchema.nullable(),
  quantity: z.number(),
  vendor: z.string().nullable(),
  imageUrl: z.string().nullable(),
  refundStatus: z.enum(["none", "refunded"]),
  /** The line's share of the order's tax (USD). */
  tax: z.number(),
  /** The item's refund request, if the buyer made one. */
  refund: orderItemRefundSchema.nullable(),
  /** A physical item's delivery; null for digital items, which are delivered at payment. */
  shipping: itemShippingSchema.nullable(),
  /** ISO datetime after which no refund can be asked for the item; null while a physical item is on its way. */
  refundableUntil: z.string().nullable(),
});

/** An order as the API returns it; amounts are USD numbers, `currency` and `fxRate` how it was shown. */
export const orderSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  /** ISO datetime: the order date plus the server's refund window; after it, no refund can be requested. */
  refundableUntil: z.string(),
  paymentMethod: z.enum(paymentMethodValues),
  paymentStatus: z.enum(paymentStatuses),
  isPaid: z.boolean(),
  /** ISO datetime the buyer cancelled the order while it awaited payment; null otherwise. */
  cancelledAt: z.string().nullable(),
  subtotal: z.number(),
  tax: z.number(),
  totalAmount: z.number(),
  /** The buyer's country (ISO code) the tax was decided by; null on orders from before it was asked. */
  buyerCountry: z.string().nullable(),
  buyerCompany: z.string().nullable(),
  buyerTaxId: z.string().nullable(),
  /** Whose tax (ISO code; null when none was due), its name and rate ("0.1800"), as charged. */
  taxJurisdiction: z.string().nullable(),
  taxLabel: z.string(),
  taxRate: z.string(),
  reverseCharge: z.boolean(),
  /** The reverse-charge wording, or why no tax was charged. */
  taxNote: z.string().nullable(),
  /** What the register (VIES, HMRC) said about the buyer's VAT number at checkout; null without one. */
  vatCheck: vatCheckSchema.nullable(),
  currency: z.string(),
  fxRate: z.number(),
  customerInfo: z.object({
    fullName: z.string(),
    email: z.string(),
    address: z.string(),
    city: z.string(),
    country: z.string(),
  }),
  /** Where the physical items go; null when the order holds none. */
  shippingAddress: storedShippingAddressSchema.nullable(),
  items: z.array(orderItemSchema),
});
export type Order = z.infer<typeof orderSchema>;
/** Placing, reading or updating one order answers with it as it now is. */
export const orderAnswerSchema = z.object({ order: orderSchema });
export type OrderAnswer = z.infer<typeof orderAnswerSchema>;

export const orderStatsSchema = z.object({
  totalOrders: z.number(),
  /** USD, over confirmed or paid orders. */
  totalSpent: z.number(),
  completedOrders: z.number(),
});
export type OrderStats = z.infer<typeof orderStatsSchema>;

export const orderListSchema = z.object({ items: z.array(orderSchema), stats: orderStatsSchema });
export type OrderList = z.infer<typeof orderListSchema>;

/** An admin's status change; the paid flag follows the status (see `#domain/order-states`). */
export const orderStatusUpdateSchema = z.object({
  paymentStatus: z.enum(orderStatuses, {
    error: "Status must be pending, processing, failed or mock_confirmed",
  }),
});

export const ADMIN_ORDERS_PAGE_SIZE = 25;

/** A full order id: that order. */
export const fullOrderIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The 8 characters screens and e-mails show for an order: the orders whose id starts with them. */
export const shortOrderIdPattern = /^[0-9a-f]{8}$/i;

export const adminOrdersQuery = z.object({
  page: pageNumber,
  /** An order id (full or its first 8 characters), or part of the buyer's e-mail or name, any case. */
  q: z.string().trim().max(200, "Search for at most 200 characters").optional(),
  status: z
    .enum(paymentStatuses, {
      error: "Status must be pending, processing, failed, mock_confirmed, partially_refunded or refunded",
    })
    .optional(),
});

/** Every order, for admins, with the e-mail and name of the buyer's account. */
export const adminOrderListSchema = paged(
  orderSchema.extend({ accountEmail: z.string(), accountName: z.string() }),
);
export type AdminOrderList = z.infer<typeof adminOrderListSchema>;
