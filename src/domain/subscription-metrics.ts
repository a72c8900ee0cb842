/**
 * The subscription figures sellers and admins read (decision 0027): how many subscriptions are active,
 * cancelling and past due, their monthly recurring revenue (MRR) and how it moved this month, and when
 * a past-due renewal is reminded next. Pure functions of the subscriptions' facts and a moment `now`.
 *
 * - MRR is before tax (tax is collected for the tax authority, not earned) and counts every subscription
 *   not ended: active, cancelling (until its paid period ends) and past due (until its last reminder
 *   ends it). A monthly subscription counts its period's amount (unit price × quantity to the cent, as
 *   its renewal is invoiced), a yearly one a twelfth of it.
 * - Exact: amounts are summed in twelfths of a money unit (1/120,000 USD), in which a twelfth of any
 *   yearly amount is whole, so no sum is rounded. Each figure is rounded once, half up, to a unit
 *   (1/10,000 USD) when it is written as a 4-decimal string: a yearly $120 counts 10.0000, a yearly $100
 *   8.3333, two of them 16.6667.
 * - The month is the calendar month of `now` in UTC. Its movement adds up exactly before rounding:
 *   MRR now = MRR at the month's start + new + expansion − contraction − churned.
 * - Expansion and contraction are the changes of monthly amount of subscriptions whose terms changed
 *   this month (a change of plan or seats applied): from the terms before the month's first change to
 *   the terms now.
 */

import { fromUnits, lineTotal, toUnits } from "#domain/money";
import {
  type BillingInterval,
  DEFAULT_RETRY_DAYS,
  retryTimes,
  type SubscriptionEndReason,
  subscriptionStatusAt,
} from "#domain/subscriptions";

/** What a subscription charges a period: the terms agreed when it started (or last changed). */
export type SubscriptionTerms = { interval: BillingInterval; unitPrice: string; quantity: number };

/** What the figures are computed from, one per subscription. */
export type SubscriptionFacts = SubscriptionTerms & {
  /** Its anchor: when it started. */
  startedAt: Date;
  /** When it ended (never after `now`); null while it has not. */
  endedAt: Date | null;
  endReason: SubscriptionEndReason | null;
  /** The end of the last period paid for. */
  paidThrough: Date;
  cancelAtPeriodEnd: boolean;
  /** Periods paid: none while a free trial runs, or when it ended without converting. */
  periodsPaid: number;
  /** When its free trial ends (its first period starts); null without a trial. */
  trialEndsAt: Date | null;
  /**
   * The terms it had when this month started (or when it started, if later), when a change of plan or
   * seats has changed them since; null when they are the ones above.
   */
  termsAtMonthStart: SubscriptionTerms | null;
};

/** How many subscriptions are in each state at `now`, and how many ended this month. */
export type SubscriptionCounts = {
  active: number;
  cancelling: number;
  pastDue: number;
  endedThisMonth: number;
  /** Of those that ended this month, the ones whose renewal stayed unpaid. */
  endedUnpaidThisMonth: number;
  /** Free trials running at `now`. */
  trialing: number;
  /** Trials that ended this month: converted (their first period paid), or not (ended unpaid or cancelled). */
  trialsConvertedThisMonth: number;
  trialsLostThisMonth: number;
};

/** The figures with every amount in twelfths of a money unit, exact. */
export type ExactFigures = SubscriptionCounts & {
  monthStart: Date;
  mrr: bigint;
  mrrAtMonthStart: bigint;
  newMrr: bigint;
  expansionMrr: bigint;
  contractionMrr: bigint;
  churnedMrr: bigint;
};

/** The figures as the API answers them: amounts in USD as 4-decimal strings, the month's start in ISO. */
export type SubscriptionFigures = SubscriptionCounts & {
  monthStart: string;
  mrr: string;
  mrrAtMonthStart: string;
  newMrr: string;
  expansionMrr: string;
  contractionMrr: string;
  churnedMrr: string;
};

