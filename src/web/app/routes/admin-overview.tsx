import { lazy, type ReactNode, Suspense, useId } from "react";
import { Link } from "react-router";
import type { AdminOverview, OverviewFigures } from "#domain/admin-overview";
import { paths } from "#domain/routes";
import { PageHeader } from "#web/components/layout/page-header";
import { Card } from "#web/components/ui/card";
import { LoadError } from "#web/components/ui/load-error";
import { useAdminOverview } from "#web/features/admin-overview/api/get-admin-overview";
import { formatDay } from "#web/features/admin-overview/format";
import { useMe } from "#web/features/auth/api/get-me";
import { RequireAdmin } from "#web/features/auth/components/guards";
import { usd } from "#web/features/finance/components/usd";
import { cn } from "#web/lib/utils";

// recharts is large: it loads when an admin opens this screen, never with the shop.
const SalesChart = lazy(() => import("#web/features/admin-overview/components/sales-chart"));

const chartSkeleton = <div className="h-64 animate-pulse rounded-lg bg-muted" aria-hidden />;

export function Component() {
  return (
    <RequireAdmin>
      <PageHeader
        title="Overview"
        subtitle="Today and this month on Stackbay. Amounts are in USD, from the books."
      />
      <OverviewScreen />
    </RequireAdmin>
  );
}

function OverviewScreen() {
  const overview = useAdminOverview();
  const { data: me } = useMe();
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-10 px-4 py-8 sm:px-6">
      {overview.isPending ? (
        <div role="status" aria-label="Loading the overview" className="flex flex-col gap-4">
          <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
            {Array.from({ length: 8 }, (_, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
              <div key={i} className="h-24 animate-pulse rounded-lg bg-muted" />
            ))}
          </div>
          {chartSkeleton}
        </div>
      ) : overview.isError ? (
        <LoadError what="overview" error={overview.error} onRetry={() => overview.refetch()} />
      ) : (
        <Figures overview={overview.data} superAdmin={Boolean(me?.roles.isSuperAdmin)} />
      )}
    </div>
  );
}

