import { TrendingUp } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import type { Me } from "#domain/accounts";
import { paths } from "#domain/routes";
import type {
  SellerLiveSubscription,
  SellerPastDue,
  SellerSubscriptionReport,
} from "#domain/subscription-report-schemas";
import { ViewCard } from "#web/components/layout/view-card";
import { Button } from "#web/components/ui/button";
import { LoadError } from "#web/components/ui/load-error";
import { ScrollTable, TableCell, TableRow } from "#web/components/ui/table";
import { Amount } from "#web/features/currency/components/totals-list";
import { useMoney } from "#web/features/currency/use-money";
import {
  type ReportPages,
  useSellerSubscriptions,
} from "#web/features/subscription-reports/api/get-seller-subscriptions";
import {
  NextDate,
  On,
  Pager,
  Plan,
  ReportSection,
  SubscriptionFigures,
} from "#web/features/subscription-reports/components/report-parts";
import { StatusBadge } from "#web/features/subscriptions/components/subscriptions-view";

const pastDueColumns = [
  "Product",
  "Buyer",
  "Plan",
  "Amount due",
  "Due since",
  "Next reminder",
  "Ends if unpaid",
];
const liveColumns = ["Product", "Buyer", "Plan", "Status", "MRR", "Renews or ends"];

/**
 * The dashboard's Recurring revenue view, for sellers: what the subscriptions to their products bring in
 * each month and how that moved this month, the renewals waiting for payment and every subscription that
 * goes on. Buyers appear by first name only.
 */
export function RecurringView({ me }: { me: Me }) {
  const money = useMoney();
  const description =
    money.currency.code === "USD"
      ? "Subscriptions to your products: what they bring in each month, and the renewals waiting for payment."
      : `Subscriptions to your products: what they bring in each month, and the renewals waiting for payment. Amounts are shown in ${money.currency.name}; renewals are charged in USD.`;
  return (
    <ViewCard title="Recurring revenue" description={description}>
      {me.roles.isSeller ? (
        <Report />
      ) : (
        <p className="text-sm text-muted-foreground">Recurring revenue is for sellers.</p>
      )}
    </ViewCard>
  );
}

function Report() {
  const [pages, setPages] = useState<ReportPages>({ page: 1, duePage: 1 });
  const report = useSellerSubscriptions(pages);
  if (report.isPending) return <ReportSkeleton />;
  if (report.isError)
    return <LoadError what="subscription figures" error={report.error} onRetry={() => report.refetch()} />;
  const { figures, pastDue, live } = report.data;
  const none =
    live.total === 0 &&
    pastDue.total === 0 &&
    figures.endedThisMonth === 0 &&
    figures.cancelling === 0 &&
    figures.trialing === 0;
  if (none) return <NoSubscriptions />;
  return (
    <div className="flex flex-col gap-10" data-testid="recurring-report">
      <SubscriptionFigures
        figures={figures}
        money={(usd) => <Amount usd={usd} />}
        label="Subscription figures"
      />
      <ReportSection
        title="Past due"
        description="Renewals not paid by their due date. The buyer is reminded on days 1, 3 and 5; on day 7 the subscription ends and its keys stop working."
      >
        {pastDue.total === 0 ? (
          <p className="text-sm text-muted-foreground">No renewal is past due.</p>
        ) : (
          <PastDueTable items={pastDue.items} />
        )}
        <Pager
          what="past-due renewals"
          total={pastDue.total}
          page={pastDue.page}
          pageSize={pastDue.pageSize}
          onPage={(duePage) => setPages({ ...pages, duePage })}
        />
      </ReportSection>
      <ReportSection
        title="Subscriptions"
        description="Every subscription to your products that has not ended, newest first."
      >
        {live.total === 0 ? (
          <p className="text-sm text-muted-foreground">No subscription goes on at the moment.</p>
        ) : (
          <LiveTable items={live.items} />
        )}
        <Pager
          what="subscriptions"
          total={live.total}
          page={live.page}
          pageSize={live.pageSize}
          onPage={(page) => setPages({ ...pages, page })}
        />
      </ReportSection>
    </div>
  );
}

