import { z } from "zod";
import { endpoint } from "#domain/endpoint";
import { paymentRedirectSchema } from "#domain/payments";
import {
  subscriptionChangeAnswerSchema,
  subscriptionChangeCommitSchema,
  subscriptionChangeInputSchema,
  subscriptionChangePreviewSchema,
} from "#domain/subscription-schemas";

const idParams = z.object({ id: z.uuid("Unknown subscription") });

/** Why a change of plan or seats is refused, whether previewed or committed. */
const changeErrors = [
  "SUBSCRIPTION_NOT_FOUND",
  "SUBSCRIPTION_ENDED",
  "SUBSCRIPTION_CANCELLING",
  "RENEWAL_INVOICED",
  "PLAN_NOT_FOUND",
  "SEATS_OUT_OF_RANGE",
  "NO_CHANGE",
] as const;

/** What the web calls of the server's `subscription-changes` module (`src/server/modules/subscription-changes/routes.ts`). */
export const subscriptionChangesEndpoints = {
  "POST /subscriptions/:id/change/preview": endpoint({
    params: idParams,
    body: subscriptionChangeInputSchema,
    answer: subscriptionChangePreviewSchema,
    errors: changeErrors,
  }),
  "POST /subscriptions/:id/change": endpoint({
    params: idParams,
    body: subscriptionChangeCommitSchema,
    answer: subscriptionChangeAnswerSchema,
    errors: [...changeErrors, "PREVIEW_STALE", "INVALID_ORDER_TRANSITION"],
  }),
  "POST /subscriptions/:id/restart": endpoint({
    params: idParams,
    answer: paymentRedirectSchema,
    errors: [
      "SUBSCRIPTION_NOT_FOUND",
      "SUBSCRIPTION_LIVE",
      "PLAN_NOT_FOUND",
      "PRODUCT_UNAVAILABLE",
      "INVALID_ORDER_TRANSITION",
      // Placed as checkout places an order: what checkout may answer.
      "ORDER_CANCELLED",
      "ORDER_NOT_FOUND",
      "PAYMENT_METHOD_NOT_FOUND",
      "PRICE_CHANGED",
      "SEATS_OUT_OF_RANGE",
      "SHIPPING_ADDRESS_REQUIRED",
      "TRIAL_NEEDS_CARD",
      "TRIAL_NOT_OFFERED",
      "TRIAL_USED",
    ],
  }),
} as const;
