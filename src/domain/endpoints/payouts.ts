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

const idParams = z.object({ id: z.uuid("Unknown payout") });

/** What the web calls of the server's `payouts` module (`src/server/modules/payouts/routes.ts`). */
export const payoutsEndpoints = {
  "GET /admin/payouts/batches": endpoint({ query: pageQuery, answer: payoutBatchesSchema, errors: [] }),
  "GET /admin/payouts/batches/:id": endpoint({
    params: idParams,
    answer: payoutBatchDetailSchema,
    errors: ["PAYOUT_BATCH_NOT_FOUND"],
  }),
  "GET /admin/payouts/preview": endpoint({
    query: z.object({ minimum: z.coerce.number().min(1).max(1_000_000).optional() }),
    answer: payoutPreviewSchema,
    errors: [],
  }),
  "POST /admin/payouts/:id/failed": endpoint({
    params: idParams,
    body: markPayoutFailedSchema,
    answer: batchPayoutSchema,
    errors: ["PAYOUT_NOT_BANK", "PAYOUT_NOT_FOUND", "PAYOUT_SETTLED"],
  }),
  "POST /admin/payouts/:id/paid": endpoint({
    params: idParams,
    body: markPayoutPaidSchema,
    answer: batchPayoutSchema,
    errors: ["PAYOUT_NOT_BANK", "PAYOUT_NOT_FOUND", "PAYOUT_SETTLED"],
  }),
  "POST /admin/payouts/batches": endpoint({
    status: 201,
    body: runPayoutBatchSchema,
    answer: payoutBatchDetailSchema,
    errors: ["NOTHING_TO_PAY", "PAYOUT_BATCH_NOT_FOUND"],
  }),
} as const;

/** Opened as a link rather than through `call`. */
export const payoutsExternalEndpoints = {
  "GET /admin/payouts/batches/:id/bank-file.csv": endpoint({
    params: idParams,
    answer: { file: "text/csv; charset=utf-8" },
    errors: ["NO_BANK_PAYOUTS", "PAYOUT_DETAILS_UNKNOWN"],
  }),
} as const;
