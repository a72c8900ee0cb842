import { describe, expect, test } from "vitest";
import { icsFold, icsText } from "#domain/ics";
import {
  calendarByMonth,
  calendarCsv,
  calendarIcs,
  renewalCalendar,
  renewalTitle,
} from "#domain/renewal-calendar";
import type { Subscription } from "#domain/subscription-schemas";

const now = new Date("2027-01-10T12:00:00Z");

/** A desk answer: monthly, $10 a seat, one seat, no tax, anchored and paid through the given dates. */
function sub(over: Partial<Subscription> = {}): Subscription {
  return {
    id: "s1",
    productId: "p1",
    productName: "Nimbus CRM Pro",
    imageUrl: null,
    paymentMethod: null,
    vendor: "Nimbus",
    planName: null,
    planId: null,
    interval: "month",
    unitPrice: "10.0000",
    quantity: 1,
    nextTotal: "10.0000",
    priceChange: null,
    status: "active",
    startedAt: "2026-12-20T08:00:00.000Z",
    trialEndsAt: null,
    paidThrough: "2027-01-20T08:00:00.000Z",
    anchor: "2026-12-20T08:00:00.000Z",
    anchorPeriod: 0,
    pendingChange: null,
    taxRate: "0.0000",
    endsAt: null,
    endReason: null,
    due: null,
    orderId: "o1",
    licenseKeys: [],
    usage: null,
    ...over,
  };
}

describe("the renewal calendar", () => {
  test("a monthly subscription renews 12 times in the coming 12 months, every period counted from its anchor", () => {
    const renewals = renewalCalendar([sub()], now);
    expect(renewals).toHaveLength(12);
    expect(renewals[0]).toMatchObject({ dueAt: "2027-01-20T08:00:00.000Z", periodIndex: 1, overdue: false });
    expect(renewals.at(-1)).toMatchObject({ dueAt: "2027-12-20T08:00:00.000Z", periodIndex: 12 });
  });

  test("a yearly subscription renews once", () => {
    const yearly = sub({
      interval: "year",
      anchor: "2026-03-01T00:00:00.000Z",
      paidThrough: "2027-03-01T00:00:00.000Z",
      nextTotal: "120.0000",
    });
    expect(renewalCalendar([yearly], now).map((r) => [r.dueAt, r.total])).toEqual([
      ["2027-03-01T00:00:00.000Z", "120.0000"],
    ]);
  });

  test("a cancelling or ended subscription renews no more", () => {
    expect(renewalCalendar([sub({ status: "cancelling" }), sub({ status: "ended" })], now)).toEqual([]);
  });

  test("a trial's first renewal is its end, when its first period starts", () => {
    const trial = sub({
      status: "trialing",
      trialEndsAt: "2027-01-24T08:00:00.000Z",
      anchor: "2027-01-24T08:00:00.000Z",
      paidThrough: "2027-01-24T08:00:00.000Z",
    });
    const renewals = renewalCalendar([trial], now);
    expect(renewals[0]).toMatchObject({ dueAt: "2027-01-24T08:00:00.000Z", periodIndex: 0 });
    expect(renewals).toHaveLength(12);
  });

  test("a price change applies from its date on, and later renewals are taxed at the subscription's rate", () => {
    const changing = sub({
      quantity: 3,
      taxRate: "0.0500",
      nextTotal: "31.5000",
      priceChange: { unitPrice: "12.0000", from: "2027-03-20T08:00:00.000Z" },
    });
    const totals = renewalCalendar([changing], now).map((r) => [r.dueAt.slice(0, 10), r.total]);
    expect(totals.slice(0, 4)).toEqual([
      ["2027-01-20", "31.5000"],
      ["2027-02-20", "31.5000"],
      ["2027-03-20", "37.8000"],
      ["2027-04-20", "37.8000"],
    ]);
  });

  test("a change scheduled for the period's end sets the terms of every renewal from it on, counted from it", () => {
    // Yearly, paid through 20 January 2027, switching to 3 seats monthly at $12 a seat then.
    const renewals = renewalCalendar(
      [
        sub({
          interval: "year",
          unitPrice: "100.0000",
          anchor: "2026-01-20T08:00:00.000Z",
          paidThrough: "2027-01-20T08:00:00.000Z",
          pendingChange: {
            status: "scheduled",
            planName: "Monthly",
            interval: "month",
            unitPrice: "12.0000",
            quantity: 3,
            perSeat: true,
            effectiveAt: "2027-01-20T08:00:00.000Z",
            orderId: null,
          },
        }),
      ],
      now,
    );
    expect(renewals).toHaveLength(12);
    expect(
      renewals.slice(0, 3).map((r) => [r.periodIndex, r.dueAt.slice(0, 10), r.total, r.quantity]),
    ).toEqual([
      [1, "2027-01-20", "36.0000", 3],
      [2, "2027-02-20", "36.0000", 3],
      [3, "2027-03-20", "36.0000", 3],
    ]);
    expect(new Set(renewals.map((r) => r.interval))).toEqual(new Set(["month"]));
  });

  test("periods counted from a later anchor keep their numbers: the UID of a renewal does not change", () => {
    // Restarted yearly on 5 January 2027 after 4 monthly periods: its next renewal is period 5.
    const [renewal] = renewalCalendar(
      [
        sub({
          interval: "year",
          anchor: "2027-01-05T08:00:00.000Z",
          anchorPeriod: 4,
          paidThrough: "2028-01-05T08:00:00.000Z",
        }),
      ],
      now,
    );
    expect(renewal).toMatchObject({ periodIndex: 5, dueAt: "2028-01-05T08:00:00.000Z" });
  });

  test("an invoiced renewal costs its order's total", () => {
    const invoiced = sub({
      nextTotal: "10.4000",
      due: { orderId: "r1", total: "10.4000", dueAt: "2027-01-20T08:00:00.000Z" },
    });
    expect(renewalCalendar([invoiced], now).map((r) => r.total)[0]).toBe("10.4000");
  });

  test("month-end anchors: 31 January, 28 February, 31 March", () => {
    const endOfMonth = sub({
      anchor: "2026-12-31T09:00:00.000Z",
      paidThrough: "2027-01-31T09:00:00.000Z",
    });
    expect(
      renewalCalendar([endOfMonth], now)
        .slice(0, 4)
        .map((r) => r.dueAt.slice(0, 10)),
    ).toEqual(["2027-01-31", "2027-02-28", "2027-03-31", "2027-04-30"]);
  });

  test("a past-due renewal comes first, overdue, then the ones after it, with every subscription by date", () => {
    const pastDue = sub({
      id: "late",
      productName: "Driftpoint",
      status: "past_due",
      anchor: "2026-11-08T10:00:00.000Z",
      paidThrough: "2027-01-08T10:00:00.000Z",
      due: { orderId: "r2", total: "10.0000", dueAt: "2027-01-08T10:00:00.000Z" },
    });
    const renewals = renewalCalendar([sub(), pastDue], now);
    expect(renewals.slice(0, 3).map((r) => [r.subscriptionId, r.dueAt.slice(0, 10), r.overdue])).toEqual([
      ["late", "2027-01-08", true],
      ["s1", "2027-01-20", false],
      ["late", "2027-02-08", false],
    ]);
    // Its 12 coming renewals (the last on 8 January 2028, within 12 months of now) after the overdue one.
    expect(renewals.filter((r) => r.subscriptionId === "late")).toHaveLength(13);
    expect(calendarByMonth(renewals).map((g) => g.label)).toEqual([
      "Overdue",
      "January 2027",
      "February 2027",
      "March 2027",
      "April 2027",
      "May 2027",
      "June 2027",
      "July 2027",
      "August 2027",
      "September 2027",
      "October 2027",
      "November 2027",
      "December 2027",
      "January 2028",
    ]);
  });

  test("the title names the plan only when it says more than its interval", () => {
    expect(renewalTitle({ productName: "Nimbus", planName: "Yearly", interval: "year" })).toBe(
      "Nimbus (Yearly)",
    );
    expect(renewalTitle({ productName: "Nimbus", planName: "Team", interval: "year" })).toBe(
      "Nimbus (Team, Yearly)",
    );
  });
});