/** The first moment of `now`'s calendar month, in UTC. */
export function monthStartOf(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/** What one period of these terms costs before tax, in money units: unit price × quantity to the cent. */
export function periodUnits(terms: SubscriptionTerms): number {
  return toUnits(lineTotal(terms.unitPrice, terms.quantity));
}

/** What these terms bring in a month, in twelfths of a money unit: exact for a yearly period too. */
export function monthlyTwelfths(terms: SubscriptionTerms): bigint {
  const units = BigInt(periodUnits(terms));
  return terms.interval === "year" ? units : units * 12n;
}

/** An amount in twelfths of a unit as USD with 4 decimals, rounded half up (away from zero) to the unit. */
export function writeTwelfths(twelfths: bigint): string {
  const magnitude = twelfths < 0n ? -twelfths : twelfths;
  const units = (magnitude * 2n + 12n) / 24n;
  return fromUnits(Number(twelfths < 0n ? -units : units));
}

/** What these terms bring in a month, in USD with 4 decimals (a yearly period's twelfth, rounded once). */
export function monthlyAmount(terms: SubscriptionTerms): string {
  return writeTwelfths(monthlyTwelfths(terms));
}

/**
 * When a subscription stops counting: when it ended, or, for one cancelled for its period's end, that
 * end once it has come (before the renewal job records it); null while it goes on.
 */
function endOf(facts: SubscriptionFacts, now: Date): Date | null {
  if (facts.endedAt) return facts.endedAt;
  return facts.cancelAtPeriodEnd && facts.paidThrough <= now ? facts.paidThrough : null;
}

/**
 * The figures at `now`, exact. Over the month that holds `now` (from its first moment M):
 * - MRR: the subscriptions started by `now` and not ended by then, at their terms now;
 * - MRR at the month's start: those started before M and not ended before M, at their terms then;
 * - new: those started in the month, at the terms they started with;
 * - expansion and contraction: the rise and fall of the monthly amount of each subscription that counted
 *   at some time in the month, from its terms at M (or at its start) to its terms now;
 * - churned: those that ended in the month, at their last terms.
 * A subscription that started after `now` counts nowhere.
 */
export function measureSubscriptions(facts: readonly SubscriptionFacts[], now: Date): ExactFigures {
  const monthStart = monthStartOf(now);
  const figures: ExactFigures = {
    monthStart,
    active: 0,
    cancelling: 0,
    pastDue: 0,
    endedThisMonth: 0,
    endedUnpaidThisMonth: 0,
    trialing: 0,
    trialsConvertedThisMonth: 0,
    trialsLostThisMonth: 0,
    mrr: 0n,
    mrrAtMonthStart: 0n,
    newMrr: 0n,
    expansionMrr: 0n,
    contractionMrr: 0n,
    churnedMrr: 0n,
  };
  for (const subscription of facts) {
    if (subscription.startedAt > now) continue;
    const end = endOf(subscription, now);
    const { trialEndsAt } = subscription;
    if (trialEndsAt && trialEndsAt >= monthStart && trialEndsAt <= now) {
      if (subscription.periodsPaid > 0) figures.trialsConvertedThisMonth++;
      else if (end !== null) figures.trialsLostThisMonth++;
    }
    // A subscription no period of which is paid (a trial, or a first invoice still unpaid) brings no revenue.
    if (subscription.periodsPaid === 0) {
      if (end === null || end > now) {
        const status = subscriptionStatusAt(subscription, now);
        if (status === "trialing") figures.trialing++;
        else if (status === "past_due") figures.pastDue++;
        else if (status === "cancelling") figures.cancelling++;
      }
      continue;
    }
    const current = monthlyTwelfths(subscription);
    const earlier = subscription.termsAtMonthStart
      ? monthlyTwelfths(subscription.termsAtMonthStart)
      : current;
    // A converted trial's revenue starts with its first period.
    const startedThisMonth = (trialEndsAt ?? subscription.startedAt) >= monthStart;
    const countedAtMonthStart = !startedThisMonth && (end === null || end >= monthStart);
    if (countedAtMonthStart) figures.mrrAtMonthStart += earlier;
    if (startedThisMonth) figures.newMrr += earlier;
    if (countedAtMonthStart || startedThisMonth) {
      if (current > earlier) figures.expansionMrr += current - earlier;
      else figures.contractionMrr += earlier - current;
    }
    if (end !== null && end >= monthStart && end <= now) {
      figures.churnedMrr += current;
      figures.endedThisMonth++;
      if (subscription.endReason === "unpaid") figures.endedUnpaidThisMonth++;
    }
    if (end === null || end > now) {
      figures.mrr += current;
      const status = subscriptionStatusAt(subscription, now);
      if (status === "active") figures.active++;
      else if (status === "cancelling") figures.cancelling++;
      else if (status === "past_due") figures.pastDue++;
    }
  }
  return figures;
}

/** The figures at `now` as the API answers them (see `measureSubscriptions`; each amount rounded once). */
export function subscriptionFigures(facts: readonly SubscriptionFacts[], now: Date): SubscriptionFigures {
  const exact = measureSubscriptions(facts, now);
  return {
    monthStart: exact.monthStart.toISOString(),
    active: exact.active,
    cancelling: exact.cancelling,
    pastDue: exact.pastDue,
    endedThisMonth: exact.endedThisMonth,
    endedUnpaidThisMonth: exact.endedUnpaidThisMonth,
    trialing: exact.trialing,
    trialsConvertedThisMonth: exact.trialsConvertedThisMonth,
    trialsLostThisMonth: exact.trialsLostThisMonth,
    mrr: writeTwelfths(exact.mrr),
    mrrAtMonthStart: writeTwelfths(exact.mrrAtMonthStart),
    newMrr: writeTwelfths(exact.newMrr),
    expansionMrr: writeTwelfths(exact.expansionMrr),
    contractionMrr: writeTwelfths(exact.contractionMrr),
    churnedMrr: writeTwelfths(exact.churnedMrr),
  };
}

/**
 * When an unpaid renewal that fell due at `dueAt` is reminded next, after `remindersSent` reminders:
 * the renewal job reminds on each retry day but the last, on which the subscription ends instead
 * (`unpaidRenewalEndsAt`); null when no reminder is left. A moment already past means the job has not
 * yet sent that day's reminder.
 */
export function nextReminderAt(
  dueAt: Date,
  remindersSent: number,
  retryDays: readonly number[] = DEFAULT_RETRY_DAYS,
): Date | null {
  return retryTimes(dueAt, retryDays).slice(0, -1)[remindersSent] ?? null;
}
