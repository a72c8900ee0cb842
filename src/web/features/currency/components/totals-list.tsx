import type { Totals } from "#domain/money";
import type { PricingUnit } from "#domain/pricing-units";
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

/** A unit price owed, exact, with what it buys ("$49.00 / user / month"), in the display currency. */
export function UnitPrice({
  usd,
  productName,
  unit,
}: {
  usd: number;
  productName: string;
  unit: PricingUnit | null | undefined;
}) {
  const money = useMoney();
  return money.ready ? (
    money.price(usd, { productName, unit, exact: true })
  ) : (
    <span className="inline-block h-5 w-16 animate-pulse rounded bg-muted align-middle" />
  );
}

/**
 * Subtotal, tax and total (USD amounts shown in the display currency); `testId` prefixes each row.
 * `taxLine` names the tax ("India GST (18%)", "Reverse charge") with its note; null before the buyer's
 * country is known (the cart): the tax reads "Calculated at checkout" and only the subtotal is summed.
 */
export function TotalsList({
  totals,
  taxLine,
  pendingTax = "Calculated at checkout",
  testId,
  className,
}: {
  totals: Totals;
  taxLine: { label: string; note?: string | null } | null;
  /** What the tax row says while `taxLine` is null. */
  pendingTax?: string;
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
      {taxLine ? (
        <div className="flex flex-wrap justify-between gap-x-4 gap-y-1">
          <dt className="text-muted-foreground" data-testid={`${testId}-tax-label`}>
            {taxLine.label}
          </dt>
          <dd className="font-medium tabular-nums" data-testid={`${testId}-tax`}>
            <Amount usd={totals.tax} />
          </dd>
          {taxLine.note && (
            <dd className="basis-full text-xs text-muted-foreground" data-testid={`${testId}-tax-note`}>
              {taxLine.note}
            </dd>
          )}
        </div>
      ) : (
        <div className="flex justify-between gap-4">
          <dt className="text-muted-foreground">Tax</dt>
          <dd className="text-right text-muted-foreground" data-testid={`${testId}-tax`}>
            {pendingTax}
          </dd>
        </div>
      )}
      <div className="flex justify-between gap-4 border-t border-border pt-3 text-base">
        <dt className="font-semibold">{taxLine ? "Total" : "Total before tax"}</dt>
        <dd className="font-bold tabular-nums" data-testid={`${testId}-total`}>
          <Amount usd={taxLine ? totals.total : totals.subtotal} />
        </dd>
      </div>
    </dl>
  );
}