describe("the downloads", () => {
  test("iCalendar: one all-day event per renewal with a stable UID, escaped and folded at 75 octets", () => {
    const renewals = renewalCalendar(
      [
        sub({
          productName: "Nimbus, CRM; Pro",
          interval: "year",
          nextTotal: "490",
          paidThrough: "2027-02-01T00:00:00.000Z",
          anchor: "2026-02-01T00:00:00.000Z",
        }),
      ],
      now,
    );
    const ics = calendarIcs(renewals, now, "https://stackbay.test/dashboard/subscriptions");
    expect(ics.startsWith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")).toBe(true);
    expect(ics.endsWith("END:VCALENDAR\r\n")).toBe(true);
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(1);
    expect(ics).toContain("UID:s1-1@stackbay\r\n");
    expect(ics).toContain("DTSTAMP:20270110T120000Z\r\n");
    expect(ics).toContain("DTSTART;VALUE=DATE:20270201\r\nDTEND;VALUE=DATE:20270202\r\n");
    expect(ics).toContain("SUMMARY:Renewal: Nimbus\\, CRM\\; Pro (Yearly) $490.00\r\n");
    for (const line of ics.split("\r\n"))
      expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    // Unfolded, the description reads whole, its lines escaped.
    expect(ics.replaceAll("\r\n ", "")).toContain(
      "DESCRIPTION:1 seat\\, $490.00 USD with tax.\\nVendor: Nimbus.\\nRenewal desk: https://stackbay.test/dashboard/subscriptions\r\n",
    );
  });

  test("folding never splits a UTF-8 character, and escapes backslashes and newlines", () => {
    const line = `SUMMARY:${"é".repeat(60)}`;
    const folded = icsFold(line);
    expect(folded.replaceAll("\r\n ", "")).toBe(line);
    for (const part of folded.split("\r\n"))
      expect(new TextEncoder().encode(part).length).toBeLessThanOrEqual(75);
    expect(icsText("a\\b\nc")).toBe("a\\\\b\\nc");
  });

  test("CSV: a header and one row per renewal, text quoted", () => {
    const csv = calendarCsv(renewalCalendar([sub({ quantity: 2, nextTotal: "20.0000" })], now).slice(0, 1));
    expect(csv).toBe(
      'Date,Product,Vendor,Plan,Seats,Amount,Currency,Status\r\n"2027-01-20","Nimbus CRM Pro","Nimbus","Monthly",2,20.00,"USD","Active"\r\n',
    );
  });
});
