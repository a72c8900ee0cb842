import { lazy, Suspense, useId, useState } from "react";
import type { Me } from "#domain/accounts";
import type { EarningsOverview } from "#domain/earnings";
import { ViewCard } from "#web/components/layout/view-card";
import { LoadError } from "#web/components/ui/load-error";
import { useEarnings } from "#web/features/earnings/api/get-earnings";
import {
  BalanceCards,
  BalanceCardsSkeleton,
  Clawbacks,
  roleHeading,
} from "#web/features/earnings/components/balance-cards";
import { PayoutHistory } from "#web/features/earnings/components/payout-history";
import { ExportSalesLink, SalesList } from "#web/features/earnings/components/sales-list";
import { formatMonth, usd } from "#web/features/earnings/format";

// recharts is large: it loads when a seller opens this view, not with the app.
const EarningsChart = lazy(() => import("#web/features/earnings/components/earnings-chart"));

const chartSkeleton = <div className="h-64 animate-pulse rounded-lg bg-muted" aria-hidden />;

/** The dashboard's Earnings view: balances per role, the last year, the sales and the payouts. */
export function EarningsView({ me }: { me: Me }) {
  const earner = me.roles.isSeller || me.roles.isReseller;
  return (
    <ViewCard
      title="Earnings"
      description="What you earn on Stackbay: held during the refund window, then available and paid out to you."
    >
      {earner ? (
        <Workspace me={me} />
      ) : (
        <p className="text-sm text-muted-foreground">Earnings are for sellers and resellers.</p>
      )}
    </ViewCard>
  );
}

function Workspace({ me }: { me: Me }) {
  const overview = useEarnings();
  const [salesPage, setSalesPage] = useState(1);
  const [payoutsPage, setPayoutsPage] = useState(1);
  return (
    <div className="flex flex-col gap-10">
      <Section title="Balances">
        {overview.isPending ? (
          <div role="status" aria-label="Loading balances">
            <BalanceCardsSkeleton />
          </div>
        ) : overview.isError ? (
          <LoadError what="balances" error={overview.error} onRetry={() => overview.refetch()} />
        ) : (
          <Balances overview={overview.data} />
        )}
      </Section>
      <Section title="Net earnings per month">
        {overview.isPending ? (
          chartSkeleton
        ) : overview.isError ? (
          <p className="text-sm text-muted-foreground">The chart appears once the balances load.</p>
        ) : (
          <Series overview={overview.data} />
        )}
      </Section>
      {me.roles.isSeller && (
        <Section title="Sales" action={<ExportSalesLink />}>
          <SalesList page={salesPage} onPage={setSalesPage} />
        </Section>
      )}
      <Section title="Payouts">
        <PayoutHistory
          page={payoutsPage}
          onPage={setPayoutsPage}
          payoutMinimum={overview.data?.payoutMinimum ?? 0}
        />
      </Section>
    </div>
  );
}

function Section({
  title,
  action,
  children,
}: {
  title: string;
  action?: React.ReactNode;
  children: React.ReactNode;
}) {
  const id = useId();
  return (
    <section aria-labelledby={id}>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h3 id={id} className="text-lg font-semibold">
          {title}
        </h3>
        {action}
      </div>
      {children}
    </section>
  );
}

function Balances({ overview }: { overview: EarningsOverview }) {
  const both = overview.balances.length > 1;
  return (
    <div className="flex flex-col gap-6">
      {overview.balances.map((balance) => (
        <div key={balance.role}>
          {both && (
            <h4 className="mb-2 text-sm font-medium text-muted-foreground">{roleHeading[balance.role]}</h4>
          )}
          <BalanceCards balance={balance} payoutMinimum={overview.payoutMinimum} />
          <Clawbacks balance={balance} />
        </div>
      ))}
      <p className="text-sm text-muted-foreground">
        Payouts go out in batches to balances of at least {usd(overview.payoutMinimum)}; smaller balances wait
        for a later one.
      </p>
    </div>
  );
}

function Series({ overview }: { overview: EarningsOverview }) {
  const { series } = overview;
  if (series.every((point) => point.net === 0 && point.gross === 0)) {
    return (
      <p className="rounded-lg border border-dashed border-border px-4 py-10 text-center text-sm text-muted-foreground">
        Nothing earned in the last 12 months yet — each month's net appears here.
      </p>
    );
  }
  return (
    <figure>
      <Suspense fallback={chartSkeleton}>
        <EarningsChart points={series} />
      </Suspense>
      {/* A table ignores a 1px width, so the clipping box is a div around it. */}
      <div className="sr-only">
        <table>
          <caption>Net and gross earnings per month, last 12 months</caption>
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col">Net</th>
              <th scope="col">Gross</th>
            </tr>
          </thead>
          <tbody>
            {series.map((point) => (
              <tr key={point.month}>
                <th scope="row">{formatMonth(point.month)}</th>
                <td>{usd(point.net)}</td>
                <td>{usd(point.gross)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
