import type { Me } from "#domain/accounts";
import { ViewCard } from "#web/components/layout/view-card";
import { WalletBalances } from "#web/features/earnings/components/wallet-balances";

export function WalletView({ me }: { me: Me }) {
  return (
    <ViewCard title="Wallet" description="What Stackbay holds for you and how it reaches you.">
      <div className="flex flex-col gap-6">
        <WalletBalances me={me} />
      </div>
    </ViewCard>
  );
}
