import { z } from "zod";
import {
  adminBankTransferSchema,
  bankTransferSchema,
  recordTransferAnswerSchema,
  recordTransferBodySchema,
  transferReferenceQuerySchema,
} from "#domain/bank-transfer";
import { endpoint } from "#domain/endpoint";

export const bankTransfersEndpoints = {
  "GET /admin/bank-transfers/lookup": endpoint({
    query: transferReferenceQuerySchema,
    answer: z.object({ orderId: z.string() }),
    errors: [],
  }),
  "GET /admin/orders/:id/bank-transfer": endpoint({
    params: z.object({ id: z.string() }),
    answer: adminBankTransferSchema,
    errors: ["ORDER_NOT_FOUND", "TRANSFER_REFERENCE_NOT_FOUND"],
  }),
  "GET /orders/:id/bank-transfer": endpoint({
    params: z.object({ id: z.string() }),
    answer: bankTransferSchema,
    errors: ["ORDER_NOT_FOUND", "TRANSFER_REFERENCE_NOT_FOUND"],
  }),
  "POST /admin/orders/:id/bank-transfers": endpoint({
    params: z.object({ id: z.string() }),
    body: recordTransferBodySchema,
    answer: recordTransferAnswerSchema,
    errors: [
      "ORDER_NOT_AWAITING_TRANSFER",
      "ORDER_NOT_FOUND",
      "TRANSFER_ALREADY_RECORDED",
      "TRANSFER_REFERENCE_NOT_FOUND",
    ],
  }),
} as const;
