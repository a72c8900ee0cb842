import { Plus, Wallet } from "lucide-react";
import { toast } from "sonner";
import { hasRole, type Me } from "#domain/accounts";
import { formatUsd } from "#domain/money";
import { ViewCard } from "#web/components/layout/view-card";
import { Button } from "#web/components/ui/button";
import { PayoutMethod } from "#web/features/payouts/components/payout-method";

const comingSoon = (what: string) =>
  toast.info("Coming soon", { description: `${what} will be available in a future update.` });

export function WalletView({ me }: { me: Me }) {
  const paid = hasRole(me.roles, "seller") || hasRole(me.roles, "reseller");
  return (
    <ViewCard title="Wallet" description="Your Stackbay balance and payment methods.">
      <div className="flex flex-col gap-4 rounded-lg bg-accent p-5 text-accent-foreground sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-center gap-3">
          <Wallet className="size-8" aria-hidden />
          <div>
            <p className="text-sm">Available balance</p>
            <p className="text-3xl font-bold tabular-nums" data-testid="wallet-balance">
              {formatUsd(0)}
            </p>
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button onClick={() => comingSoon("Adding funds")}>
            <Plus aria-hidden /> Add Funds
          </Button>
        </div>
      </div>
      {paid && (
        <div className="mt-6">
          <PayoutMethod />
        </div>
      )}
      <h3 className="mt-8 font-semibold">Transactions</h3>
      <p className="mt-2 rounded-lg border border-dashed border-border px-4 py-8 text-center text-sm text-muted-foreground">
        No transactions yet
      </p>
    </ViewCard>
  );
}
