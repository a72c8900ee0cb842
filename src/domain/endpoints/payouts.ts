import { z } from "zod";
import { endpoint, pageQuery } from "#domain/endpoint";
import {
  batchPayoutSchema,
  markPayoutFailedSchema,
  markPayoutPaidSchema,
  payoutBatchDetailSchema,
  payoutBatchesSchema,
  payoutPreviewSchema,
  runPayoutBatchSchema,
} from "#domain/finance";

/** What the web calls of the server's `payouts` module (`src/server/modules/payouts/routes.ts`). */
/** Every code this module's services can answer: the endpoints below that reach them share the list. */
const payoutsErrors = [
  "NOTHING_TO_PAY",
  "NO_BANK_PAYOUTS",
  "PAYOUT_BATCH_NOT_FOUND",
  "PAYOUT_DETAILS_UNKNOWN",
  "PAYOUT_NOT_BANK",
  "PAYOUT_NOT_FOUND",
  "PAYOUT_SETTLED",
] as const;

export const payoutsEndpoints = {
  "GET /admin/payouts/batches": endpoint({ query: pageQuery, answer: payoutBatchesSchema, errors: [] }),
  "GET /admin/payouts/batches/:id": endpoint({
    params: z.object({ id: z.string() }),
    answer: payoutBatchDetailSchema,
    errors: ["PAYOUT_BATCH_NOT_FOUND", "PAYOUT_NOT_FOUND"],
  }),
  "GET /admin/payouts/preview": endpoint({
    query: z.object({ minimum: z.coerce.number().min(1).max(1_000_000).optional() }),
    answer: payoutPreviewSchema,
    errors: [],
  }),
  "POST /admin/payouts/:id/failed": endpoint({
    params: z.object({ id: z.string() }),
    body: markPayoutFailedSchema,
    answer: batchPayoutSchema,
    errors: payoutsErrors,
  }),
  "POST /admin/payouts/:id/paid": endpoint({
    params: z.object({ id: z.string() }),
    body: markPayoutPaidSchema,
    answer: batchPayoutSchema,
    errors: payoutsErrors,
  }),
  "POST /admin/payouts/batches": endpoint({
    body: runPayoutBatchSchema,
    answer: payoutBatchDetailSchema,
    errors: payoutsErrors,
  }),
} as const;