function PastDueTable({ items }: { items: SellerSubscriptionReport["pastDue"]["items"] }) {
  return (
    <ScrollTable
      label="Past-due renewals"
      columns={pastDueColumns}
      minWidth="min-w-[52rem]"
      testId="past-due-table"
    >
      {items.map((item) => (
        <PastDueRow key={item.subscriptionId} item={item} />
      ))}
    </ScrollTable>
  );
}

function PastDueRow({ item }: { item: SellerPastDue }) {
  return (
    <TableRow className="[&>td]:align-top" data-testid="past-due-row">
      <TableCell className="font-medium break-words">{item.productName}</TableCell>
      <TableCell>{item.buyer}</TableCell>
      <TableCell>
        <Plan interval={item.interval} quantity={item.quantity} />
      </TableCell>
      <TableCell className="tabular-nums">
        <Amount usd={item.amountDue} />
        <span className="block text-xs text-muted-foreground">tax included</span>
      </TableCell>
      <TableCell>
        <On date={item.dueAt} />
      </TableCell>
      <TableCell>
        {item.nextReminderAt ? (
          <On date={item.nextReminderAt} />
        ) : (
          <span className="text-muted-foreground">None left</span>
        )}
        <span className="block text-xs text-muted-foreground">{item.remindersSent} sent</span>
      </TableCell>
      <TableCell>
        <On date={item.endsAt} />
      </TableCell>
    </TableRow>
  );
}

function LiveTable({ items }: { items: SellerLiveSubscription[] }) {
  return (
    <ScrollTable label="Subscriptions" columns={liveColumns} minWidth="min-w-[48rem]" testId="live-table">
      {items.map((item) => (
        <LiveRow key={item.subscriptionId} item={item} />
      ))}
    </ScrollTable>
  );
}

function LiveRow({ item }: { item: SellerLiveSubscription }) {
  return (
    <TableRow className="[&>td]:align-top" data-testid="live-row">
      <TableCell className="font-medium break-words">
        {item.productId ? (
          <Link to={paths.product(item.productId)} className="hover:underline">
            {item.productName}
          </Link>
        ) : (
          item.productName
        )}
        <span className="block text-xs font-normal text-muted-foreground">
          Since <On date={item.startedAt} />
        </span>
      </TableCell>
      <TableCell data-testid="live-buyer">{item.buyer}</TableCell>
      <TableCell>
        <Plan interval={item.interval} quantity={item.quantity} />
      </TableCell>
      <TableCell>
        <StatusBadge status={item.status} />
      </TableCell>
      <TableCell className="tabular-nums" data-testid="live-mrr">
        <Amount usd={item.monthlyAmount} />
      </TableCell>
      <TableCell>
        <NextDate item={item} />
      </TableCell>
    </TableRow>
  );
}

function ReportSkeleton() {
  return (
    <div role="status" aria-label="Loading subscription figures" className="flex flex-col gap-3">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {[0, 1, 2, 3, 4, 5, 6, 7].map((card) => (
          <div key={card} className="h-24 animate-pulse rounded-lg bg-muted" aria-hidden />
        ))}
      </div>
      {[0, 1, 2].map((row) => (
        <div key={row} className="h-12 animate-pulse rounded bg-muted" aria-hidden />
      ))}
    </div>
  );
}

function NoSubscriptions() {
  return (
    <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-border px-4 py-12 text-center">
      <TrendingUp className="size-10 text-muted-foreground" aria-hidden />
      <h3 className="text-lg font-semibold">No subscriptions to your products yet</h3>
      <p className="max-w-sm text-sm text-muted-foreground">
        Products priced per month, per year or per user renew as subscriptions. When buyers subscribe, what
        they bring in each month appears here.
      </p>
      <Button asChild variant="outline" className="mt-2">
        <Link to={paths.seller.products()}>My Products</Link>
      </Button>
    </div>
  );
}
