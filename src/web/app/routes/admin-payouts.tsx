import { PageHeader } from "#web/components/layout/page-header";
import { RequireRole } from "#web/features/auth/components/guards";
import { PayoutBatchList } from "#web/features/payouts/components/payout-batches";
import { PayoutPreviewPanel } from "#web/features/payouts/components/payout-preview";
import { useSearchState } from "#web/lib/use-search-state";

export function Component() {
  return (
    <RequireRole allow="superAdmin">
      <PayoutsScreen />
    </RequireRole>
  );
}

/** Sellers and resellers are paid here: the next batch's preview, then the batches already run. */
function PayoutsScreen() {
  const { page, go } = useSearchState();
  return (
    <>
      <PageHeader
        title="Payouts"
        subtitle="Pay sellers and resellers what has become available to them: through Stripe to connected accounts, or by bank transfer from a payment file."
      />
      <div className="mx-auto flex max-w-7xl flex-col gap-10 px-4 py-8 sm:px-6">
        <PayoutPreviewPanel />
        <PayoutBatchList page={page} onPage={(p) => go({ page: String(p) })} />
      </div>
    </>
  );
}
