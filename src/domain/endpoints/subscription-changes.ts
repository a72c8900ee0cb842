import { z } from "zod";
import { endpoint } from "#domain/endpoint";
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
    errors: [...changeErrors, "PREVIEW_STALE"],
  }),
} as const;
