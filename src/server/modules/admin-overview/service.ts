import { type AdminOverview, OVERVIEW_CHART_DAYS, OVERVIEW_TOP_PRODUCTS } from "#domain/admin-overview";
import { DAY_MS } from "#domain/dates";
import { periodBounds, presetPeriod, unitsToUsd } from "#domain/finance-period";
import type { Database } from "#server/db/client";
import { overviewCounts } from "#server/modules/admin-overview/repository";
import { dailySales, topProducts } from "#server/modules/finance/service";

const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * What needs an admin's eye, seen from `now`: today's and this month's sales (the Finance screen's
 * definitions, from the same function), new users, the queues waiting for an admin, the month's best
 * sellers and the last 30 days' sales per day.
 */
export async function adminOverview(db: Database, now: Date): Promise<AdminOverview> {
  const todayPeriod = { from: day(now), to: day(now) };
  const monthPeriod = presetPeriod("this-month", now);
  const { start: today, end } = periodBounds(todayPeriod);
  const { start: month } = periodBounds(monthPeriod);
  const chartStart = new Date(end.getTime() - OVERVIEW_CHART_DAYS * DAY_MS);
  // One read of sales covers the chart, today and the month: from whichever starts first.
  const salesStart = chartStart < month ? chartStart : month;
  const [sales, counts, top] = await Promise.all([
    dailySales(db, salesStart, end),
    overviewCounts(db, { today, month, end }),
    topProducts(db, month, end, OVERVIEW_TOP_PRODUCTS),
  ]);
  const between = (from: string, to: string) => {
    const days = sales.filter((s) => s.date >= from && s.date <= to);
    return {
      orders: days.reduce((sum, s) => sum + s.orders, 0),
      grossSales: unitsToUsd(days.reduce((sum, s) => sum + s.grossSalesUnits, 0)),
    };
  };
  const daily = Array.from({ length: OVERVIEW_CHART_DAYS }, (_, i) => {
    const date = day(new Date(chartStart.getTime() + i * DAY_MS));
    const found = sales.find((s) => s.date === date);
    return {
      date,
      orders: found?.orders ?? 0,
      grossSales: unitsToUsd(found?.grossSalesUnits ?? 0),
    };
  });
  return {
    today: todayPeriod,
    month: { from: monthPeriod.from, to: monthPeriod.to },
    figures: {
      today: { ...between(todayPeriod.from, todayPeriod.to), newUsers: counts.newUsersToday },
      month: { ...between(monthPeriod.from, day(now)), newUsers: counts.newUsersMonth },
    },
    pendingModeration: counts.pendingModeration,
    refunds: { escalated: counts.escalatedRefunds, payoutsToFix: counts.payoutsToFix },
    inbox: { messagesThisMonth: counts.messagesThisMonth, openApplications: counts.openApplications },
    topProducts: top,
    daily,
  };
}
