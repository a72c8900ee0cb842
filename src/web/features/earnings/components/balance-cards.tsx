import type { BalanceSummary } from "#domain/earnings";
import { Card } from "#web/components/ui/card";
import { formatShortDay, usd } from "#web/features/earnings/format";
import { cn } from "#web/lib/utils";

export const roleHeading: Record<BalanceSummary["role"], string> = {
  seller: "From your sales",
  reseller: "From your reseller commissions",
};

function Figure({
  label,
  value,
  note,
  tone,
  testId,
}: {
  label: string;
  value: string;
  note?: string;
  tone?: "warning";
  testId: string;
}) {
  return (
    <Card
      flat
      className={cn("p-3 sm:p-4", tone === "warning" && "border-destructive/60")}
      data-testid={testId}
    >
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd
        className={cn(
          "mt-1 text-xl font-bold tabular-nums sm:text-2xl",
          tone === "warning" && "text-destructive dark:text-red-400",
        )}
      >
        {value}
      </dd>
      {note && <dd className="mt-1 text-xs text-muted-foreground">{note}</dd>}
    </Card>
  );
}

/**
 * One role's four balances. Available can be below zero (a refund after the money was paid out):
 * it says so plainly, since the next payout recovers it.
 */
export function BalanceCards({ balance, payoutMinimum }: { balance: BalanceSummary; payoutMinimum: number }) {
  const next = balance.upcoming[0];
  const owed = balance.available < 0;
  return (
    <dl className="grid grid-cols-2 gap-3 xl:grid-cols-4" data-testid={`balances-${balance.role}`}>
      <Figure
        label="Pending"
        value={usd(balance.pending)}
        note={
          next ? `next: ${usd(next.amount)} on ${formatShortDay(next.date)}` : "Held during the refund window"
        }
        testId="balance-pending"
      />
      <Figure
        label="Available"
        value={usd(balance.available)}
        note={
          owed
            ? "to be recovered from your next payout"
            : `Paid in the next payout once it reaches ${usd(payoutMinimum)}`
        }
        tone={owed ? "warning" : undefined}
        testId="balance-available"
      />
      <Figure
        label="In transit"
        value={usd(balance.inTransit)}
        note="On its way to you"
        testId="balance-in-transit"
      />
      <Figure label="Paid" value={usd(balance.paid)} note="Paid out to you so far" testId="balance-paid" />
    </dl>
  );
}

/**
 * Refunds that took earnings back after they became available, each with its order: why the available
 * balance dropped (below zero when the money was already paid out) and that later earnings make it good.
 */
export function Clawbacks({ balance }: { balance: BalanceSummary }) {
  if (balance.clawbacks.length === 0) return null;
  return (
    <div className="mt-3" data-testid={`clawbacks-${balance.role}`}>
      <p className="text-sm text-muted-foreground">
        Refunds approved after the money became available are taken back from your balance and recovered from
        later earnings before the next payout.
      </p>
      <ul className="mt-2 divide-y divide-border rounded-lg border border-border text-sm">
        {balance.clawbacks.map((clawback) => (
          <li
            key={`${clawback.label}-${clawback.occurredAt}`}
            className="flex flex-wrap items-center justify-between gap-2 px-3 py-2"
          >
            <span>
              {clawback.label}
              <span className="ml-2 text-muted-foreground">{formatShortDay(clawback.occurredAt)}</span>
            </span>
            <span className="font-semibold tabular-nums text-destructive dark:text-red-400">
              {usd(clawback.amount)}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The shape of the cards while the balances load. */
export function BalanceCardsSkeleton() {
  return (
    <div className="grid grid-cols-2 gap-3 xl:grid-cols-4" aria-hidden>
      {["pending", "available", "transit", "paid"].map((key) => (
        <div key={key} className="h-26 animate-pulse rounded-lg bg-muted" />
      ))}
    </div>
  );
}
