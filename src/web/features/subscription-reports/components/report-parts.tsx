import { type ReactNode, type Ref, useId } from "react";
import { formatDate } from "#domain/dates";
import type { SellerLiveSubscription, SubscriptionReportFigures } from "#domain/subscription-report-schemas";
import type { BillingInterval } from "#domain/subscriptions";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";

const intervalLabel = { month: "Monthly", year: "Yearly" } as const satisfies Record<BillingInterval, string>;

/** "Monthly", or "Yearly × 3" for three seats or units. */
export function Plan({ interval, quantity }: { interval: BillingInterval; quantity: number }) {
  return (
    <span className="whitespace-nowrap">
      {intervalLabel[interval]}
      {quantity > 1 && <span className="text-muted-foreground tabular-nums"> × {quantity}</span>}
    </span>
  );
}

/** A day, as the rest of the site writes it, in UTC. */
export const On = ({ date }: { date: string }) => (
  <time dateTime={date} className="whitespace-nowrap">
    {formatDate(date)}
  </time>
);

/** A titled part of a subscription view, with its heading for the outline and the screen reader. */
export function ReportSection({
  title,
  description,
  headingRef,
  level = 3,
  children,
}: {
  title: string;
  description?: ReactNode;
  /** Where the keyboard focus goes when a row it held leaves the list (the heading takes focus by script only). */
  headingRef?: Ref<HTMLHeadingElement>;
  level?: 2 | 3;
  children: ReactNode;
}) {
  const id = useId();
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <div>
        <Heading
          id={id}
          ref={headingRef}
          tabIndex={headingRef ? -1 : undefined}
          className="text-lg font-semibold outline-none"
        >
          {title}
        </Heading>
        {description && <p className="mt-1 text-sm text-muted-foreground">{description}</p>}
      </div>
      {children}
    </section>
  );
}

/** Previous and Next under a list that holds more than a page, with "N in all · page x of y". */
export function Pager({
  what,
  total,
  page,
  pageSize,
  onPage,
}: {
  what: string;
  total: number;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  return (
    <nav aria-label={`Pages of ${what}`} className="flex items-center justify-between gap-4 text-sm">
      <span className="text-muted-foreground">
        {total} in all · page {page} of {pages}
      </span>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </Button>
        <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Next
        </Button>
      </div>
    </nav>
  );
}

function Figure({
  label,
  value,
  note,
  testId,
}: {
  label: string;
  value: ReactNode;
  note: string;
  testId: string;
}) {
  return (
    <Card flat className="p-3 sm:p-4" data-testid={testId}>
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="mt-1 text-xl font-bold tabular-nums [overflow-wrap:anywhere] sm:text-2xl">{value}</dd>
      <dd className="mt-1 text-xs text-muted-foreground">{note}</dd>
    </Card>
  );
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Of the trials that ended this month, the share that converted, in whole percent; null when none ended. */
export function trialConversion(figures: SubscriptionReportFigures): number | null {
  const ended = figures.trialsConvertedThisMonth + figures.trialsLostThisMonth;
  return ended === 0 ? null : Math.round((figures.trialsConvertedThisMonth / ended) * 100);
}

/**
 * The eight figures of a subscription view: MRR, the subscriptions active, in a free trial, cancelling
 * and past due, this month's new and churned MRR, and how this month's ended trials converted. `money`
 * writes an amount (the display currency for a seller, USD for an admin).
 */
export function SubscriptionFigures({
  figures,
  money,
  label,
}: {
  figures: SubscriptionReportFigures;
  money: (usd: string) => ReactNode;
  label: string;
}) {
  const since = formatDate(figures.monthStart);
  const conversion = trialConversion(figures);
  return (
    <section aria-label={label}>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="subscription-figures">
        <Figure
          label="MRR"
          value={money(figures.mrr)}
          note="Monthly, before tax; a yearly plan counts a twelfth"
          testId="figure-mrr"
        />
        <Figure label="Active" value={figures.active} note="Renewing" testId="figure-active" />
        <Figure
          label="In a free trial"
          value={figures.trialing}
          note="Charged when their trial ends"
          testId="figure-trialing"
        />
        <Figure
          label="Cancelling"
          value={figures.cancelling}
          note="End when their paid period does"
          testId="figure-cancelling"
        />
        <Figure
          label="Past due"
          value={figures.pastDue}
          note="Renewal unpaid, buyer reminded"
          testId="figure-past-due"
        />
        <Figure
          label="New MRR this month"
          value={money(figures.newMrr)}
          note={`Subscriptions started since ${since}`}
          testId="figure-new"
        />
        <Figure
          label="Churned MRR this month"
          value={money(figures.churnedMrr)}
          note={`${count(figures.endedThisMonth, "subscription")} ended, ${figures.endedUnpaidThisMonth} unpaid`}
          testId="figure-churned"
        />
        <Figure
          label="Trial conversion"
          value={
            conversion === null ? (
              <>
                <span aria-hidden>—</span>
                <span className="sr-only">None ended</span>
              </>
            ) : (
              `${conversion}%`
            )
          }
          note={
            conversion === null
              ? `No trial ended since ${since}`
              : `${figures.trialsConvertedThisMonth} converted, ${figures.trialsLostThisMonth} lost since ${since}`
          }
          testId="figure-trials"
        />
      </dl>
    </section>
  );
}

/** What comes next: it renews, it ends at its paid period's end, or it ends if its renewal stays unpaid. */
export function NextDate({ item }: { item: Pick<SellerLiveSubscription, "status" | "renewsAt" | "endsAt"> }) {
  if (item.renewsAt)
    return (
      <span>
        Renews on <On date={item.renewsAt} />
      </span>
    );
  if (!item.endsAt) return <span className="text-muted-foreground">—</span>;
  return (
    <span>
      Ends on <On date={item.endsAt} />
      {item.status === "past_due" && <span className="block text-xs text-muted-foreground">unless paid</span>}
    </span>
  );
}