function Figures({ overview, superAdmin }: { overview: AdminOverview; superAdmin: boolean }) {
  const { figures, refunds, inbox } = overview;
  // Finance and Users are super-admin screens; an admin sees those figures without a link.
  const financeFor = (period: { from: string; to: string }) =>
    superAdmin ? `${paths.admin.finance()}?from=${period.from}&to=${period.to}` : undefined;
  const usersLink = superAdmin ? paths.admin.users() : undefined;
  return (
    <>
      <Section title="Sales">
        <div className="grid gap-3 sm:grid-cols-2">
          <PeriodFigures
            title={`Today, ${formatDay(overview.today.from)}`}
            figures={figures.today}
            salesLink={financeFor(overview.today)}
            usersLink={usersLink}
            testId="overview-today"
          />
          <PeriodFigures
            title={`This month, from ${formatDay(overview.month.from)}`}
            figures={figures.month}
            salesLink={financeFor(overview.month)}
            usersLink={usersLink}
            testId="overview-month"
          />
        </div>
      </Section>
      <Section title="Needs action">
        <ul className="grid grid-cols-2 gap-3 lg:grid-cols-5">
          <Figure
            label="Pending moderation"
            value={overview.pendingModeration}
            to={paths.admin.moderation()}
          />
          <Figure label="Escalated refunds" value={refunds.escalated} to={paths.admin.refunds()} />
          <Figure
            label="Refund payouts to fix"
            value={refunds.payoutsToFix}
            to={`${paths.admin.refunds()}?payout=awaiting_transfer`}
          />
          <Figure
            label="Open partner applications"
            value={inbox.openApplications}
            to={`${paths.admin.inbox()}?tab=applications`}
          />
          <Figure label="Messages this month" value={inbox.messagesThisMonth} to={paths.admin.inbox()} />
        </ul>
      </Section>
      <Section title="Last 30 days">
        <Daily days={overview.daily} />
      </Section>
      <Section title="Top products this month">
        <TopProducts overview={overview} />
      </Section>
    </>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="mb-3 text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

function PeriodFigures({
  title,
  figures,
  salesLink,
  usersLink,
  testId,
}: {
  title: string;
  figures: OverviewFigures;
  salesLink?: string;
  usersLink?: string;
  testId: string;
}) {
  return (
    <Card asChild className="p-4">
      <section aria-label={title} data-testid={testId}>
        <h3 className="text-sm font-medium text-muted-foreground">{title}</h3>
        {/* Gross sales take a row of their own: an amount to the 1/100 cent is long on a phone. */}
        <ul className="mt-3 grid grid-cols-2 gap-2">
          <Figure
            label="Gross sales"
            value={usd(figures.grossSales)}
            to={salesLink}
            bare
            className="col-span-2"
          />
          <Figure label="Orders" value={figures.orders} to={paths.admin.orders()} bare />
          <Figure label="New users" value={figures.newUsers} to={usersLink} bare />
        </ul>
      </section>
    </Card>
  );
}

/** A figure with its label; the whole tile is the link to the screen where it is acted on. */
function Figure({
  label,
  value,
  to,
  bare = false,
  className,
}: {
  label: string;
  value: ReactNode;
  to?: string;
  bare?: boolean;
  className?: string;
}) {
  const body = (
    <>
      <span className="block text-sm text-muted-foreground">{label}</span>
      <span className="mt-1 block text-xl font-semibold tabular-nums break-words sm:text-2xl">{value}</span>
    </>
  );
  const tile = cn("block h-full min-w-0 rounded-lg p-3", !bare && "border border-border bg-card shadow-sm");
  return (
    <li className={cn("min-w-0", className)}>
      {to ? (
        <Link
          to={to}
          className={cn(tile, "hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring")}
          data-testid={`figure-${label}`}
        >
          {body}
        </Link>
      ) : (
        <div className={tile} data-testid={`figure-${label}`}>
          {body}
        </div>
      )}
    </li>
  );
}

function Daily({ days }: { days: AdminOverview["daily"] }) {
  const orders = days.reduce((sum, d) => sum + d.orders, 0);
  const sales = days.reduce((sum, d) => sum + d.grossSales, 0);
  if (orders === 0) {
    return (
      <p className="rounded-lg border border-dashed border-border px-4 py-10 text-center text-sm text-muted-foreground">
        No paid orders in the last 30 days — each day's orders and gross sales appear here.
      </p>
    );
  }
  const first = days[0]?.date ?? "";
  const last = days.at(-1)?.date ?? "";
  return (
    <Card className="p-4">
      <figure>
        <figcaption className="mb-3 text-sm text-muted-foreground" data-testid="overview-daily-summary">
          {`${orders} ${orders === 1 ? "order" : "orders"} and ${usd(sales)} in gross sales from ${formatDay(first)} to ${formatDay(last)}. Bars: gross sales; line: orders.`}
        </figcaption>
        <Suspense fallback={chartSkeleton}>
          <SalesChart days={days} />
        </Suspense>
        {/* The chart is hidden from screen readers; this table carries the same figures. */}
        <div className="sr-only">
          <table>
            <caption>Orders and gross sales per day, last 30 days</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Orders</th>
                <th scope="col">Gross sales</th>
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.date}>
                  <th scope="row">{formatDay(d.date)}</th>
                  <td>{d.orders}</td>
                  <td>{usd(d.grossSales)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </figure>
    </Card>
  );
}

function TopProducts({ overview }: { overview: AdminOverview }) {
  if (overview.topProducts.length === 0) {
    return <p className="text-sm text-muted-foreground">No sales this month yet.</p>;
  }
  return (
    <Card asChild>
      <ol className="divide-y divide-border" data-testid="overview-top-products">
        {overview.topProducts.map((p, i) => (
          <li key={p.productId ?? p.name} className="flex gap-3 px-4 py-3">
            <span className="w-5 shrink-0 text-sm text-muted-foreground tabular-nums">{i + 1}.</span>
            <div className="flex min-w-0 flex-1 flex-col gap-1 sm:flex-row sm:items-baseline sm:gap-4">
              <span className="min-w-0 flex-1 font-medium break-words">
                {p.productId ? (
                  <Link to={paths.product(p.productId)} className="hover:underline">
                    {p.name}
                  </Link>
                ) : (
                  p.name
                )}
              </span>
              <span className="flex items-baseline gap-4">
                <span className="text-sm text-muted-foreground tabular-nums">
                  {p.unitsSold} {p.unitsSold === 1 ? "unit" : "units"}
                </span>
                <span className="font-semibold tabular-nums">{usd(p.grossSales)}</span>
              </span>
            </div>
          </li>
        ))}
      </ol>
    </Card>
  );
}
