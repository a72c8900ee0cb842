import { type CommissionStatus, commissionStatuses, commissionStatusLabel } from "#domain/commissions";
import { PageHeader } from "#web/components/layout/page-header";
import { FormField } from "#web/components/ui/form-field";
import { NativeSelect } from "#web/components/ui/select";
import { RequireAdmin } from "#web/features/auth/components/guards";
import { CommissionReviewList } from "#web/features/referrals/components/commission-review-list";
import { useSearchState } from "#web/lib/use-search-state";

const isStatus = (value: string | null): value is CommissionStatus =>
  commissionStatuses.includes(value as CommissionStatus);

// Held first: that is what the screen is for; the others are for looking a decision up.
const reviewOrder: CommissionStatus[] = ["held", ...commissionStatuses.filter((s) => s !== "held")];

export function Component() {
  return (
    <RequireAdmin>
      <CommissionsScreen />
    </RequireAdmin>
  );
}

/** Held commissions wait for an admin: release them to the normal refund-window wait, or reject them. */
function CommissionsScreen() {
  const { params, page, go } = useSearchState();
  const raw = params.get("status");
  const status = isStatus(raw) ? raw : "held";
  return (
    <>
      <PageHeader
        title="Held commissions"
        subtitle="Commission on orders that look like a reseller's own purchase from a second account waits here. Release it to approve it after the refund window, or reject it."
      />
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        <FormField label="Show" className="mb-4 max-w-xs">
          <NativeSelect value={status} onChange={(e) => go({ status: e.target.value, page: undefined })}>
            {reviewOrder.map((s) => (
              <option key={s} value={s}>
                {commissionStatusLabel[s]}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <CommissionReviewList status={status} page={page} onPage={(p) => go({ page: String(p) })} />
      </div>
    </>
  );
}
