import { addToCart, type CartInput, type CartItem, type CartPlan } from "#domain/cart";

/*
 * What the product page, the cart and the checkout do with the cart's lines beyond adding and counting
 * them: a line's plan and seats, what it is charged now, and the checkout's refusals (changed prices,
 * trials had).
 * The part of the cart every page loads (#domain/cart) keeps to what that needs: its common chunk stays
 * under the size that is copied into the home route's files (decision 0024) rather than loaded apart.
 */

/**
 * What one unit of a line is charged now: nothing during its free trial, its price otherwise. The one
 * rule behind the cart's and the checkout's totals (the server charges a trial line nothing too).
 */
export function priceNow(item: Pick<CartItem, "price" | "trial">): number {
  return item.trial ? 0 : item.price;
}

/** A quantity within a plan's seats (1 to 99 for a flat plan). */
export const withinSeats = (quantity: number, plan: Pick<CartPlan, "minSeats" | "maxSeats">) =>
  Math.min(Math.max(quantity, plan.minSeats), plan.maxSeats);

/**
 * Adds a recurring product on the plan chosen on its product page, with its trial or not. A new line
 * starts at the plan's least seats. Already in the cart on that plan and trial, it gets one more (within
 * the plan's seats); on another plan, or without a plan (from a card), or with the trial where it had
 * none or the other way round, the line takes this choice: the plan, its price and unit, its seats kept
 * within the plan's range.
 */
export function addOnPlan(items: readonly CartItem[], input: CartInput & { plan: CartPlan }): CartItem[] {
  const { plan } = input;
  const trial = Boolean(input.trial) && plan.trialDays > 0;
  const line = items.find((item) => item.id === input.id);
  if (!line) {
    const [added] = addToCart([], input);
    return added ? [...items, { ...added, quantity: withinSeats(1, plan), plan, trial }] : [...items];
  }
  const same = line.plan?.id === plan.id && Boolean(line.trial) === trial;
  // The label of a plan priced by use goes with that plan: as `addToCart` draws it, only when there is one.
  const { payAsYouGo: _previous, ...rest } = line;
  const next: CartItem = same
    ? { ...line, quantity: withinSeats(line.quantity + 1, plan) }
    : {
        ...rest,
        price: input.price,
        unit: input.unit ?? null,
        ...(input.payAsYouGo ? { payAsYouGo: input.payAsYouGo } : {}),
        quantity: withinSeats(line.quantity, plan),
        plan,
        trial,
      };
  return items.map((item) => (item === line ? next : item));
}

/**
 * A quantity of zero or less removes the line, as the spec's cart does; a line on a plan stays within
 * its seats.
 */
export function setQuantity(items: readonly CartItem[], id: string, quantity: number): CartItem[] {
  const whole = Number.isFinite(quantity) ? Math.floor(quantity) : 0;
  if (whole <= 0) return items.filter((item) => item.id !== id);
  return items.map((item) =>
    item.id === id ? { ...item, quantity: item.plan ? withinSeats(whole, item.plan) : whole } : item,
  );
}

/**
 * After checkout was refused for changed prices: the server's current unit prices (USD) by product id;
 * lines not named keep theirs.
 */
export function setPrices(
  items: readonly CartItem[],
  prices: readonly { id: string; price: number }[],
): CartItem[] {
  return items.map((item) => {
    const found = prices.find((p) => p.id === item.id);
    return found ? { ...item, price: found.price } : item;
  });
}

/** After checkout was refused because the buyer had these products' trials already: they are bought outright. */
export function dropTrials(items: readonly CartItem[], productIds: readonly string[]): CartItem[] {
  return items.map((item) => (item.trial && productIds.includes(item.id) ? { ...item, trial: false } : item));
}
