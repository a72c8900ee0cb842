import { formatUsd } from "#domain/money";
import type {
  AdminLiveSubscription,
  AdminSubscriptionReport,
  LiveSubscriptionStatus,
} from "#domain/subscription-report-schemas";
import { liveSubscriptionStatuses } from "#domain/subscription-report-schemas";
import { FormField } from "#web/components/ui/form-field";
import { NativeSelect } from "#web/components/ui/select";
import { ScrollTable, TableCell, TableRow } from "#web/components/ui/table";
import {
  NextDate,
  On,
  Pager,
  Plan,
  ReportSection,
} from "#web/features/subscription-reports/components/report-parts";
import { StatusBadge } from "#web/features/subscriptions/components/subscriptions-view";

const columns = ["Buyer", "Product", "Plan", "Status", "MRR", "Renews or ends"];

const statusNames = {
  trialing: "Trial",
  active: "Active",
  cancelling: "Cancelling",
  past_due: "Past due",
} as const satisfies Record<LiveSubscriptionStatus, string>;

/** Every subscription that has not ended, the newest first, for admins: who holds it, who sells it. */
export function AdminLiveList({
  live,
  status,
  searched,
  onStatus,
  onPage,
}: {
  live: AdminSubscriptionReport["live"];
  status?: LiveSubscriptionStatus;
  searched: boolean;
  onStatus: (status: LiveSubscriptionStatus | undefined) => void;
  onPage: (page: number) => void;
}) {
  return (
    <ReportSection
      level={2}
      title="Subscriptions"
      description="Every subscription that has not ended, the newest first. Amounts are before tax, in USD."
    >
      <FormField label="Show" className="max-w-xs sm:w-64">
        <NativeSelect
          value={status ?? ""}
          onChange={(e) => onStatus((e.target.value || undefined) as LiveSubscriptionStatus | undefined)}
        >
          <option value="">All that go on</option>
          {liveSubscriptionStatuses.map((s) => (
            <option key={s} value={s}>
              {statusNames[s]}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      {live.total === 0 ? (
        <p className="text-sm text-muted-foreground">
          {searched || status ? "No subscription matches." : "No subscription goes on at the moment."}
        </p>
      ) : (
        <ScrollTable
          label="Subscriptions"
          columns={columns}
          minWidth="min-w-[56rem]"
          testId="admin-live-table"
        >
          {live.items.map((item) => (
            <LiveRow key={item.subscriptionId} item={item} />
          ))}
        </ScrollTable>
      )}
      <Pager
        what="subscriptions"
        total={live.total}
        page={live.page}
        pageSize={live.pageSize}
        onPage={onPage}
      />
    </ReportSection>
  );
}

function LiveRow({ item }: { item: AdminLiveSubscription }) {
  return (
    <TableRow className="[&>td]:align-top" data-testid="admin-live-row">
      <TableCell>
        <span className="block font-medium">{item.buyerName}</span>
        <span className="block text-sm [overflow-wrap:anywhere] text-muted-foreground">
          {item.buyerEmail}
        </span>
      </TableCell>
      <TableCell>
        <span className="block font-medium break-words">{item.productName}</span>
        <span className="block text-sm text-muted-foreground">{item.vendor ?? "Stackbay"}</span>
        <span className="block text-xs text-muted-foreground">
          Since <On date={item.startedAt} />
        </span>
      </TableCell>
      <TableCell>
        <Plan interval={item.interval} quantity={item.quantity} />
        <span className="block text-xs text-muted-foreground tabular-nums">
          {formatUsd(item.periodAmount)} a {item.interval}
        </span>
      </TableCell>
      <TableCell>
        <StatusBadge status={item.status} />
      </TableCell>
      <TableCell className="tabular-nums">{formatUsd(item.monthlyAmount)}</TableCell>
      <TableCell>
        <NextDate item={item} />
      </TableCell>
    </TableRow>
  );
}
