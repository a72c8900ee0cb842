/**
 * The buyer's renewal calendar (the renewal desk's, and its .ics and .csv downloads): every renewal of
 * their live subscriptions due in the coming 12 months, with what each costs. Computed from the desk's
 * answers alone, so the desk and the downloads agree.
 */

import { csvAmount, csvText } from "#domain/csv";
import { onFirstUse } from "#domain/dates";
import { icsCalendar } from "#domain/ics";
import { computeTotals, formatUsd } from "#domain/money";
import type { Subscription } from "#domain/subscription-schemas";
import {
  addIntervals,
  type BillingInterval,
  boundary,
  periodAt,
  type SubscriptionStatus,
} from "#domain/subscriptions";

/** How far ahead the calendar looks. */
export const CALENDAR_MONTHS = 12;

/** One renewal falling due. */
export type CalendarRenewal = {
  subscriptionId: string;
  /** The period it pays for, counted from the subscription's anchor (0 is the first): stable across downloads. */
  periodIndex: number;
  /** When it falls due (ISO): a period boundary. */
  dueAt: string;
  /** Due before now and not paid: a past-due subscription's renewal. */
  overdue: boolean;
  productName: string;
  vendor: string | null;
  planName: string | null;
  interval: BillingInterval;
  quantity: number;
  status: SubscriptionStatus;
  /** What it costs with tax, in USD. */
  total: string;
};

/** The subscriptions that renew: in a trial, active, or past due (its renewal still payable). */
const renews = (status: SubscriptionStatus) =>
  status === "trialing" || status === "active" || status === "past_due";

/**
 * Every renewal due from `now` until `CALENDAR_MONTHS` months later (exclusive), past-due renewals
 * first (however long ago they fell due), then by date. A live subscription renews at `paidThrough` and
 * then at every boundary after it, counted from its anchor (31 January, 28 February, 31 March). A
 * cancelling or ended one renews no more. The first renewal costs its `nextTotal` (the invoiced order's
 * total once it is invoiced); each later one the unit price due then (the announced new price from its
 * first renewal on) for its seats, taxed at its rate as the renewal job taxes it.
 */
export function renewalCalendar(items: readonly Subscription[], now: Date): CalendarRenewal[] {
  const until = addIntervals(now, "month", CALENDAR_MONTHS);
  const out: CalendarRenewal[] = [];
  for (const s of items) {
    if (!renews(s.status)) continue;
    const paidThrough = new Date(s.paidThrough);
    const first = periodAt(new Date(s.anchor), s.interval, paidThrough).index + s.anchorPeriod;
    // A change scheduled for the period's end sets the terms from the next renewal on, its periods
    // counted from that renewal.
    const change = s.pendingChange?.status === "scheduled" ? s.pendingChange : null;
    const anchored = change
      ? { anchor: paidThrough, interval: change.interval, anchorPeriod: first }
      : { anchor: new Date(s.anchor), interval: s.interval, anchorPeriod: s.anchorPeriod };
    for (let index = first; ; index++) {
      const dueAt = boundary(anchored, index);
      if (dueAt >= until) break;
      // Only the renewal the subscription is due for now may lie in the past.
      if (dueAt < now && index !== first) continue;
      const overdue = dueAt < now || (index === first && s.status === "past_due");
      out.push({
        subscriptionId: s.id,
        periodIndex: index,
        dueAt: dueAt.toISOString(),
        overdue,
        productName: s.productName,
        vendor: s.vendor,
        planName: change ? change.planName : s.planName,
        interval: anchored.interval,
        quantity: change ? change.quantity : s.quantity,
        status: s.status,
        total: change
          ? ((index === first ? s.due?.total : undefined) ??
            computeTotals([{ price: change.unitPrice, quantity: change.quantity }], s.taxRate).total)
          : index === first
            ? (s.due?.total ?? s.nextTotal ?? totalAt(s, dueAt))
            : totalAt(s, dueAt),
      });
    }
  }
  return out.sort(
    (a, b) =>
      Number(b.overdue) - Number(a.overdue) ||
      a.dueAt.localeCompare(b.dueAt) ||
      a.productName.localeCompare(b.productName),
  );
}

