import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { DAY_MS } from "#domain/dates";
import {
  measureSubscriptions,
  monthlyAmount,
  monthlyTwelfths,
  monthStartOf,
  nextReminderAt,
  type SubscriptionFacts,
  type SubscriptionTerms,
  subscriptionFigures,
  writeTwelfths,
} from "#domain/subscription-metrics";
import { addIntervals, subscriptionStatusAt, unpaidRenewalEndsAt } from "#domain/subscriptions";

const at = (iso: string) => new Date(iso);
const now = at("2027-03-20T12:00:00Z");

/** A subscription started at `startedAt`, paid through its first period, going on. */
function subscription(
  terms: Partial<SubscriptionTerms> & { startedAt: Date },
  rest: Partial<SubscriptionFacts> = {},
): SubscriptionFacts {
  const interval = terms.interval ?? "month";
  return {
    interval,
    unitPrice: terms.unitPrice ?? "9.0000",
    quantity: terms.quantity ?? 1,
    startedAt: terms.startedAt,
    endedAt: null,
    endReason: null,
    paidThrough: addIntervals(terms.startedAt, interval, 1),
    cancelAtPeriodEnd: false,
    periodsPaid: 1,
    trialEndsAt: null,
    termsAtMonthStart: null,
    ...rest,
  };
}

describe("monthly amounts", () => {
  test("a monthly plan counts its period; seats multiply it to the cent; a yearly plan counts a twelfth", () => {
    expect(monthlyAmount({ interval: "month", unitPrice: "9.0000", quantity: 1 })).toBe("9.0000");
    expect(monthlyAmount({ interval: "month", unitPrice: "4.5000", quantity: 5 })).toBe("22.5000");
    // A sub-cent unit price: the period is invoiced to the cent, so it counts to the cent.
    expect(monthlyAmount({ interval: "month", unitPrice: "0.0050", quantity: 3 })).toBe("0.0200");
    expect(monthlyAmount({ interval: "year", unitPrice: "120.0000", quantity: 1 })).toBe("10.0000");
    expect(monthlyAmount({ interval: "year", unitPrice: "99.0000", quantity: 1 })).toBe("8.2500");
    // 100 / 12 = 8.3333…, rounded once to the ten-thousandth; 200 / 12 = 16.666… rounds up.
    expect(monthlyAmount({ interval: "year", unitPrice: "100.0000", quantity: 1 })).toBe("8.3333");
    expect(monthlyAmount({ interval: "year", unitPrice: "100.0000", quantity: 2 })).toBe("16.6667");
  });

  test("twelfths are exact: a yearly amount's twelfth times twelve is the year, whatever the price", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 1, max: 99 }),
        (cents, quantity) => {
          const unitPrice = (cents / 100).toFixed(2);
          const yearly = monthlyTwelfths({ interval: "year", unitPrice, quantity });
          const monthly = monthlyTwelfths({ interval: "month", unitPrice, quantity });
          expect(yearly * 12n).toBe(monthly);
          expect(BigInt(cents) * BigInt(quantity) * 100n * 12n).toBe(monthly);
        },
      ),
    );
  });

  test("writing rounds half up to the ten-thousandth, once", () => {
    expect(writeTwelfths(0n)).toBe("0.0000");
    expect(writeTwelfths(5n)).toBe("0.0000");
    expect(writeTwelfths(6n)).toBe("0.0001");
    expect(writeTwelfths(18n)).toBe("0.0002");
    expect(writeTwelfths(-6n)).toBe("-0.0001");
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), (twelfths) => {
        const written = BigInt(writeTwelfths(twelfths).replace(".", ""));
        // |written − exact| ≤ half a unit, in twelfths: |12 × written − twelfths| ≤ 6.
        const off = written * 12n - twelfths;
        expect(off <= 6n && off > -6n).toBe(true);
      }),
    );
  });
});

