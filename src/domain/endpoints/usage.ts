import { z } from "zod";
import { endpoint } from "#domain/endpoint";
import {
  spendingCapInputSchema,
  usageBatchAnswerSchema,
  usageBatchInputSchema,
  usageRecordInputSchema,
  usageRecordResultSchema,
  usageSummarySchema,
} from "#domain/metering";
import { subscriptionSchema } from "#domain/subscription-schemas";

const subscriptionParams = z.object({ id: z.uuid("Unknown subscription") });

/** What the web calls of the server's `usage` module (`src/server/modules/usage/routes.ts`). */
export const usageEndpoints = {
  "PUT /subscriptions/:id/spending-cap": endpoint({
    params: subscriptionParams,
    body: spendingCapInputSchema,
    answer: z.object({ subscription: subscriptionSchema }),
    errors: ["SUBSCRIPTION_NOT_FOUND", "SUBSCRIPTION_NOT_METERED", "SUBSCRIPTION_ENDED"],
  }),
} as const;

/** The seller API's usage operations (decision 0029), called with a key holding `usage:write`. */
export const usageExternalEndpoints = {
  "POST /seller/v1/usage": endpoint({
    body: usageRecordInputSchema,
    answer: usageRecordResultSchema,
    errors: [
      "USAGE_SUBSCRIPTION_NOT_FOUND",
      "USAGE_NOT_METERED",
      "USAGE_OUT_OF_PERIOD",
      "USAGE_TOO_LATE",
      "USAGE_CORRECTION_TOO_LARGE",
      "USAGE_PERIOD_LIMIT",
    ],
  }),
  "POST /seller/v1/usage/batch": endpoint({
    body: usageBatchInputSchema,
    answer: usageBatchAnswerSchema,
    errors: [],
  }),
  "GET /seller/v1/subscriptions/:id/usage": endpoint({
    params: subscriptionParams,
    answer: usageSummarySchema,
    errors: ["USAGE_SUBSCRIPTION_NOT_FOUND", "USAGE_NOT_METERED"],
  }),
} as const;
