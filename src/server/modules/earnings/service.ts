import { hasRole, type Roles } from "#domain/accounts";
import {
  type BalanceSummary,
  CLAWBACKS_SHOWN,
  clawbackLabel,
  type EarnerRole,
  type EarningsOverview,
  type EarningsPoint,
  type PayoutLine,
  RECEIVED_ORDERS_PAGE_SIZE,
  type ReceivedOrder,
  type SaleLine,
  type SellerStats,
} from "#domain/earnings";
import { accountId } from "#domain/ledger";
import { fromUnits, lineTotal, toUnits } from "#domain/money";
import type { Paged } from "#domain/paging";
import type { Database } from "#server/db/client";
import { Forbidden } from "#server/errors";
import {
  accountBalances,
  clawbacks,
  netByMonth,
  payoutPage,
  payoutSums,
  receivedOrders,
  resellerGrossByMonth,
  resellerUpcoming,
  saleLines,
  saleTotals,
  sellerGrossByMonth,
  sellerUpcoming,
} from "#server/modules/earnings/repository";
import { toItemShipping } from "#server/modules/orders/repository";

export const EARNINGS_PAGE_SIZE = 20;
/** The CSV export's ceiling: years of sales for any seller we have, and a bounded response. */
export const SALES_EXPORT_LIMIT = 10_000;
const SERIES_MONTHS = 12;

/** Units to the API's USD number, at the edge only. */
const usd = (units: number) => Number(fromUnits(units));

function accountsOf(role: EarnerRole, userId: string) {
  const pending = accountId({
    kind: role === "seller" ? "seller_pending" : "reseller_pending",
    owner: userId,
  });
  const available = accountId({
    kind: role === "seller" ? "seller_available" : "reseller_available",
    owner: userId,
  });
  return { pending, available };
}

export function earnerRolesOf(roles: Roles): EarnerRole[] {
  return (["seller", "reseller"] as const).filter((role) => hasRole(roles, role));
}

async function balanceSummary(db: Database, userId: string, role: EarnerRole): Promise<BalanceSummary> {
  const { pending, available } = accountsOf(role, userId);
  const [owed, sent, upcoming, taken] = await Promise.all([
    accountBalances(db, [pending, available]),
    payoutSums(db, userId, role, available),
    role === "seller" ? sellerUpcoming(db, pending, userId) : resellerUpcoming(db, pending, userId),
    clawbacks(db, available, CLAWBACKS_SHOWN),
  ]);
  return {
    role,
    pending: usd(owed.get(pending) ?? 0),
    available: usd(owed.get(available) ?? 0),
    inTransit: usd(sent.get("processing") ?? 0),
    paid: usd(sent.get("paid") ?? 0),
    upcoming: upcoming.map((day) => ({ date: day.date, amount: usd(day.amount) })),
    clawbacks: taken.map((row) => ({
      label: clawbackLabel(row.orderId ?? ""),
      amount: usd(row.amount),
      occurredAt: row.occurredAt.toISOString(),
    })),
  };
}

/** The first day of each of the last `months` calendar months (UTC), oldest first, as `YYYY-MM`. */
export function lastMonths(now: Date, months: number): string[] {
  return Array.from({ length: months }, (_, i) => {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (months - 1 - i), 1));
    return d.toISOString().slice(0, 7);
  });
}

async function series(
  db: Database,
  userId: string,
  roles: EarnerRole[],
  now: Date,
): Promise<EarningsPoint[]> {
  const months = lastMonths(now, SERIES_MONTHS);
  const since = new Date(`${months[0]}-01T00:00:00Z`);
  const accounts = roles.flatMap((role) => Object.values(accountsOf(role, userId)));
  const [net, sellerGross, resellerGross] = await Promise.all([
    netByMonth(db, accounts, since),
    roles.includes("seller") ? sellerGrossByMonth(db, userId, since) : [],
    roles.includes("reseller") ? resellerGrossByMonth(db, accountsOf("reseller", userId).pending, since) : [],
  ]);
  const sum = (rows: { month: string; value: number }[], month: string) =>
    rows.filter((row) => row.month === month).reduce((total, row) => total + row.value, 0);
  const nets = net.map((row) => ({ month: row.month, value: row.net }));
  const grosses = [...sellerGross, ...resellerGross].map((row) => ({ month: row.month, value: row.gross }));
  return months.map((month) => ({ month, net: usd(sum(nets, month)), gross: usd(sum(grosses, month)) }));
}

/** The user's balances for each earning role they hold, what comes available when, and the last year. */
export async function earningsOverview(
  db: Database,
  me: { id: string } & Roles,
  payoutMinimumUsd: number,
  now: Date,
): Promise<EarningsOverview> {
  const roles = earnerRolesOf(me);
  const [balances, points] = await Promise.all([
    Promise.all(roles.map((role) => balanceSummary(db, me.id, role))),
    roles.length > 0 ? series(db, me.id, roles, now) : [],
  ]);
  return { balances, payoutMinimum: payoutMinimumUsd, series: points };
}

