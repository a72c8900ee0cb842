import { TriangleAlert } from "lucide-react";
import type { PriceChange } from "#domain/checkout";
import { useMoney } from "#web/features/currency/use-money";

/**
 * Shown on the checkout when the order was refused because prices moved since the cart was filled:
 * what changed, old → new, and the new total. An alert, so a screen reader hears it at once.
 */
export function PriceChangeNotice({ changes, total }: { changes: PriceChange[]; total: string }) {
  const money = useMoney();
  return (
    <div
      role="alert"
      data-testid="price-change-notice"
      className="mt-6 rounded-md border border-amber-500/60 bg-amber-50 p-4 text-sm text-amber-950 dark:border-amber-400/40 dark:bg-amber-950/40 dark:text-amber-50"
    >
      <p className="flex items-center gap-2 font-semibold">
        <TriangleAlert className="size-4 shrink-0" aria-hidden />
        {changes.length === 1 ? "A price has changed" : "Prices have changed"}
      </p>
      <p className="mt-1">
        Prices changed after you added items to your cart. Nothing has been ordered yet, and your cart now
        shows the current prices.
      </p>
      <ul className="mt-3 space-y-2">
        {changes.map((change) => {
          // Owed at checkout, so exact; the unit is the cart line's, which the change does not carry.
          const before = money.price(change.oldPrice, { productName: change.name, exact: true });
          const after = money.price(change.newPrice, { productName: change.name, exact: true });
          return (
            <li key={change.productId} data-testid="price-change">
              <p className="font-medium break-words">{change.name}</p>
              <p className="tabular-nums">
                <span className="sr-only">was </span>
                <span data-testid="price-change-old">{before}</span>
                <span aria-hidden> → </span>
                <span className="sr-only">, now </span>
                <span className="font-semibold" data-testid="price-change-new">
                  {after}
                </span>
              </p>
              {before === after && (
                // Whole-unit display rounding can hide a small change; the exact USD figures cannot.
                <p className="text-xs tabular-nums" data-testid="price-change-usd">
                  {`${money.usd(change.oldPrice)} → ${money.usd(change.newPrice)} USD`}
                </p>
              )}
            </li>
          );
        })}
      </ul>
      <p className="mt-3 font-semibold">
        New total: <span data-testid="price-change-total">{money.amount(Number(total))}</span>{" "}
        <span className="font-normal tabular-nums" data-testid="price-change-total-usd">
          ({money.usd(Number(total))} USD)
        </span>
      </p>
      <p className="mt-1">Check the new total, then place your order again.</p>
    </div>
  );
}
