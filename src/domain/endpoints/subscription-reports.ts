import { z } from "zod";
import { endpoint } from "#domain/endpoint";
import {
  adminCancelAnswerSchema,
  adminSubscriptionReportSchema,
  adminSubscriptionsQuery,
  sellerSubscriptionReportSchema,
  sellerSubscriptionsQuery,
  subscriptionReminderAnswerSchema,
  subscriptionRetryAnswerSchema,
} from "#domain/subscription-report-schemas";

const idParams = z.object({ id: z.uuid("Unknown subscription") });

/**
 * What the web calls of the server's `subscription-reports` module
 * (`src/server/modules/subscription-reports/routes.ts`): the seller's and the admin's subscription views.
 */
export const subscriptionReportsEndpoints = {
  "GET /seller/subscriptions": endpoint({
    query: sellerSubscriptionsQuery,
    answer: sellerSubscriptionReportSchema,
    errors: [],
  }),
  "GET /admin/subscriptions": endpoint({
    query: adminSubscriptionsQuery,
    answer: adminSubscriptionReportSchema,
    errors: [],
  }),
  "POST /admin/subscriptions/:id/remind": endpoint({
    params: idParams,
    answer: subscriptionReminderAnswerSchema,
    errors: ["SUBSCRIPTION_NOT_FOUND", "SUBSCRIPTION_ENDED", "RENEWAL_NOT_PAST_DUE"],
  }),
  "POST /admin/subscriptions/:id/retry": endpoint({
    params: idParams,
    answer: subscriptionRetryAnswerSchema,
    errors: [
      "SUBSCRIPTION_NOT_FOUND",
      "SUBSCRIPTION_ENDED",
      "RENEWAL_NOT_PAST_DUE",
      "PAYMENT_METHOD_NOT_FOUND",
      "INVALID_ORDER_TRANSITION",
    ],
  }),
  "POST /admin/subscriptions/:id/cancel": endpoint({
    params: idParams,
    answer: adminCancelAnswerSchema,
    errors: ["SUBSCRIPTION_NOT_FOUND", "SUBSCRIPTION_ENDED"],
  }),
} as const;