describe("figures at a moment", () => {
  const monthStart = monthStartOf(now);

  test("the month starts on its first day at midnight UTC", () => {
    expect(monthStart).toEqual(at("2027-03-01T00:00:00Z"));
    expect(monthStartOf(at("2027-03-01T00:00:00Z"))).toEqual(monthStart);
    expect(monthStartOf(at("2027-02-28T23:59:59.999Z"))).toEqual(at("2027-02-01T00:00:00Z"));
  });

  test("counts each state, MRR of what goes on, and the month's new and churned amounts", () => {
    const facts: SubscriptionFacts[] = [
      // Active since last year: counted at the month's start and now.
      subscription({ startedAt: at("2026-11-05T10:00:00Z") }, { paidThrough: at("2027-04-05T10:00:00Z") }),
      // New this month, yearly: a twelfth of $120.
      subscription({ startedAt: at("2027-03-02T08:00:00Z"), interval: "year", unitPrice: "120" }),
      // New this month, five seats at $4.50, cancelled for its period's end (April): still counts.
      subscription(
        { startedAt: at("2027-03-10T08:00:00Z"), unitPrice: "4.5", quantity: 5 },
        { cancelAtPeriodEnd: true },
      ),
      // Past due since the 15th: still counts until it ends.
      subscription({ startedAt: at("2027-02-15T09:00:00Z"), unitPrice: "30" }),
      // Ended unpaid on the 8th: churned this month.
      subscription(
        { startedAt: at("2027-01-01T09:00:00Z"), unitPrice: "50" },
        {
          paidThrough: at("2027-03-01T09:00:00Z"),
          endedAt: at("2027-03-08T09:00:00Z"),
          endReason: "unpaid",
        },
      ),
      // Cancelled for its period's end on the 12th, not yet recorded by the job: churned this month too.
      subscription(
        { startedAt: at("2027-02-12T07:00:00Z"), unitPrice: "20" },
        { paidThrough: at("2027-03-12T07:00:00Z"), cancelAtPeriodEnd: true },
      ),
      // Ended last month: in nothing.
      subscription(
        { startedAt: at("2026-12-01T09:00:00Z"), unitPrice: "1000" },
        { endedAt: at("2027-02-20T09:00:00Z"), endReason: "cancelled" },
      ),
      // Starts after `now` (a clock that moved back): in nothing.
      subscription({ startedAt: at("2027-03-21T09:00:00Z"), unitPrice: "1000" }),
    ];
    expect(subscriptionFigures(facts, now)).toEqual({
      monthStart: "2027-03-01T00:00:00.000Z",
      active: 2,
      cancelling: 1,
      pastDue: 1,
      endedThisMonth: 2,
      endedUnpaidThisMonth: 1,
      trialing: 0,
      trialsConvertedThisMonth: 0,
      trialsLostThisMonth: 0,
      // 9 + 10 + 22.50 + 30
      mrr: "71.5000",
      // 9 + 30 + 50 + 20
      mrrAtMonthStart: "109.0000",
      newMrr: "32.5000",
      expansionMrr: "0.0000",
      contractionMrr: "0.0000",
      churnedMrr: "70.0000",
    });
  });

  test("a subscription that starts and ends in the month is new and churned; MRR does not count it", () => {
    const facts = [
      subscription(
        { startedAt: at("2027-03-02T08:00:00Z"), unitPrice: "15" },
        { endedAt: at("2027-03-05T08:00:00Z"), endReason: "cancelled" },
      ),
    ];
    expect(subscriptionFigures(facts, now)).toMatchObject({
      mrr: "0.0000",
      newMrr: "15.0000",
      churnedMrr: "15.0000",
      endedThisMonth: 1,
      endedUnpaidThisMonth: 0,
      active: 0,
    });
  });

  test("three yearly $100 plans are 25.0000, not three roundings of 8.3333", () => {
    const yearly = (day: string) =>
      subscription({ startedAt: at(`2027-03-${day}T08:00:00Z`), interval: "year", unitPrice: "100" });
    expect(subscriptionFigures([yearly("02"), yearly("03"), yearly("04")], now)).toMatchObject({
      mrr: "25.0000",
      newMrr: "25.0000",
    });
  });

  test("a change of terms in the month is expansion or contraction, not new or churned", () => {
    const upgraded = subscription(
      { startedAt: at("2027-01-10T08:00:00Z"), unitPrice: "10", quantity: 3 },
      {
        paidThrough: at("2027-04-10T08:00:00Z"),
        termsAtMonthStart: { interval: "month", unitPrice: "10", quantity: 1 },
      },
    );
    const downgraded = subscription(
      { startedAt: at("2027-01-10T08:00:00Z"), interval: "year", unitPrice: "120" },
      {
        paidThrough: at("2028-01-10T08:00:00Z"),
        termsAtMonthStart: { interval: "month", unitPrice: "20", quantity: 1 },
      },
    );
    expect(subscriptionFigures([upgraded, downgraded], now)).toMatchObject({
      mrrAtMonthStart: "30.0000",
      mrr: "40.0000",
      newMrr: "0.0000",
      expansionMrr: "20.0000",
      contractionMrr: "10.0000",
      churnedMrr: "0.0000",
    });
  });

  test("a trial brings nothing until it converts; then it is new MRR from its first period; a lost one never counted", () => {
    const trialing = subscription(
      { startedAt: at("2027-03-15T00:00:00Z") },
      { periodsPaid: 0, trialEndsAt: at("2027-03-29T00:00:00Z"), paidThrough: at("2027-03-29T00:00:00Z") },
    );
    // Started in February on a 14-day trial, converted on 8 March: new this month.
    const converted = subscription(
      { startedAt: at("2027-02-22T00:00:00Z"), unitPrice: "20.0000" },
      { trialEndsAt: at("2027-03-08T00:00:00Z"), paidThrough: at("2027-04-08T00:00:00Z") },
    );
    // Cancelled during its trial, which ended on 10 March.
    const lost = subscription(
      { startedAt: at("2027-02-24T00:00:00Z") },
      {
        periodsPaid: 0,
        trialEndsAt: at("2027-03-10T00:00:00Z"),
        paidThrough: at("2027-03-10T00:00:00Z"),
        endedAt: at("2027-03-10T00:00:00Z"),
        endReason: "cancelled",
      },
    );
    expect(subscriptionFigures([trialing, converted, lost], now)).toMatchObject({
      active: 1,
      trialing: 1,
      trialsConvertedThisMonth: 1,
      trialsLostThisMonth: 1,
      endedThisMonth: 0,
      mrr: "20.0000",
      mrrAtMonthStart: "0.0000",
      newMrr: "20.0000",
      churnedMrr: "0.0000",
    });
  });

  test("nothing at all is all zeros", () => {
    expect(subscriptionFigures([], now)).toMatchObject({
      active: 0,
      cancelling: 0,
      pastDue: 0,
      endedThisMonth: 0,
      mrr: "0.0000",
      churnedMrr: "0.0000",
    });
  });
});

