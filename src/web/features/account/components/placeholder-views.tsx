import { hasRole, type Me } from "#domain/accounts";
import { ViewCard } from "#web/components/layout/view-card";
import { WalletBalances } from "#web/features/earnings/components/wallet-balances";
import { PaymentMethodsSection } from "#web/features/payment-methods/components/payment-methods-section";
import { PayoutMethod } from "#web/features/payout-accounts/components/payout-method";

export function WalletView({ me }: { me: Me }) {
  const paid = hasRole(me.roles, "seller") || hasRole(me.roles, "reseller");
  return (
    <ViewCard title="Wallet" description="What Stackbay holds for you and how it reaches you.">
      <div className="flex flex-col gap-6">
        <WalletBalances me={me} />
        <PaymentMethodsSection />
        {paid && <PayoutMethod />}
      </div>
    </ViewCard>
  );
}
