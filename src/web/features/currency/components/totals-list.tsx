import type { Totals } from "#domain/money";
import { useMoney } from "#web/features/currency/use-money";
import { cn } from "#web/lib/utils";

/** An amount in the display currency, or a placeholder while the exchange rates load. */
export function Amount({ usd }: { usd: number | string }) {
  const money = useMoney();
  return money.ready ? (
    money.amount(Number(usd))
  ) : (
    <span className="inline-block h-5 w-16 animate-pulse rounded bg-muted align-middle" />
  );
}

/** Subtotal, 5% tax and total (USD amounts shown in the display currency); `testId` prefixes each row. */
export function TotalsList({
  totals,
  testId,
  className,
}: {
  totals: Totals;
  testId: string;
  className?: string;
}) {
  const { ready } = useMoney();
  return (
    <dl className={cn("space-y-3 text-sm", className)} aria-busy={!ready}>
      <div className="flex justify-between gap-4">
        <dt className="text-muted-foreground">Subtotal</dt>
        <dd className="font-medium tabular-nums" data-testid={`${testId}-subtotal`}>
          <Amount usd={totals.subtotal} />
        </dd>
      </div>
      <div className="flex justify-between gap-4">
        <dt className="text-muted-foreground">Tax (5%)</dt>
        <dd className="font-medium tabular-nums" data-testid={`${testId}-tax`}>
          <Amount usd={totals.tax} />
        </dd>
      </div>
      <div className="flex justify-between gap-4 border-t border-border pt-3 text-base">
        <dt className="font-semibold">Total</dt>
        <dd className="font-bold tabular-nums" data-testid={`${testId}-total`}>
          <Amount usd={totals.total} />
        </dd>
      </div>
    </dl>
  );
}