describe("properties", () => {
  const terms = fc.record({
    interval: fc.constantFrom("month" as const, "year" as const),
    unitPrice: fc.integer({ min: 0, max: 5_000_000 }).map((units) => (units / 10_000).toFixed(4)),
    quantity: fc.integer({ min: 1, max: 99 }),
  });
  const moment = (min: string, max: string) => fc.date({ min: at(min), max: at(max), noInvalidDate: true });
  /** Any subscription as the database can hold one at `now`: started, paid for, maybe ended by `now`. */
  const facts = (now: Date) =>
    fc
      .record({
        terms,
        startedAt: moment("2024-01-01T00:00:00Z", "2027-12-31T00:00:00Z"),
        periodsPaid: fc.integer({ min: 1, max: 30 }),
        cancelAtPeriodEnd: fc.boolean(),
        ended: fc.option(
          fc.tuple(
            fc.integer({ min: 0, max: 400 * DAY_MS }),
            fc.constantFrom("cancelled" as const, "unpaid" as const),
          ),
        ),
        changed: fc.option(terms),
      })
      .map(({ terms, startedAt, periodsPaid, cancelAtPeriodEnd, ended, changed }): SubscriptionFacts => {
        const endedAt = ended ? new Date(Math.min(startedAt.getTime() + ended[0], now.getTime())) : null;
        return {
          ...terms,
          startedAt,
          paidThrough: addIntervals(startedAt, terms.interval, periodsPaid),
          periodsPaid,
          trialEndsAt: null,
          cancelAtPeriodEnd,
          endedAt: endedAt && endedAt >= startedAt ? endedAt : null,
          endReason: endedAt && endedAt >= startedAt ? (ended?.[1] ?? null) : null,
          termsAtMonthStart: changed,
        };
      });
  const world = moment("2025-01-01T00:00:00Z", "2027-12-31T00:00:00Z").chain((now) =>
    fc.tuple(fc.constant(now), fc.array(facts(now), { maxLength: 40 })),
  );

  test("MRR now is MRR at the month's start plus new and expansion, less contraction and churn, exactly", () => {
    fc.assert(
      fc.property(world, ([now, all]) => {
        const f = measureSubscriptions(all, now);
        expect(f.mrr).toBe(f.mrrAtMonthStart + f.newMrr + f.expansionMrr - f.contractionMrr - f.churnedMrr);
        // Written, each figure is within half a unit of its exact value, so they agree to 3 units.
        const written = subscriptionFigures(all, now);
        const units = (text: string) => Math.round(Number(text) * 10_000);
        const drift =
          units(written.mrrAtMonthStart) +
          units(written.newMrr) +
          units(written.expansionMrr) -
          units(written.contractionMrr) -
          units(written.churnedMrr) -
          units(written.mrr);
        expect(Math.abs(drift)).toBeLessThanOrEqual(3);
      }),
    );
  });

  test("MRR is the sum of the monthly amounts of what goes on, and the counts are its subscriptions by state", () => {
    fc.assert(
      fc.property(world, ([now, all]) => {
        const f = measureSubscriptions(all, now);
        const live = all.filter((s) => s.startedAt <= now && subscriptionStatusAt(s, now) !== "ended");
        expect(f.mrr).toBe(live.reduce((sum, s) => sum + monthlyTwelfths(s), 0n));
        expect(f.active + f.cancelling + f.pastDue).toBe(live.length);
        expect(f.endedUnpaidThisMonth).toBeLessThanOrEqual(f.endedThisMonth);
        // Without changes of terms there is no expansion or contraction.
        const unchanged = all.map((s) => ({ ...s, termsAtMonthStart: null }));
        const plain = measureSubscriptions(unchanged, now);
        expect([plain.expansionMrr, plain.contractionMrr]).toEqual([0n, 0n]);
      }),
    );
  });
});

describe("the next reminder of a past-due renewal", () => {
  const dueAt = at("2027-03-10T09:00:00Z");

  test("days 1, 3 and 5 after the due date; on day 7 the subscription ends instead", () => {
    expect(nextReminderAt(dueAt, 0)).toEqual(at("2027-03-11T09:00:00Z"));
    expect(nextReminderAt(dueAt, 1)).toEqual(at("2027-03-13T09:00:00Z"));
    expect(nextReminderAt(dueAt, 2)).toEqual(at("2027-03-15T09:00:00Z"));
    expect(nextReminderAt(dueAt, 3)).toBeNull();
    expect(unpaidRenewalEndsAt(dueAt)).toEqual(at("2027-03-17T09:00:00Z"));
  });

  test("other retry days are followed the same way", () => {
    expect(nextReminderAt(dueAt, 0, [2, 4])).toEqual(at("2027-03-12T09:00:00Z"));
    expect(nextReminderAt(dueAt, 1, [2, 4])).toBeNull();
    expect(nextReminderAt(dueAt, 0, [])).toBeNull();
  });
});
