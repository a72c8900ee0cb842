import { z } from "zod";

/**
 * The admin overview (`GET /api/admin/overview`). Orders and gross sales use the Finance screen's
 * definitions: an order counts on the day its sale was booked in the ledger (it was paid or confirmed),
 * and gross sales are its items' subtotals before tax, in USD. Days are UTC calendar days, as there.
 */

export const OVERVIEW_CHART_DAYS = 30;
export const OVERVIEW_TOP_PRODUCTS = 5;

export const overviewFiguresSchema = z.object({
  orders: z.number().int(),
  grossSales: z.number(),
  newUsers: z.number().int(),
});
export type OverviewFigures = z.infer<typeof overviewFiguresSchema>;

export const overviewDaySchema = z.object({
  /** `YYYY-MM-DD` (UTC). */
  date: z.string(),
  orders: z.number().int(),
  grossSales: z.number(),
});
export type OverviewDay = z.infer<typeof overviewDaySchema>;

export const topProductSchema = z.object({
  /** Null when the product was deleted since; the name is the one on the order. */
  productId: z.string().nullable(),
  name: z.string(),
  unitsSold: z.number().int(),
  grossSales: z.number(),
});
export type TopProduct = z.infer<typeof topProductSchema>;

export const adminOverviewSchema = z.object({
  /** Today and this month as the periods the Finance screen takes (`from`/`to`, `to` included). */
  today: z.object({ from: z.string(), to: z.string() }),
  month: z.object({ from: z.string(), to: z.string() }),
  figures: z.object({ today: overviewFiguresSchema, month: overviewFiguresSchema }),
  /** Listings waiting for an admin's review. */
  pendingModeration: z.number().int(),
  /** Refund requests the buyer escalated to the platform, and refund payouts that failed or await a transfer. */
  refunds: z.object({ escalated: z.number().int(), payoutsToFix: z.number().int() }),
  /** Contact messages received this month (they carry no read state) and partner applications not yet decided. */
  inbox: z.object({ messagesThisMonth: z.number().int(), openApplications: z.number().int() }),
  /** This month's best sellers by gross sales. */
  topProducts: z.array(topProductSchema),
  /** The last `OVERVIEW_CHART_DAYS` days, oldest first, today last; days without sales are zeros. */
  daily: z.array(overviewDaySchema),
});
export type AdminOverview = z.infer<typeof adminOverviewSchema>;
