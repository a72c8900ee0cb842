import { z } from "zod";
import { endpoint } from "#domain/endpoint";
import { subscriptionAnswerSchema, subscriptionListSchema } from "#domain/subscription-schemas";

const idParams = z.object({ id: z.uuid("Unknown subscription") });

/** What the web calls of the server's `subscriptions` module (`src/server/modules/subscriptions/routes.ts`). */
export const subscriptionsEndpoints = {
  "GET /subscriptions": endpoint({ answer: subscriptionListSchema, errors: [] }),
  "POST /subscriptions/:id/cancel": endpoint({
    params: idParams,
    answer: subscriptionAnswerSchema,
    errors: ["SUBSCRIPTION_NOT_FOUND", "SUBSCRIPTION_ENDED"],
  }),
  "POST /subscriptions/:id/resume": endpoint({
    params: idParams,
    answer: subscriptionAnswerSchema,
    errors: ["SUBSCRIPTION_NOT_FOUND", "SUBSCRIPTION_ENDED"],
  }),
} as const;

/** The renewal calendar's downloads, opened as links from the renewal desk. */
export const subscriptionsExternalEndpoints = {
  "GET /subscriptions/calendar.ics": endpoint({
    answer: { file: "text/calendar; charset=utf-8" },
    errors: [],
  }),
  "GET /subscriptions/calendar.csv": endpoint({ answer: { file: "text/csv; charset=utf-8" }, errors: [] }),
} as const;
