import { z } from "zod";
import { endpoint } from "#domain/endpoint";
import { redirectAnswerSchema } from "#domain/payments";
import {
  bankAccountSchema,
  onboardingAnswerSchema,
  payoutAccountAnswerSchema,
  startOnboardingSchema,
  testConnectAccountSchema,
  testOnboardingChoiceSchema,
} from "#domain/payouts";

const accountIdParams = z.object({
  accountId: z.string().regex(/^acct_test_[0-9a-f]{24}$/, "Unknown connected account"),
});

/** What the web calls of the server's `payout-accounts` module (`src/server/modules/payout-accounts/routes.ts`). */
export const payoutAccountsEndpoints = {
  "DELETE /payouts/account": endpoint({
    answer: null,
    errors: ["PAYOUT_ACCOUNT_NOT_FOUND"],
  }),
  "GET /payouts/account": endpoint({ answer: payoutAccountAnswerSchema, errors: [] }),
  "GET /payouts/test/connect/:accountId": endpoint({
    params: accountIdParams,
    answer: testConnectAccountSchema,
    errors: ["CONNECT_ACCOUNT_NOT_FOUND"],
  }),
  "POST /payouts/account/stripe": endpoint({
    body: startOnboardingSchema.optional(),
    answer: onboardingAnswerSchema,
    errors: ["COUNTRY_REQUIRED"],
  }),
  "POST /payouts/test/connect/:accountId/choice": endpoint({
    params: accountIdParams,
    body: testOnboardingChoiceSchema,
    answer: redirectAnswerSchema,
    errors: ["CONNECT_ACCOUNT_NOT_FOUND"],
  }),
  "PUT /payouts/account/bank": endpoint({
    body: bankAccountSchema,
    answer: payoutAccountAnswerSchema,
    errors: [],
  }),
} as const;
