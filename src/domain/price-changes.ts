import type { PriceChange } from "#domain/checkout";
import { toUnits } from "#domain/money";

/**
 * The products whose current price differs from the one the buyer was shown, each once, in the order
 * of the lines. Compared in whole 1/10,000 USD units: "19.9900" from the database and 19.99 from the
 * cart are the same price, 0.004 and 0.0045 are not. Lines whose product is missing are left to the
 * unavailable-product check.
 */
export function priceChanges(
  shown: readonly { productId: string; price: number }[],
  current: readonly { id: string; name: string; price: string }[],
): PriceChange[] {
  const changes: PriceChange[] = [];
  for (const line of shown) {
    const product = current.find((p) => p.id === line.productId);
    if (!product || toUnits(line.price) === toUnits(product.price)) continue;
    if (changes.some((c) => c.productId === product.id)) continue;
    changes.push({
      productId: product.id,
      name: product.name,
      oldPrice: line.price,
      newPrice: Number(product.price),
    });
  }
  return changes;
}
