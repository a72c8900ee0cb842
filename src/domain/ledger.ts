/**
 * The kinds of ledger account. Liabilities (what is owed to sellers, resellers, tax authorities and
 * buyers) carry credit balances; `clearing` (money held at the payment providers and the bank) a debit one.
 */
export const ledgerAccountKinds = [
  "clearing",
  "platform_fees",
  "platform_sales",
  "rounding",
  "seller_pending",
  "seller_available",
  "reseller_pending",
  "reseller_available",
  "tax",
  "provider_fees",
  "refunds_payable",
  "payouts_in_transit",
] as const;
export type LedgerAccountKind = (typeof ledgerAccountKinds)[number];
