/**
 * Recurring billing rules: billing periods, what a plan costs a period, what a change of plan or
 * seats costs before it happens, and when renewals, retries and notices fall due. Pure functions of
 * their inputs. Amounts are whole US cents, the unit a renewal is charged in.
 */

import { DAY_MS } from "#domain/dates";
import type { PricingUnit } from "#domain/pricing-units";

export const billingIntervals = ["month", "year"] as const;
export type BillingInterval = (typeof billingIntervals)[number];

/** "3 seats", "1 copy": what a plan's quantity counts, seats of a per-seat plan or copies of a flat one. */
export function quantityLabel(n: number, perSeat: boolean): string {
  return `${n} ${perSeat ? (n === 1 ? "seat" : "seats") : n === 1 ? "copy" : "copies"}`;
}

/** The longest trial a plan may offer. */
export const MAX_TRIAL_DAYS = 90;

/** How many days before a free trial ends its seller's webhooks hear `subscription.trial_ending`. */
export const TRIAL_ENDING_NOTICE_DAYS = 3;

/** What a plan charges: per interval, flat or per seat within its seat range. */
export type PlanTerms = {
  interval: BillingInterval;
  /** Per interval, or per seat per interval when `perSeat`. */
  priceCents: number;
  perSeat: boolean;
  minSeats: number;
  maxSeats: number;
};

/** A subscription's plan and seats, as billed in its current period. */
export type Billed = { plan: PlanTerms; seats: number };

/**
 * What one period of `plan` with `seats` costs, before tax: the price times the seats of a per-seat plan,
 * or times the copies of a flat one (its quantity, as a renewal charges it).
 */
export function periodCents({ plan, seats }: Billed): number {
  return plan.priceCents * seats;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/**
 * The `n`-th period boundary after `anchor`: `n` months or years later, on the anchor's day of the month
 * (the month's last day when it is shorter) at the anchor's time of day, in UTC. Counted from the anchor
 * every time, never from the previous boundary, so a subscription started on 31 January renews on
 * 28 (or 29) February and then on 31 March, not on the 28th for ever.
 */
export function addIntervals(anchor: Date, interval: BillingInterval, n: number): Date {
  if (!Number.isInteger(n)) throw new RangeError(`A whole number of periods, not ${n}`);
  const months = interval === "year" ? 12 * n : n;
  const total = anchor.getUTCFullYear() * 12 + anchor.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const day = Math.min(anchor.getUTCDate(), daysInMonth(year, month));
  const time =
    anchor.getTime() - Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth(), anchor.getUTCDate());
  return new Date(Date.UTC(year, month, day) + time);
}

export type Period = { index: number; start: Date; end: Date };

/** Where a subscription's periods are counted from: period `anchorPeriod` starts at `anchor`. */
export type Anchored = { anchor: Date; interval: BillingInterval; anchorPeriod: number };

/** The start of period `n` (the end of period `n − 1`) of a subscription counted from `anchored`. */
export function boundary({ anchor, interval, anchorPeriod }: Anchored, n: number): Date {
  return addIntervals(anchor, interval, n - anchorPeriod);
}

