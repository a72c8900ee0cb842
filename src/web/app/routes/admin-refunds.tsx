import {
  type PayoutState,
  payoutStates,
  type RefundStatus,
  refundStatuses,
  refundStatusLabel,
} from "#domain/refunds";
import { PageHeader } from "#web/components/layout/page-header";
import { FormField } from "#web/components/ui/form-field";
import { NativeSelect } from "#web/components/ui/select";
import { RequireAdmin } from "#web/features/auth/components/guards";
import { RefundList } from "#web/features/refunds/components/refund-list";
import { useSearchState } from "#web/lib/use-search-state";

const isStatus = (value: string | null): value is RefundStatus =>
  refundStatuses.includes(value as RefundStatus);
const isPayout = (value: string | null): value is PayoutState => payoutStates.includes(value as PayoutState);

/** Payouts that wait for an admin: a refund the provider refused, a transfer to make. */
const payoutFilters: { value: PayoutState; label: string }[] = [
  { value: "failed", label: "Refunds the provider refused" },
  { value: "awaiting_transfer", label: "Refund transfers to make" },
];

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
  const rawPayout = params.get("payout");
  const payout = isPayout(rawPayout) ? rawPayout : undefined;
  // Escalations wait for the platform, so they are what this screen opens on.
  const status = raw === "all" || payout ? undefined : isStatus(raw) ? raw : "escalated";
  const shown = payout ? `payout:${payout}` : (status ?? "all");
  return (
    <>
      <PageHeader
        title="Refunds"
        subtitle="Escalated requests wait for Stackbay's final review. Approving refunds the item, revokes its licenses, cancels its commission and pays the buyer back: through their card or PayPal, or by a bank transfer you make and record here."
      />
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        <FormField label="Show" className="mb-4 max-w-xs">
          <NativeSelect
            value={shown}
            onChange={(e) => {
              const value = e.target.value;
              go(
                value.startsWith("payout:")
                  ? { payout: value.slice("payout:".length), status: undefined, page: undefined }
                  : { status: value, payout: undefined, page: undefined },
              );
            }}
          >
            <option value="all">All</option>
            {refundStatuses.map((s) => (
              <option key={s} value={s}>
                {refundStatusLabel[s]}
              </option>
            ))}
            {payoutFilters.map((f) => (
              <option key={f.value} value={`payout:${f.value}`}>
                {f.label}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <RefundList
          scope="admin"
          page={page}
          filter={{ status, payout }}
          onPage={(p) => go({ page: String(p) })}
        />
      </div>
    </>
  );
}
