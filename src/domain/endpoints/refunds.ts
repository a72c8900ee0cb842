import { z } from "zod";
import { endpoint, pageQuery } from "#domain/endpoint";
import { pageNumber } from "#domain/paging";
import {
  markTransferredSchema,
  payoutAnswerSchema,
  payoutStates,
  refundAnswerSchema,
  refundDecisionSchema,
  refundListSchema,
  refundMessageInputSchema,
  refundRequestSchema,
  refundStatuses,
  refundThreadSchema,
} from "#domain/refunds";

const threadParams = z.object({ id: z.uuid("Unknown refund request") });
const payoutParams = z.object({ id: z.uuid("Unknown refund request") });

/** The admins' list of refund requests: a page, optionally of one status or payout state. */
export const adminRefundsQuery = z.object({
  page: pageNumber,
  status: z.enum(refundStatuses, { error: `Status must be one of ${refundStatuses.join(", ")}` }).optional(),
  payout: z.enum(payoutStates, { error: `Payout must be one of ${payoutStates.join(", ")}` }).optional(),
});

/** What the web calls of the server's `refunds` module (`src/server/modules/refunds/routes.ts`). */
export const refundsEndpoints = {
  "GET /refunds/:id/messages": endpoint({
    params: threadParams,
    answer: refundThreadSchema,
    errors: ["REFUND_NOT_FOUND"],
  }),
  "POST /admin/refunds/:id/payout/retry": endpoint({
    params: payoutParams,
    answer: payoutAnswerSchema,
    errors: ["PAYOUT_NOT_FOUND", "PAYOUT_NOT_RETRYABLE"],
  }),
  "POST /admin/refunds/:id/payout/transferred": endpoint({
    params: payoutParams,
    body: markTransferredSchema,
    answer: payoutAnswerSchema,
    errors: ["PAYOUT_NOT_AWAITING_TRANSFER", "PAYOUT_NOT_FOUND"],
  }),
  "POST /orders/:orderId/items/:itemId/refund": endpoint({
    status: 201,
    params: z.object({ orderId: z.uuid("Unknown order"), itemId: z.uuid("Unknown order item") }),
    body: refundRequestSchema,
    answer: refundAnswerSchema,
    errors: [
      "ALREADY_REFUNDED",
      "ORDER_ITEM_NOT_FOUND",
      "ORDER_NOT_CONFIRMED",
      "REFUND_EXISTS",
      "REFUND_WINDOW_CLOSED",
    ],
  }),
  "POST /refunds/:id/decision": endpoint({
    params: z.object({ id: z.uuid("Unknown refund request") }),
    body: refundDecisionSchema,
    answer: refundAnswerSchema,
    errors: ["INVALID_ORDER_TRANSITION", "ORDER_NOT_FOUND", "REFUND_NOT_FOUND", "REFUND_STEP_NOT_ALLOWED"],
  }),
  "POST /refunds/:id/messages": endpoint({
    status: 201,
    params: threadParams,
    body: refundMessageInputSchema,
    answer: refundThreadSchema,
    errors: ["REFUND_CLOSED", "REFUND_MESSAGE_LIMIT", "REFUND_NOT_FOUND"],
  }),
  "GET /refunds/mine": endpoint({ query: pageQuery, answer: refundListSchema, errors: [] }),
  "GET /seller/refunds": endpoint({ query: pageQuery, answer: refundListSchema, errors: [] }),
  "GET /admin/refunds": endpoint({ query: adminRefundsQuery, answer: refundListSchema, errors: [] }),
} as const;
