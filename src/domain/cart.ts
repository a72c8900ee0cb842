import type { PayAsYouGo } from "#domain/meter-units";
import { isPricingUnit, type PricingUnit } from "#domain/pricing-units";
import type { BillingInterval } from "#domain/subscriptions";

/** A recurring product's plan as its product page showed it (decision 0027): its price is the line's. */
export type CartPlan = {
  id: string;
  name: string;
  interval: BillingInterval;
  perSeat: boolean;
  minSeats: number;
  maxSeats: number;
  trialDays: number;
};

export type CartItem = {
  id: string;
  name: string;
  price: number;
  /** What the price buys, as the product said when added; absent in carts stored before units existed. */
  unit?: PricingUnit | null;
  quantity: number;
  vendor: string;
  image_url: string;
  /** Chosen on the product page; absent for a product sold once, one added from a card, older carts. */
  plan?: CartPlan;
  /** The plan's free trial: nothing is charged for the line now (`priceNow` in #domain/cart-lines). */
  trial?: boolean;
  /** A plan priced by use alone: its unit price is shown rather than its $0 fee (decision 0029). */
  payAsYouGo?: PayAsYouGo | null;
};

const whole = (n: unknown, least: number) => Number.isInteger(n) && (n as number) >= least;

// A hand-written guard rather than zod: the cart loads on every page and this keeps zod out of that bundle.
function isCartItem(value: unknown): value is CartItem {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  // A plan as the product page wrote it (not an object, it has no string id), a trial only on a plan
  // offering one; seats are the server's to check. Kept short: see #domain/cart-lines.
  const p = v.plan as Record<string, unknown> | undefined;
  return (
    typeof v.id === "string" &&
    v.id.length > 0 &&
    typeof v.name === "string" &&
    typeof v.price === "number" &&
    Number.isFinite(v.price) &&
    v.price >= 0 &&
    whole(v.quantity, 1) &&
    typeof v.vendor === "string" &&
    typeof v.image_url === "string" &&
    (v.unit === undefined || v.unit === null || isPricingUnit(v.unit)) &&
    (p === undefined ||
      (typeof p?.id === "string" &&
        p.id.length > 0 &&
        typeof p.name === "string" &&
        (p.interval === "month" || p.interval === "year") &&
        typeof p.perSeat === "boolean" &&
        whole(p.minSeats, 1) &&
        whole(p.maxSeats, p.minSeats as number) &&
        whole(p.trialDays, 0))) &&
    (!v.trial || (v.trial === true && (p?.trialDays as number) > 0)) &&
    (v.payAsYouGo === undefined || v.payAsYouGo === null || isPayAsYouGo(v.payAsYouGo))
  );
}

function isPayAsYouGo(value: unknown): boolean {
  const v = value as Record<string, unknown>;
  return (
    typeof v === "object" &&
    typeof v.unit === "string" &&
    typeof v.unitPrice === "string" &&
    typeof v.tiered === "boolean"
  );
}
export type CartInput = Omit<CartItem, "quantity" | "vendor" | "image_url"> & {
  vendor?: string | null;
  image_url?: string | null;
};

export function addToCart(items: readonly CartItem[], input: CartInput): CartItem[] {
  if (items.some((item) => item.id === input.id)) {
    return items.map((item) => (item.id === input.id ? { ...item, quantity: item.quantity + 1 } : item));
  }
  return [
    ...items,
    {
      id: input.id,
      name: input.name,
      price: input.price,
      unit: input.unit ?? null,
      ...(input.payAsYouGo ? { payAsYouGo: input.payAsYouGo } : {}),
      quantity: 1,
      vendor: input.vendor || "Unknown Vendor",
      image_url: input.image_url ?? "",
    },
  ];
}

export function cartCount(items: readonly CartItem[]): number {
  return items.reduce((sum, item) => sum + item.quantity, 0);
}

/** Parses what was stored; anything corrupt yields an empty cart plus the reason, never a thrown error. */
export function parseStoredCart(raw: string | null): { items: CartItem[]; error?: string } {
  if (!raw) return { items: [] };
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) return { items: [], error: "stored cart is not a list" };
    const bad = parsed.findIndex((item) => !isCartItem(item));
    if (bad >= 0) return { items: [], error: `stored cart item ${bad} is malformed` };
    return { items: parsed as CartItem[] };
  } catch (error) {
    return { items: [], error: String(error) };
  }
}
