import { z } from "zod";

export const cartItemSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  price: z.number().nonnegative(),
  quantity: z.number().int().min(1),
  vendor: z.string(),
  image_url: z.string(),
});
export const cartSchema = z.array(cartItemSchema);

export type CartItem = z.infer<typeof cartItemSchema>;
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

export function cartCount(items: readonly CartItem[]): number {
  return items.reduce((sum, item) => sum + item.quantity, 0);
}

/** Parses what was stored; anything corrupt yields an empty cart plus the reason, never a thrown error. */
export function parseStoredCart(raw: string | null): { items: CartItem[]; error?: string } {
  if (!raw) return { items: [] };
  try {
    const parsed = cartSchema.safeParse(JSON.parse(raw));
    return parsed.success ? { items: parsed.data } : { items: [], error: parsed.error.message };
  } catch (error) {
    return { items: [], error: String(error) };
  }
}