/** The period that holds `at` (`start` ≤ `at` < `end`); index 0 is the first, from the anchor. */
export function periodAt(anchor: Date, interval: BillingInterval, at: Date): Period {
  const months =
    (at.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + at.getUTCMonth() - anchor.getUTCMonth();
  let index = interval === "year" ? Math.floor(months / 12) : months;
  // The estimate from calendar months is off by at most one either way (day and time of day).
  while (index > 0 && addIntervals(anchor, interval, index) > at) index--;
  while (addIntervals(anchor, interval, index + 1) <= at) index++;
  index = Math.max(0, index);
  return {
    index,
    start: addIntervals(anchor, interval, index),
    end: addIntervals(anchor, interval, index + 1),
  };
}

/**
 * `amount` × `part` / `whole` in whole cents, rounded down (`"down"`) or up (`"up"`). Exact for any
 * amount and duration (BigInt), so no float decides a cent.
 */
function share(amount: number, part: number, whole: number, rounding: "down" | "up"): number {
  const numerator = BigInt(amount) * BigInt(part);
  const denominator = BigInt(whole);
  const quotient = numerator / denominator;
  return Number(rounding === "up" && numerator % denominator !== 0n ? quotient + 1n : quotient);
}

export const subscriptionChangeKinds = ["now", "restart", "at_period_end"] as const;
export type SubscriptionChangeKind = (typeof subscriptionChangeKinds)[number];

/** What a change of plan or seats does, shown to the buyer before it is made. */
export type ChangePreview = {
  /**
   * `now`: charged at once for the rest of the current period, which keeps its end; `restart`: a new
   * period starts now (monthly to yearly), the old one's unused part credited; `at_period_end`: nothing
   * is charged or refunded now, the change takes effect when the current period ends.
   */
  kind: SubscriptionChangeKind;
  /** The unused part of the current period at the old price, rounded down. */
  creditCents: number;
  /** What the new plan costs from now to `periodEnd`, rounded up. */
  chargeCents: number;
  /** `chargeCents` − `creditCents` (never below 0), before tax: what is charged at once. */
  dueCents: number;
  /** When the period the change falls in (or the one it starts) ends. */
  periodEnd: Date;
  /** What each later period costs. */
  nextPeriodCents: number;
};

/**
 * What changing from `current` to `next` at `at` (inside `period`) costs. Two changes take effect at once:
 * - within the same interval, one that costs more per period (a dearer plan, more seats): it charges the
 *   rest of the period at the new price (rounded up) less the rest at the old one (rounded down), and
 *   the period keeps its end;
 * - from monthly to yearly: a yearly period starts now, charged in full less the monthly period's unused
 *   part (rounded down; a credit larger than the year is not paid out).
 * Anything else (fewer seats, a cheaper plan, yearly to monthly) waits for the period's end, with no
 * refund of unused time. Every rounding goes against the change, so no sequence of changes gives
 * service that was not paid for.
 */
export function previewChange(current: Billed, next: Billed, period: Period, at: Date): ChangePreview {
  const length = period.end.getTime() - period.start.getTime();
  const left = period.end.getTime() - at.getTime();
  if (left <= 0 || at < period.start) throw new RangeError("The change must fall inside the period");
  const nextPeriodCents = periodCents(next);
  const upgrade =
    next.plan.interval === current.plan.interval
      ? nextPeriodCents > periodCents(current)
      : next.plan.interval === "year";
  if (!upgrade) {
    return {
      kind: "at_period_end",
      creditCents: 0,
      chargeCents: 0,
      dueCents: 0,
      periodEnd: period.end,
      nextPeriodCents,
    };
  }
  const creditCents = share(periodCents(current), left, length, "down");
  if (next.plan.interval === current.plan.interval) {
    const chargeCents = share(nextPeriodCents, left, length, "up");
    return {
      kind: "now",
      creditCents,
      chargeCents,
      dueCents: chargeCents - creditCents,
      periodEnd: period.end,
      nextPeriodCents,
    };
  }
  // Monthly to yearly.
  const periodEnd = addIntervals(at, next.plan.interval, 1);
  const dueCents = Math.max(0, nextPeriodCents - creditCents);
  return { kind: "restart", creditCents, chargeCents: nextPeriodCents, dueCents, periodEnd, nextPeriodCents };
}

/** Days after a failed renewal on which it is tried again, unless configured otherwise. */
export const DEFAULT_RETRY_DAYS: readonly number[] = [1, 3, 5, 7];

/**
 * When the renewal that failed at `failedAt` is tried again: one moment per entry of `retryDays`
 * (days after the first failure, ascending). After the last, the subscription ends.
 */
export function retryTimes(failedAt: Date, retryDays: readonly number[] = DEFAULT_RETRY_DAYS): Date[] {
  return retryDays.map((days) => new Date(failedAt.getTime() + days * DAY_MS));
}

/** Days before a yearly renewal on which the buyer is reminded of it. */
export const YEARLY_RENEWAL_NOTICE_DAYS: readonly number[] = [30, 7];

/**
 * How many of a yearly renewal's notices (`YEARLY_RENEWAL_NOTICE_DAYS`) have come by `now` for the
 * renewal due at `dueAt`: the renewal job sends one when this is more than it has sent (only the latest,
 * when it first looks after two have come) and records this count.
 */
export function yearlyNoticesDue(dueAt: Date, now: Date): number {
  if (dueAt <= now) return 0;
  return YEARLY_RENEWAL_NOTICE_DAYS.filter((days) => dueAt.getTime() - days * DAY_MS <= now.getTime()).length;
}

/**
 * The least notice of a price change, in days, before the first renewal at the new price: 30 for a
 * yearly plan, 7 for a monthly one.
 */
export function priceChangeNoticeDays(interval: BillingInterval): number {
  return interval === "year" ? 30 : 7;
}

/**
 * The first renewal a price change announced at `noticeAt` may apply to: the first period boundary at
 * least the notice period after it. Subscribers renewing before then keep the old price for that renewal.
 */
export function firstRenewalAtNewPrice(anchor: Date, interval: BillingInterval, noticeAt: Date): Date {
  const earliest = new Date(noticeAt.getTime() + priceChangeNoticeDays(interval) * DAY_MS);
  const { start, end } = periodAt(anchor, interval, earliest);
  return start.getTime() === earliest.getTime() ? start : end;
}

/** The least time between India's pre-debit notice of a recurring card charge and the charge (RBI). */
export const PRE_DEBIT_NOTICE_MS = 24 * 60 * 60 * 1000;

/** The earliest moment a charge may be made after its pre-debit notice was sent at `sentAt`. */
export function earliestChargeAfterNotice(sentAt: Date): Date {
  return new Date(sentAt.getTime() + PRE_DEBIT_NOTICE_MS);
}

/**
 * The billing interval a product's pricing unit sells by, or null for a product sold once (one-time,
 * or by use: use-based billing is metered, not renewed). Per user per month is monthly, with the cart's
 * quantity as its seats.
 */
export function recurringIntervalOf(unit: PricingUnit | null): BillingInterval | null {
  if (unit === "month" || unit === "user_month") return "month";
  if (unit === "year" || unit === "user_year") return "year";
  return null;
}

/** Whether a recurring pricing unit is priced per seat (per user). */
export function isPerSeatUnit(unit: PricingUnit | null): boolean {
  return unit === "user_month" || unit === "user_year";
}

/** The pricing unit a plan's price reads in ("$9 / user / month"). */
export function planUnit(plan: { interval: BillingInterval; perSeat: boolean }): PricingUnit {
  if (plan.interval === "year") return plan.perSeat ? "user_year" : "year";
  return plan.perSeat ? "user_month" : "month";
}

/**
 * When a trial of `days` days started at `start` ends: that many whole days later. Its first period
 * is anchored there, so the first charge falls on the day the trial ends and every renewal after it on
 * the same day of the month.
 */
export function trialEndsAt(start: Date, days: number): Date {
  return new Date(start.getTime() + days * DAY_MS);
}

/**
 * How long after a metered subscription's period ends its seller may still report use of it (decision
 * 0029): late records inside this grace count in the period they belong to, later ones are refused. The
 * period is rated, and its renewal invoiced, once it has passed.
 */
export const USAGE_GRACE_MS = 60 * 60 * 1000;

/**
 * A subscription as its buyer sees it: `active` (paid through the current period, renewing),
 * `cancelling` (paid through the current period, ending at its end), `past_due` (a renewal is unpaid
 * after its due date: the licences keep working until the last reminder), `ended`.
 */
export const subscriptionStatuses = ["trialing", "active", "cancelling", "past_due", "ended"] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

/**
 * What a subscription's status is read from. A trial has no period paid (`periodsPaid` 0) and is "paid
 * through" its end, when its first period starts.
 */
export type StatusFacts = {
  /** A metered subscription's last period is rated an hour after it ends (`USAGE_GRACE_MS`): not past due before. */
  meterUnit?: string | null;
  endedAt: Date | null;
  cancelAtPeriodEnd: boolean;
  paidThrough: Date;
  periodsPaid: number;
  trialEndsAt: Date | null;
};

/**
 * How a subscription reads at `now` (see `subscriptionStatuses`): `trialing` until its trial ends, unless
 * cancelled, which reads `cancelling` and ends with the trial at no cost. One cancelled for its period's
 * end reads ended once that end has come, before the renewal job has recorded it.
 */
export function subscriptionStatusAt(
  { endedAt, cancelAtPeriodEnd, paidThrough, periodsPaid, trialEndsAt, meterUnit }: StatusFacts,
  now: Date,
): SubscriptionStatus {
  if (endedAt || (cancelAtPeriodEnd && paidThrough <= now)) return "ended";
  if (paidThrough.getTime() + (meterUnit ? USAGE_GRACE_MS : 0) <= now.getTime()) return "past_due";
  if (cancelAtPeriodEnd) return "cancelling";
  return periodsPaid === 0 && trialEndsAt ? "trialing" : "active";
}

/**
 * The unit price a renewal falling due at `dueAt` is charged: the announced new price once its
 * notice has run (`priceChangeAt`), the agreed one before.
 */
export function unitPriceDue(
  s: { unitPrice: string; nextUnitPrice: string | null; priceChangeAt: Date | null },
  dueAt: Date,
): string {
  return s.nextUnitPrice !== null && s.priceChangeAt !== null && dueAt >= s.priceChangeAt
    ? s.nextUnitPrice
    : s.unitPrice;
}

/** Why a subscription ended: its buyer cancelled it, or its renewal stayed unpaid past the last reminder. */
export const subscriptionEndReasons = ["cancelled", "unpaid"] as const;
export type SubscriptionEndReason = (typeof subscriptionEndReasons)[number];

/**
 * How long before a renewal falls due its order is made and the buyer asked to pay it: three days for a
 * monthly subscription, fourteen for a yearly one (a company's payment run needs the time). The first
 * period after a free trial takes the month's lead whatever its interval, so a trial is not billed while
 * it is being tried.
 */
export const RENEWAL_INVOICE_LEAD_DAYS: Readonly<Record<BillingInterval, number>> = { month: 3, year: 14 };

/** When the renewal falling due at `dueAt` is invoiced. */
export function renewalInvoiceAt(dueAt: Date, interval: BillingInterval): Date {
  return new Date(dueAt.getTime() - RENEWAL_INVOICE_LEAD_DAYS[interval] * DAY_MS);
}

/**
 * When an unpaid renewal that fell due at `dueAt` ends its subscription: at its last reminder. Until
 * then the subscription is past due and its licences keep working.
 */
export function unpaidRenewalEndsAt(dueAt: Date, retryDays: readonly number[] = DEFAULT_RETRY_DAYS): Date {
  return retryTimes(dueAt, retryDays).at(-1) ?? dueAt;
}
