import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { DAY_MS } from "#domain/dates";
import {
  addIntervals,
  type Billed,
  earliestChargeAfterNotice,
  firstRenewalAtNewPrice,
  type PlanTerms,
  periodAt,
  periodCents,
  previewChange,
  retryTimes,
} from "#domain/subscriptions";

const at = (iso: string) => new Date(iso);
const monthly = (priceCents: number, perSeat = false): PlanTerms => ({
  interval: "month",
  priceCents,
  perSeat,
  minSeats: 1,
  maxSeats: 500,
});
const yearly = (priceCents: number): PlanTerms => ({ ...monthly(priceCents), interval: "year" });

describe("billing periods", () => {
  test("a month from the 31st is the month's last day, and the day comes back when the month is long enough", () => {
    const anchor = at("2027-01-31T09:30:00Z");
    expect(addIntervals(anchor, "month", 1)).toEqual(at("2027-02-28T09:30:00Z"));
    expect(addIntervals(anchor, "month", 2)).toEqual(at("2027-03-31T09:30:00Z"));
    expect(addIntervals(at("2028-01-31T00:00:00Z"), "month", 1)).toEqual(at("2028-02-29T00:00:00Z"));
    expect(addIntervals(at("2028-02-29T12:00:00Z"), "year", 1)).toEqual(at("2029-02-28T12:00:00Z"));
    expect(addIntervals(at("2028-02-29T12:00:00Z"), "year", 4)).toEqual(at("2032-02-29T12:00:00Z"));
    expect(addIntervals(anchor, "month", 12)).toEqual(at("2028-01-31T09:30:00Z"));
  });

  test("a year of monthly renewals is twelve periods that meet end to end", () => {
    const anchor = at("2027-03-15T08:00:00Z");
    const starts = Array.from({ length: 13 }, (_, n) => addIntervals(anchor, "month", n));
    expect(starts.at(-1)).toEqual(addIntervals(anchor, "year", 1));
    for (const [n, start] of starts.slice(0, 12).entries()) {
      expect(periodAt(anchor, "month", start)).toEqual({ index: n, start, end: starts[n + 1] });
    }
  });

  test("every moment lies in exactly one period, which starts on a boundary counted from the anchor", () => {
    fc.assert(
      fc.property(
        fc.date({ min: at("2000-01-01T00:00:00Z"), max: at("2090-01-01T00:00:00Z"), noInvalidDate: true }),
        fc.integer({ min: 0, max: 40 * 365 * DAY_MS }),
        fc.constantFrom("month" as const, "year" as const),
        (anchor, later, interval) => {
          const moment = new Date(anchor.getTime() + later);
          const { index, start, end } = periodAt(anchor, interval, moment);
          expect(start.getTime()).toBeLessThanOrEqual(moment.getTime());
          expect(end.getTime()).toBeGreaterThan(moment.getTime());
          expect(start).toEqual(addIntervals(anchor, interval, index));
          expect(end).toEqual(addIntervals(anchor, interval, index + 1));
          // The day of the month never drifts: the anchor's, or the month's last day when shorter.
          const lastDay = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
          expect(end.getUTCDate()).toBe(Math.min(anchor.getUTCDate(), lastDay));
        },
      ),
    );
  });
});

describe("what a period costs", () => {
  test("a period costs the price times the seats of a per-seat plan, or times the copies of a flat one", () => {
    expect(periodCents({ plan: monthly(4900), seats: 1 })).toBe(4900);
    expect(periodCents({ plan: monthly(4900), seats: 3 })).toBe(14700);
    expect(periodCents({ plan: monthly(1200, true), seats: 7 })).toBe(8400);
  });
});

