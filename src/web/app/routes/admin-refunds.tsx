import { type RefundStatus, refundStatuses, refundStatusLabel } from "#domain/refunds";
import { PageHeader } from "#web/components/layout/page-header";
import { FormField } from "#web/components/ui/form-field";
import { NativeSelect } from "#web/components/ui/select";
import { RequireAdmin } from "#web/features/auth/components/guards";
import { RefundList } from "#web/features/refunds/components/refund-list";
import { useSearchState } from "#web/lib/use-search-state";

const isStatus = (value: string | null): value is RefundStatus =>
  refundStatuses.includes(value as RefundStatus);

export function Component() {
  return (
    <RequireAdmin>
      <RefundsScreen />
    </RequireAdmin>
  );
}

/** The platform's final review: escalated requests first, any status on demand. */
function RefundsScreen() {
  const { params, page, go } = useSearchState();
  const raw = params.get("status");
  // Escalations wait for the platform, so they are what this screen opens on.
  const status = raw === "all" ? undefined : isStatus(raw) ? raw : "escalated";
  return (
    <>
      <PageHeader
        title="Refunds"
        subtitle="Escalated requests wait for Stackbay's final review. Approving refunds the item, revokes its licences and cancels its commission."
      />
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        <FormField label="Show" className="mb-4 max-w-xs">
          <NativeSelect
            value={status ?? "all"}
            onChange={(e) => go({ status: e.target.value, page: undefined })}
          >
            <option value="all">All</option>
            {refundStatuses.map((s) => (
              <option key={s} value={s}>
                {refundStatusLabel[s]}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <RefundList scope="admin" page={page} status={status} onPage={(p) => go({ page: String(p) })} />
      </div>
    </>
  );
}
