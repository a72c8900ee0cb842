import { TriangleAlert } from "lucide-react";
import { useMoney } from "#web/features/currency/use-money";

/**
 * Shown on the checkout when the order was refused because the buyer had a free trial of some of its
 * products already (one trial per buyer and product): the server's words, and the new total now that
 * those lines are bought at their plan's price. An alert, so a screen reader hears it at once.
 */
export function TrialUsedNotice({ message, total }: { message: string; total: string }) {
  const money = useMoney();
  return (
    <div
      role="alert"
      data-testid="trial-used-notice"
      className="mt-6 rounded-md border border-amber-500/60 bg-amber-50 p-4 text-sm text-amber-950 dark:border-amber-400/40 dark:bg-amber-950/40 dark:text-amber-50"
    >
      <p className="flex items-center gap-2 font-semibold">
        <TriangleAlert className="size-4 shrink-0" aria-hidden />
        Free trial already used
      </p>
      <p className="mt-1" data-testid="trial-used-message">
        {message}
      </p>
      <p className="mt-1">
        Nothing has been ordered yet. Your cart now has the plan's price for it instead of the trial.
      </p>
      <p className="mt-3 font-semibold">
        New total: <span data-testid="trial-used-total">{money.amount(Number(total))}</span>{" "}
        <span className="font-normal tabular-nums">({money.usd(Number(total))} USD)</span>
      </p>
      <p className="mt-1">Check the new total, then place your order again.</p>
    </div>
  );
}
