import { z } from "zod";
import {
  adminBankTransferSchema,
  bankTransferSchema,
  MAX_BANK_REFERENCE_LENGTH,
  recordTransferAnswerSchema,
  transferReferenceQuerySchema,
} from "#domain/bank-transfer";
import { endpoint } from "#domain/endpoint";

const idParams = z.object({ id: z.uuid("Unknown order") });

/**
 * The body of an admin's record of a received transfer as the route takes it: every field is checked
 * by the service, which answers each problem in the admin's words.
 */
export const recordTransferBodySchema = z
  .object({
    amount: z.unknown().describe('The amount received in USD, at most 2 decimals, e.g. "120.50"'),
    receivedOn: z.unknown().describe("The day the money arrived, YYYY-MM-DD, not in the future"),
    bankReference: z
      .unknown()
      .describe(`The bank's own reference of the transfer, at most ${MAX_BANK_REFERENCE_LENGTH} characters`),
  })
  .partial();

/** What the web calls of the server's `bank-transfers` module (`src/server/modules/bank-transfers/routes.ts`). */
export const bankTransfersEndpoints = {
  "GET /admin/bank-transfers/lookup": endpoint({
    query: transferReferenceQuerySchema,
    answer: z.object({ orderId: z.string() }),
    errors: ["TRANSFER_REFERENCE_NOT_FOUND"],
  }),
  "GET /admin/orders/:id/bank-transfer": endpoint({
    params: idParams,
    answer: adminBankTransferSchema,
    errors: ["ORDER_NOT_FOUND"],
  }),
  "GET /orders/:id/bank-transfer": endpoint({
    params: idParams,
    answer: bankTransferSchema,
    errors: ["ORDER_NOT_FOUND"],
  }),
  "POST /admin/orders/:id/bank-transfers": endpoint({
    status: [200, 201],
    params: idParams,
    body: recordTransferBodySchema,
    answer: recordTransferAnswerSchema,
    errors: ["ORDER_NOT_AWAITING_TRANSFER", "ORDER_NOT_FOUND", "TRANSFER_ALREADY_RECORDED"],
  }),
} as const;
