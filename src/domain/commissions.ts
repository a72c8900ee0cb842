import { toUnits } from "#domain/money";

/** The commission rate a product pays resellers unless its seller sets another: 10%, from 0 to 50%. */
export const DEFAULT_COMMISSION_RATE = 0.1;
export const MAX_COMMISSION_RATE = 0.5;
/** How long a reseller link's attribution lasts after the click (last click wins). */
export const ATTRIBUTION_DAYS = 30;

/**
 * `held`: the order looks like the reseller's own purchase (see commission-holds.ts); it waits for an
 * admin, who releases it to `pending` or rejects it (`cancelled`). Settlement never approves it.
 */
export const commissionStatuses = ["pending", "held", "approved", "cancelled"] as const;
export type CommissionStatus = (typeof commissionStatuses)[number];

/** The reseller's view: "On hold" says the order is being looked at, not why (that would teach evasion). */
export const commissionStatusLabel: Record<CommissionStatus, string> = {
  pending: "Pending",
  held: "On hold",
  approved: "Approved",
  cancelled: "Cancelled",
};

/**
 * Commission on one order item, in money units (1/10,000 USD): rate × item subtotal, rounded half up.
 * The rate is taken to 4 decimals (basis points of a percent), as it is stored.
 */
export function commissionUnits(itemSubtotal: string, rate: number): number {
  if (!(rate >= 0 && rate <= MAX_COMMISSION_RATE))
    throw new RangeError(`Commission rate out of range: ${rate}`);
  const rateTenThousandths = Math.round(rate * 10_000);
  return Math.floor((toUnits(itemSubtotal) * rateTenThousandths + 5_000) / 10_000);
}

/*
 * Settlement (pending → approved once `eligibleAt` has passed and no refund is open) and a refund's
 * cancellation (pending or held → cancelled; approved stays) are set-wise updates in
 * `src/server/modules/referrals/repository.ts`, tested through the API in referrals.test.ts.
 */

/** An admin's decision on a held commission: released to wait out the refund window, or rejected. */
export function decideHeldCommission(
  status: CommissionStatus,
  decision: "release" | "reject",
): CommissionStatus | null {
  if (status !== "held") return null;
  return decision === "release" ? "pending" : "cancelled";
}
