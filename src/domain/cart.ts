import { isPricingUnit, type PricingUnit } from "#domain/pricing-units";

export type CartItem = {
  id: string;
  name: string;
  price: number;
  /** What the price buys, as the product said when added; absent in carts stored before units existed. */
  unit?: PricingUnit | null;
  quantity: number;
  vendor: string;
  image_url: string;
};

// A hand-written guard rather than zod: the cart loads on every page and this keeps zod out of that bundle.
function isCartItem(value: unknown): value is CartItem {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.id === "string" &&
    v.id.length > 0 &&
    typeof v.name === "string" &&
    typeof v.price === "number" &&
    Number.isFinite(v.price) &&
    v.price >= 0 &&
    Number.isInteger(v.quantity) &&
    (v.quantity as number) >= 1 &&
    typeof v.vendor === "string" &&
    typeof v.image_url === "string" &&
    (v.unit === undefined || v.unit === null || isPricingUnit(v.unit))
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
      quantity: 1,
      vendor: input.vendor || "Unknown Vendor",
      image_url: input.image_url ?? "",
    },
  ];
}

/** A quantity of zero or less removes the line, as the spec's cart does. */
export function setQuantity(items: readonly CartItem[], id: string, quantity: number): CartItem[] {
  const whole = Number.isFinite(quantity) ? Math.floor(quantity) : 0;
  if (whole <= 0) return items.filter((item) => item.id !== id);
  return items.map((item) => (item.id === id ? { ...item, quantity: whole } : item));
}

/** The server's current unit prices (USD) by product id; lines not named keep theirs. */
export function setPrices(
  items: readonly CartItem[],
  prices: readonly { id: string; price: number }[],
): CartItem[] {
  return items.map((item) => {
    const found = prices.find((p) => p.id === item.id);
    return found ? { ...item, price: found.price } : item;
  });
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