describe("a change shows its price before it is made", () => {
  const period = { index: 0, start: at("2027-04-01T00:00:00Z"), end: at("2027-05-01T00:00:00Z") };
  const halfway = at("2027-04-16T00:00:00Z");

  test("an upgrade halfway through charges half the difference now, and the period keeps its end", () => {
    const preview = previewChange(
      { plan: monthly(1000), seats: 1 },
      { plan: monthly(3000), seats: 1 },
      period,
      halfway,
    );
    expect(preview).toEqual({
      kind: "now",
      creditCents: 500,
      chargeCents: 1500,
      dueCents: 1000,
      periodEnd: period.end,
      nextPeriodCents: 3000,
    });
  });

  test("roundings go against the change: the credit down, the charge up", () => {
    // A third of the period left: $10.00 → 333.33… credited as 333; $20.00 → 666.66… charged as 667.
    const third = new Date(period.end.getTime() - (period.end.getTime() - period.start.getTime()) / 3);
    const preview = previewChange(
      { plan: monthly(1000), seats: 1 },
      { plan: monthly(2000), seats: 1 },
      period,
      third,
    );
    expect(preview).toMatchObject({ kind: "now", creditCents: 333, chargeCents: 667, dueCents: 334 });
  });

  test("more seats is an upgrade; fewer seats, a cheaper plan or yearly to monthly wait for the period's end", () => {
    const seats = (n: number): Billed => ({ plan: monthly(1200, true), seats: n });
    expect(previewChange(seats(5), seats(8), period, halfway)).toMatchObject({ kind: "now", dueCents: 1800 });
    for (const [from, to] of [
      [seats(8), seats(5)],
      [
        { plan: monthly(3000), seats: 1 },
        { plan: monthly(1000), seats: 1 },
      ],
      [
        { plan: yearly(30000), seats: 1 },
        { plan: monthly(2500), seats: 1 },
      ],
    ] as const) {
      expect(previewChange(from, to, period, halfway)).toEqual({
        kind: "at_period_end",
        creditCents: 0,
        chargeCents: 0,
        dueCents: 0,
        periodEnd: period.end,
        nextPeriodCents: periodCents(to),
      });
    }
  });

  test("monthly to yearly starts a yearly period now, less the month's unused part", () => {
    const preview = previewChange(
      { plan: monthly(1000), seats: 1 },
      { plan: yearly(10000), seats: 1 },
      period,
      halfway,
    );
    expect(preview).toEqual({
      kind: "restart",
      creditCents: 500,
      chargeCents: 10000,
      dueCents: 9500,
      periodEnd: at("2028-04-16T00:00:00Z"),
      nextPeriodCents: 10000,
    });
  });

  test("a change outside the period is refused", () => {
    const same = { plan: monthly(1000), seats: 1 };
    expect(() => previewChange(same, same, period, period.end)).toThrow(RangeError);
    expect(() => previewChange(same, same, period, at("2027-03-31T00:00:00Z"))).toThrow(RangeError);
  });

  test("any sequence of changes in a period is paid for: never less than the service given, at most 2 cents more per change", () => {
    const plans = [monthly(900), monthly(2900), monthly(9900), monthly(1200, true), monthly(450, true)];
    const change = fc.record({
      plan: fc.constantFrom(...plans),
      seats: fc.integer({ min: 1, max: 50 }),
      gap: fc.integer({ min: 1, max: 5 * DAY_MS }),
    });
    fc.assert(
      fc.property(
        fc.constantFrom(...plans),
        fc.integer({ min: 1, max: 50 }),
        fc.array(change, { maxLength: 12 }),
        (plan, seats, changes) => {
          const length = period.end.getTime() - period.start.getTime();
          let effective: Billed = { plan, seats };
          let pending: Billed | null = null;
          let paid = periodCents(effective);
          let moment = period.start.getTime();
          // The service given, in cent-milliseconds: each stretch at the price in effect during it.
          let given = 0n;
          let made = 0;
          for (const { gap, ...next } of changes) {
            if (moment + gap >= period.end.getTime()) break;
            given += BigInt(periodCents(effective)) * BigInt(gap);
            moment += gap;
            made++;
            const preview = previewChange(effective, next, period, new Date(moment));
            expect(preview.dueCents).toBeGreaterThanOrEqual(0);
            if (preview.kind === "now") {
              paid += preview.dueCents;
              effective = next;
              pending = null;
            } else {
              pending = next;
            }
          }
          given += BigInt(periodCents(effective)) * BigInt(period.end.getTime() - moment);
          const paidTimesLength = BigInt(paid) * BigInt(length);
          expect(paidTimesLength >= given).toBe(true);
          expect(paidTimesLength - given <= BigInt(2 * made) * BigInt(length)).toBe(true);
          // What is pending takes over at the end; it was never charged for this period.
          expect(pending === null || periodCents(pending) >= 0).toBe(true);
        },
      ),
    );
  });
});

describe("retries and notices", () => {
  test("a failed renewal is tried again on days 1, 3, 5 and 7, or as configured", () => {
    const failed = at("2027-06-10T04:00:00Z");
    expect(retryTimes(failed).map((d) => d.toISOString())).toEqual([
      "2027-06-11T04:00:00.000Z",
      "2027-06-13T04:00:00.000Z",
      "2027-06-15T04:00:00.000Z",
      "2027-06-17T04:00:00.000Z",
    ]);
    expect(retryTimes(failed, [2])).toEqual([at("2027-06-12T04:00:00Z")]);
  });

  test("a new price reaches a renewal only after 7 days' notice (monthly) or 30 (yearly)", () => {
    const anchor = at("2027-01-10T00:00:00Z");
    // Announced on 5 March: 12 March is the earliest, so the 10 April renewal is the first at the new price.
    expect(firstRenewalAtNewPrice(anchor, "month", at("2027-03-05T00:00:00Z"))).toEqual(
      at("2027-04-10T00:00:00Z"),
    );
    // Announced on 1 March: 8 March, so 10 March already.
    expect(firstRenewalAtNewPrice(anchor, "month", at("2027-03-01T00:00:00Z"))).toEqual(
      at("2027-03-10T00:00:00Z"),
    );
    // Yearly, announced 20 days before the renewal: that renewal keeps the old price.
    expect(firstRenewalAtNewPrice(anchor, "year", at("2027-12-21T00:00:00Z"))).toEqual(
      at("2029-01-10T00:00:00Z"),
    );
    expect(firstRenewalAtNewPrice(anchor, "year", at("2027-12-11T00:00:00Z"))).toEqual(
      at("2028-01-10T00:00:00Z"),
    );
  });

  test("a recurring card charge in India waits 24 hours after its pre-debit notice", () => {
    expect(earliestChargeAfterNotice(at("2027-06-10T04:00:00Z"))).toEqual(at("2027-06-11T04:00:00Z"));
  });
});
