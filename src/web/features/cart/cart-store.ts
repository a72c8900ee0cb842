import { addToCart, type CartInput, type CartItem, cartCount, parseStoredCart } from "#domain/cart";
import { showToast } from "#web/lib/lazy-toast";
import { createLocalStore } from "#web/lib/local-store";

export const cartStore = createLocalStore<CartItem[]>(
  "stackbay.cart",
  (raw) => {
    const { items, error } = parseStoredCart(raw);
    if (error) console.warn("Ignoring a corrupt stored cart", error);
    return items;
  },
  (items) => JSON.stringify(items),
);

export function useCart() {
  return cartStore.use();
}

export function useCartCount() {
  return cartCount(cartStore.use());
}

/**
 * What any page does to the cart. The cart page's own changes (quantities, removals) and the checkout's
 * are #domain/cart-lines' functions set on `cartStore`, so every page does not load them.
 */
export const cartActions = {
  /**
   * The buyer stays where they are; the toast offers the cart (`viewCart`, which the caller wires to
   * its router) rather than the page jumping there. `items` are the cart with it added, when the caller
   * adds it its own way (a plan's line: `addOnPlan`).
   */
  add(input: CartInput, viewCart?: () => void, items = addToCart(cartStore.get(), input)) {
    cartStore.set(items);
    showToast("success", "Added to cart!", {
      description: `${input.name} has been added to your cart.`,
      action: viewCart ? { label: "View cart", onClick: viewCart } : undefined,
    });
  },
  clear() {
    cartStore.set([]);
  },
};
