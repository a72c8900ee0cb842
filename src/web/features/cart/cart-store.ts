import {
  addToCart,
  type CartInput,
  type CartItem,
  cartCount,
  parseStoredCart,
  setPrices,
  setQuantity,
} from "#domain/cart";
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

export const cartActions = {
  /**
   * The buyer stays where they are; the toast offers the cart (`viewCart`, which the caller wires to
   * its router) rather than the page jumping there.
   */
  add(input: CartInput, viewCart?: () => void) {
    cartStore.set(addToCart(cartStore.get(), input));
    showToast("success", "Added to cart!", {
      description: `${input.name} has been added to your cart.`,
      action: viewCart ? { label: "View cart", onClick: viewCart } : undefined,
    });
  },
  setQuantity(id: string, quantity: number) {
    cartStore.set(setQuantity(cartStore.get(), id, quantity));
  },
  /** After checkout was refused for changed prices: the cart (and its page) show the current ones. */
  setPrices(prices: readonly { id: string; price: number }[]) {
    cartStore.set(setPrices(cartStore.get(), prices));
  },
  remove(id: string) {
    cartStore.set(setQuantity(cartStore.get(), id, 0));
  },
  clear() {
    cartStore.set([]);
  },
};
