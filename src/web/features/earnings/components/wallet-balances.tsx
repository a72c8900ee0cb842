import { ArrowRight } from "lucide-react";
import { Link } from "react-router";
import type { Me } from "#domain/accounts";
import { paths } from "#domain/routes";
import { Button } from "#web/components/ui/button";
import { LoadError } from "#web/components/ui/load-error";
import { useEarnings } from "#web/features/earnings/api/get-earnings";
import { roleHeading } from "#web/features/earnings/components/balance-cards";
import { usd } from "#web/features/earnings/format";

/**
 * The Wallet's money section: for sellers and resellers what Stackbay holds for them (from the ledger),
 * with the way to the Earnings view; a plain buyer's wallet holds nothing, since buyers pay at checkout.
 */
export function WalletBalances({ me }: { me: Me }) {
  const earner = me.roles.isSeller || me.roles.isReseller;
  const earnings = useEarnings(earner);
  if (!earner) {
    return (
      <div className="rounded-lg bg-accent p-5 text-accent-foreground" data-testid="wallet-buyer">
        <p className="font-semibold">Your wallet holds no balance</p>
        <p className="mt-1 text-sm">
          You pay for each order at checkout, by card, PayPal, Apple Pay or bank transfer; refunds go back the
          way you paid.
        </p>
      </div>
    );
  }
  if (earnings.isPending) {
    return (
      <div className="h-36 animate-pulse rounded-lg bg-muted" role="status" aria-label="Loading balances" />
    );
  }
  if (earnings.isError) {
    return <LoadError what="balances" error={earnings.error} onRetry={() => earnings.refetch()} />;
  }
  return (
    <section aria-label="Your balances" className="flex flex-col gap-4" data-testid="wallet-balances">
      {earnings.data.balances.map((balance) => (
        <div key={balance.role} className="rounded-lg bg-accent p-5 text-accent-foreground">
          <p className="text-sm font-semibold">{roleHeading[balance.role]}</p>
          <dl className="mt-3 grid grid-cols-1 gap-3 min-[420px]:grid-cols-3">
            {(
              [
                ["Pending", balance.pending],
                ["Available", balance.available],
                ["Paid", balance.paid],
              ] as const
            ).map(([label, value]) => (
              <div key={label}>
                <dt className="text-sm">{label}</dt>
                <dd className="text-2xl font-bold tabular-nums" data-testid={`wallet-${label.toLowerCase()}`}>
                  {usd(value)}
                </dd>
              </div>
            ))}
          </dl>
          {balance.available < 0 && (
            <p className="mt-2 text-sm">The negative available balance is recovered from your next payout.</p>
          )}
        </div>
      ))}
      <Button asChild variant="outline" className="self-start">
        <Link to={paths.dashboard("earnings")}>
          See your earnings <ArrowRight aria-hidden />
        </Link>
      </Button>
    </section>
  );
}