/** What a renewal due at `dueAt` costs with tax: the unit price then, for its seats. */
function totalAt(s: Subscription, dueAt: Date): string {
  const price =
    s.priceChange && dueAt >= new Date(s.priceChange.from) ? s.priceChange.unitPrice : s.unitPrice;
  return computeTotals([{ price, quantity: s.quantity }], s.taxRate).total;
}

const monthName = onFirstUse(
  () => new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" }),
);

/** The calendar grouped by the (UTC) month each renewal falls in, past-due ones in a group of their own. */
export function calendarByMonth(
  renewals: readonly CalendarRenewal[],
): { key: string; label: string; renewals: CalendarRenewal[] }[] {
  const groups: { key: string; label: string; renewals: CalendarRenewal[] }[] = [];
  for (const renewal of renewals) {
    const key = renewal.overdue ? "overdue" : renewal.dueAt.slice(0, 7);
    let group = groups.at(-1);
    if (group?.key !== key) {
      group = {
        key,
        label: renewal.overdue ? "Overdue" : monthName().format(new Date(renewal.dueAt)),
        renewals: [],
      };
      groups.push(group);
    }
    group.renewals.push(renewal);
  }
  return groups;
}

const intervalName = { month: "Monthly", year: "Yearly" } as const satisfies Record<BillingInterval, string>;

/** "Nimbus CRM Pro (Yearly)", or with the plan's own name when it says more: "Nimbus CRM Pro (Per seat, Monthly)". */
export function renewalTitle(r: Pick<CalendarRenewal, "productName" | "planName" | "interval">): string {
  const interval = intervalName[r.interval];
  const plan = r.planName && r.planName !== interval ? `${r.planName}, ` : "";
  return `${r.productName} (${plan}${interval})`;
}

export const CALENDAR_FILE_NAME = "stackbay-renewals";

/**
 * The calendar as an iCalendar file: one all-day event per renewal, its UID the subscription and the
 * period (so a calendar that imports it again updates the same events), `stamp` the moment it was made.
 */
export function calendarIcs(renewals: readonly CalendarRenewal[], stamp: Date, deskUrl: string): string {
  return icsCalendar({
    prodId: "-//Stackbay//Renewal calendar//EN",
    name: "Stackbay renewals",
    stamp,
    events: renewals.map((r) => ({
      uid: `${r.subscriptionId}-${r.periodIndex}@stackbay`,
      date: new Date(r.dueAt),
      summary: `Renewal: ${renewalTitle(r)} ${formatUsd(r.total)}`,
      description: [
        `${r.quantity} ${r.quantity === 1 ? "seat" : "seats"}, ${formatUsd(r.total)} USD with tax.`,
        r.vendor ? `Vendor: ${r.vendor}.` : null,
        r.overdue ? "Overdue: pay it from the renewal desk." : null,
        `Renewal desk: ${deskUrl}`,
      ]
        .filter((line) => line !== null)
        .join("\n"),
      url: deskUrl,
    })),
  });
}

/** The calendar's CSV columns: one row per renewal, amounts in USD with tax. */
export const CALENDAR_CSV_HEADER = [
  "Date",
  "Product",
  "Vendor",
  "Plan",
  "Seats",
  "Amount",
  "Currency",
  "Status",
] as const;

const statusName = {
  trialing: "Trial",
  active: "Active",
  cancelling: "Cancelling",
  past_due: "Past due",
  ended: "Ended",
} as const satisfies Record<SubscriptionStatus, string>;

/** The calendar as CSV (`csvText`): the due date as YYYY-MM-DD (UTC), the amount with tax. */
export function calendarCsv(renewals: readonly CalendarRenewal[]): string {
  return csvText(
    CALENDAR_CSV_HEADER,
    renewals.map((r) => [
      r.dueAt.slice(0, 10),
      r.productName,
      r.vendor,
      r.planName ?? intervalName[r.interval],
      r.quantity,
      csvAmount(Number(r.total)),
      "USD",
      r.overdue ? "Overdue" : statusName[r.status],
    ]),
  );
}
