import { z } from "zod";
import { earnerRoles, payoutLineSchema } from "#domain/earnings";
import { paged } from "#domain/paging";
import { payoutMethods } from "#domain/payouts";

/** The operator's books for a period, every figure from the ledger; amounts USD numbers. */

/** `?from=&to=` as calendar days (UTC), `to` inclusive; at most ten years apart. */
export const periodSchema = z
  .object({
    from: z.iso.date("Enter a start date"),
    to: z.iso.date("Enter an end date"),
  })
  .refine((p) => p.from <= p.to, {
    message: "The start date must be on or before the end date",
    path: ["to"],
  });
export type Period = z.infer<typeof periodSchema>;

export const taxDueSchema = z.object({
  jurisdiction: z.string(),
  label: z.string(),
  collected: z.number(),
  refunded: z.number(),
  due: z.number(),
});

export const financeSummarySchema = z.object({
  period: z.object({ from: z.string(), to: z.string() }),
  /** Item subtotals of orders paid in the period (before tax). */
  grossSales: z.number(),
  /** Money taken from buyers: subtotals plus tax, as charged. */
  charged: z.number(),
  platformFees: z.number(),
  resellerCommissions: z.number(),
  sellerNet: z.number(),
  taxByJurisdiction: z.array(taxDueSchema),
  refunds: z.number(),
  payouts: z.number(),
  rounding: z.number(),
  /** Balances now (not limited to the period): what is owed to whom. */
  owed: z.object({
    sellersPending: z.number(),
    sellersAvailable: z.number(),
    resellersPending: z.number(),
    resellersAvailable: z.number(),
    payoutsInTransit: z.number(),
    refundsPayable: z.number(),
  }),
});
export type FinanceSummary = z.infer<typeof financeSummarySchema>;

/** Captured payments compared with the ledger, order by order: the goal is no difference at all. */
export const reconciliationSchema = z.object({
  captured: z.number(),
  booked: z.number(),
  difference: z.number(),
  differences: z.array(
    z.object({
      orderId: z.string(),
      captured: z.number(),
      booked: z.number(),
      difference: z.number(),
      reason: z.string(),
    }),
  ),
});
export type Reconciliation = z.infer<typeof reconciliationSchema>;

/** The payout batch screen: who would be paid now. */
export const payoutCandidateSchema = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(earnerRoles),
  available: z.number(),
  method: z.enum(payoutMethods).nullable(),
  /** Masked destination ("Stripe acct_…1234", "•••• 3000"). */
  destination: z.string().nullable(),
  /** Why this balance is not paid in this batch, or null when it is. */
  skipReason: z.string().nullable(),
});
export type PayoutCandidate = z.infer<typeof payoutCandidateSchema>;

export const payoutPreviewSchema = z.object({
  minimum: z.number(),
  candidates: z.array(payoutCandidateSchema),
  total: z.number(),
});
export type PayoutPreview = z.infer<typeof payoutPreviewSchema>;

/**
 * The most payees one batch approves: each is a balance read, a payout, a ledger entry, an audit row and
 * an e-mail in one transaction, so the request is bounded; more payees wait for the next batch.
 */
export const MAX_PAYOUT_BATCH_PAYEES = 500;

export const runPayoutBatchSchema = z.object({
  /** The preview's minimum, in USD; balances below it wait. */
  minimum: z.number().min(1, "The minimum must be at least $1").max(1_000_000),
  /** The users (with role) the admin approved from the preview; the server re-checks each. */
  payees: z
    .array(z.object({ userId: z.string(), role: z.enum(earnerRoles) }))
    .min(1, "Choose at least one payee")
    .max(
      MAX_PAYOUT_BATCH_PAYEES,
      `A batch pays at most ${MAX_PAYOUT_BATCH_PAYEES} payees; approve the rest in another`,
    ),
});
export type RunPayoutBatchInput = z.input<typeof runPayoutBatchSchema>;

export const payoutBatchSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  total: z.number(),
  count: z.number(),
  paid: z.number(),
  processing: z.number(),
  failed: z.number(),
});
export type PayoutBatch = z.infer<typeof payoutBatchSchema>;
export const payoutBatchesSchema = paged(payoutBatchSchema);

export const batchPayoutSchema = payoutLineSchema.extend({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  destination: z.string().nullable(),
});
export type BatchPayout = z.infer<typeof batchPayoutSchema>;
export const payoutBatchDetailSchema = payoutBatchSchema.extend({ payouts: z.array(batchPayoutSchema) });
export type PayoutBatchDetail = z.infer<typeof payoutBatchDetailSchema>;

export const markPayoutPaidSchema = z.object({
  reference: z.string().trim().min(3, "Enter the bank's reference").max(100),
});
export const markPayoutFailedSchema = z.object({
  reason: z.string().trim().min(3, "Say why the payout failed").max(300),
});