function requireSeller(me: Roles) {
  if (!hasRole(me, "seller")) throw new Forbidden("Sales are for sellers' accounts.");
}

async function sales(db: Database, sellerId: string, window: { limit: number; offset: number }) {
  const { pending, available } = accountsOf("seller", sellerId);
  const rows = await saleLines(db, sellerId, [pending, available], window);
  return rows.map(
    (row): SaleLine => ({
      orderItemId: row.orderItemId,
      orderId: row.orderId,
      soldAt: row.soldAt,
      productName: row.productName,
      quantity: row.quantity,
      gross: usd(toUnits(lineTotal(row.price, row.quantity))),
      feeRate: Number(row.feeRate),
      fee: usd(row.fee),
      commission: usd(row.commission),
      tax: usd(row.tax),
      taxLabel: row.taxLabel,
      net: usd(row.net),
      status: row.refunded ? "refunded" : row.released ? "available" : "pending",
      availableAt: row.settlesAt?.toISOString() ?? null,
    }),
  );
}

export async function salesPage(
  db: Database,
  me: { id: string } & Roles,
  page: number,
): Promise<Paged<SaleLine>> {
  requireSeller(me);
  const [items, totals] = await Promise.all([
    sales(db, me.id, { limit: EARNINGS_PAGE_SIZE, offset: (page - 1) * EARNINGS_PAGE_SIZE }),
    saleTotals(db, me.id),
  ]);
  return { items, total: totals.lines, page, pageSize: EARNINGS_PAGE_SIZE };
}

export async function allSales(db: Database, me: { id: string } & Roles): Promise<SaleLine[]> {
  requireSeller(me);
  return sales(db, me.id, { limit: SALES_EXPORT_LIMIT, offset: 0 });
}

/** The seller's dashboard figures; the net is what the ledger holds for them or paid them. */
export async function sellerStats(db: Database, me: { id: string } & Roles): Promise<SellerStats> {
  requireSeller(me);
  const [totals, balance] = await Promise.all([saleTotals(db, me.id), balanceSummary(db, me.id, "seller")]);
  const net = [balance.pending, balance.available, balance.inTransit, balance.paid]
    .map(toUnits)
    .reduce((a, b) => a + b, 0);
  return { ordersReceived: totals.orders, grossSales: usd(totals.gross), netEarnings: usd(net) };
}

export async function payoutHistory(db: Database, userId: string, page: number): Promise<Paged<PayoutLine>> {
  const { rows, total } = await payoutPage(db, userId, {
    limit: EARNINGS_PAGE_SIZE,
    offset: (page - 1) * EARNINGS_PAGE_SIZE,
  });
  return {
    items: rows.map((row) => ({
      id: row.id,
      batchId: row.batchId,
      role: row.role,
      amount: Number(row.amount),
      method: row.method,
      status: row.status,
      reference: row.reference,
      failureReason: row.failureReason,
      createdAt: row.createdAt.toISOString(),
      paidAt: row.paidAt?.toISOString() ?? null,
    })),
    total,
    page,
    pageSize: EARNINGS_PAGE_SIZE,
  };
}

/**
 * The orders a seller received, one page: each with the buyer (company, else billing name), only the
 * seller's own items (another seller's lines of a shared order, and the buyer's other lines, never
 * leave the server) and their total, each line to the cent as charged.
 */
export async function receivedOrdersPage(
  db: Database,
  me: { id: string } & Roles,
  page: number,
): Promise<Paged<ReceivedOrder>> {
  requireSeller(me);
  const { rows, items, total } = await receivedOrders(db, me.id, {
    limit: RECEIVED_ORDERS_PAGE_SIZE,
    offset: (page - 1) * RECEIVED_ORDERS_PAGE_SIZE,
  });
  return {
    items: rows.map((row) => {
      const mine = items.filter((item) => item.orderId === row.id);
      return {
        orderId: row.id,
        placedAt: row.createdAt.toISOString(),
        buyer: row.buyerCompany || row.customerInfo.fullName,
        items: mine.map((item) => ({
          id: item.id,
          productName: item.productName,
          quantity: item.quantity,
          price: Number(item.price),
          pricingUnit: item.pricingUnit,
          refunded: item.refundStatus === "refunded",
          shipping: toItemShipping(item),
        })),
        amount: usd(mine.reduce((sum, item) => sum + toUnits(lineTotal(item.price, item.quantity)), 0)),
      };
    }),
    total,
    page,
    pageSize: RECEIVED_ORDERS_PAGE_SIZE,
  };
}
