import { csvAmount, csvText } from "#domain/csv";
import type { FinanceSummary, Period, Reconciliation } from "#domain/finance";
import { jurisdictionLabel, periodBounds, unitsToUsd } from "#domain/finance-period";
import type { JournalEntryKind, LedgerAccountKind } from "#domain/ledger";
import type { Database } from "#server/db/client";
import {
  balancesByKind,
  journalRows,
  periodSums,
  reconcileOrders,
  saleSumsByDay,
  topSoldProducts,
} from "#server/modules/finance/repository";

type Sum = Awaited<ReturnType<typeof periodSums>>[number];

/** Where a sale puts an item's subtotal: the fee, the commission and the seller's (or platform's) net. */
const subtotalKinds: LedgerAccountKind[] = [
  "platform_fees",
  "reseller_pending",
  "seller_pending",
  "seller_available",
  "platform_sales",
];
/**
 * Orders and gross sales per UTC day of [start, end), as the Finance screen and the admin overview
 * define them: an order counts on the day its sale was booked (paid or confirmed), its gross sales are
 * the items' subtotals before tax. Units, days without a sale left out.
 */
export async function dailySales(db: Database, start: Date, end: Date) {
  const rows = await saleSumsByDay(db, start, end, subtotalKinds);
  return rows.map((row) => ({ date: row.day, orders: row.orders, grossSalesUnits: -row.total }));
}

/** The products with the most gross sales (same definition as `dailySales`) booked in [start, end). */
export async function topProducts(db: Database, start: Date, end: Date, limit: number) {
  const rows = await topSoldProducts(db, start, end, subtotalKinds, limit);
  return rows.map((row) => ({
    productId: row.productId,
    name: row.name,
    unitsSold: row.unitsSold,
    grossSales: unitsToUsd(-row.total),
  }));
}

const sellerKinds: LedgerAccountKind[] = ["seller_pending", "seller_available", "platform_sales"];
const resellerKinds: LedgerAccountKind[] = ["reseller_pending", "reseller_available"];
/**
 * The entries that change what each party earned: the sale, its refunds, and a rejected commission
 * moving from reseller to seller. Releases, approvals and payouts only move money between one party's
 * own accounts or pay it out, so they stay out of the earned figures.
 */
const earningKinds: JournalEntryKind[] = ["sale", "refund", "commission_rejected"];

function total(sums: Sum[], entryKinds: readonly string[], accountKinds: readonly string[]): number {
  return sums
    .filter((s) => entryKinds.includes(s.entryKind) && accountKinds.includes(s.accountKind))
    .reduce((sum, s) => sum + s.total, 0);
}

/**
 * The operator's books for a period. Lines are debits positive and credits negative; what the platform
 * earned or owes is a credit, so those figures are the negated sums.
 */
export async function financeSummary(db: Database, period: Period): Promise<FinanceSummary> {
  const { start, end } = periodBounds(period);
  const [sums, balances, sales] = await Promise.all([
    periodSums(db, start, end),
    balancesByKind(db),
    dailySales(db, start, end),
  ]);
  const jurisdictions = [
    ...new Set(sums.flatMap((s) => (s.accountKind === "tax" && s.jurisdiction ? [s.jurisdiction] : []))),
  ].sort();
  const taxOf = (entryKind: string, jurisdiction: string) =>
    sums
      .filter((s) => s.entryKind === entryKind && s.accountKind === "tax" && s.jurisdiction === jurisdiction)
      .reduce((sum, s) => sum + s.total, 0);
  const owed = (kind: LedgerAccountKind) =>
    unitsToUsd(-balances.filter((b) => b.kind === kind).reduce((sum, b) => sum + b.balance, 0));
  return {
    period: { from: period.from, to: period.to },
    // From the same function as the admin overview's figures, so the two screens cannot disagree.
    grossSales: unitsToUsd(sales.reduce((sum, day) => sum + day.grossSalesUnits, 0)),
    charged: unitsToUsd(total(sums, ["sale"], ["clearing"])),
    platformFees: unitsToUsd(-total(sums, ["sale", "refund"], ["platform_fees"])),
    resellerCommissions: unitsToUsd(-total(sums, earningKinds, resellerKinds)),
    sellerNet: unitsToUsd(-total(sums, earningKinds, sellerKinds)),
    taxByJurisdiction: jurisdictions.map((jurisdiction) => {
      const collected = -taxOf("sale", jurisdiction);
      const refunded = taxOf("refund", jurisdiction);
      return {
        jurisdiction,
        label: jurisdictionLabel(jurisdiction),
        collected: unitsToUsd(collected),
        refunded: unitsToUsd(refunded),
        due: unitsToUsd(collected - refunded),
      };
    }),
    refunds: unitsToUsd(-total(sums, ["refund_paid"], ["clearing"])),
    payouts: unitsToUsd(-total(sums, ["payout_paid"], ["clearing"])),
    rounding: unitsToUsd(-sums.filter((s) => s.accountKind === "rounding").reduce((a, s) => a + s.total, 0)),
    owed: {
      sellersPending: owed("seller_pending"),
      sellersAvailable: owed("seller_available"),
      resellersPending: owed("reseller_pending"),
      resellersAvailable: owed("reseller_available"),
      payoutsInTransit: owed("payouts_in_transit"),
      refundsPayable: owed("refunds_payable"),
    },
  };
}

/** Why an order's captured money and its booked sale differ, in words an operator acts on. */
function differenceReason(captured: number, booked: number): string {
  if (captured === 0) return "Confirmed by hand, no payment captured";
  if (booked === 0) return "Paid but not booked";
  return "Amounts differ";
}

/** Captured money against the ledger's sales, order by order; every order that differs is listed. */
export async function reconciliation(db: Database): Promise<Reconciliation> {
  const { totals, differences } = await reconcileOrders(db);
  return {
    captured: unitsToUsd(totals.captured),
    booked: unitsToUsd(totals.booked),
    difference: unitsToUsd(totals.captured - totals.booked),
    differences: differences.map((row) => ({
      orderId: row.orderId,
      captured: unitsToUsd(row.captured),
      booked: unitsToUsd(row.booked),
      difference: unitsToUsd(row.captured - row.booked),
      reason: differenceReason(row.captured, row.booked),
    })),
  };
}

/** The period's journal as CSV, a row per line; debits and credits as positive decimal USD. */
export async function journalCsv(db: Database, period: Period): Promise<string> {
  const { start, end } = periodBounds(period);
  const rows = await journalRows(db, start, end);
  return csvText(
    ["date", "entry_kind", "memo", "order_id", "account", "debit", "credit"],
    rows.map((row) => [
      row.occurredAt.toISOString(),
      row.kind,
      row.memo,
      row.orderId ?? "",
      row.accountId,
      row.amount > 0 ? csvAmount(unitsToUsd(row.amount)) : "",
      row.amount < 0 ? csvAmount(unitsToUsd(-row.amount)) : "",
    ]),
  );
}
