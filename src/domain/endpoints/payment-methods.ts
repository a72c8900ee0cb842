import { z } from "zod";
import { endpoint } from "#domain/endpoint";
import {
  paymentMethodAnswerSchema,
  paymentMethodListSchema,
  paymentMethodSetupInputSchema,
  paymentMethodSetupStartedSchema,
  paymentMethodSetupStateSchema,
  subscriptionMethodInputSchema,
  testSetupChoiceSchema,
  testSetupSessionSchema,
} from "#domain/payment-methods";
import { redirectAnswerSchema } from "#domain/payments";
import { subscriptionAnswerSchema } from "#domain/subscription-schemas";

const idParams = z.object({ id: z.uuid("Unknown payment method") });
const setupParams = z.object({ id: z.uuid("Unknown setup") });
const refParams = z.object({ ref: z.string().regex(/^tss_[0-9a-f]{24}$/, "Unknown setup session") });

/** What the web calls of the server's `payment-methods` module (`src/server/modules/payment-methods/routes.ts`). */
export const paymentMethodsEndpoints = {
  "GET /payment-methods": endpoint({ answer: paymentMethodListSchema, errors: [] }),
  "POST /payment-methods/setups": endpoint({
    body: paymentMethodSetupInputSchema,
    answer: paymentMethodSetupStartedSchema,
    errors: [],
  }),
  "POST /payment-methods/setups/:id/complete": endpoint({
    params: setupParams,
    answer: paymentMethodSetupStateSchema,
    errors: ["SETUP_NOT_FOUND"],
  }),
  "POST /payment-methods/bank-transfer": endpoint({ answer: paymentMethodAnswerSchema, errors: [] }),
  "POST /payment-methods/:id/default": endpoint({
    params: idParams,
    answer: paymentMethodListSchema,
    errors: ["PAYMENT_METHOD_NOT_FOUND"],
  }),
  "DELETE /payment-methods/:id": endpoint({
    params: idParams,
    answer: paymentMethodListSchema,
    errors: ["PAYMENT_METHOD_NOT_FOUND"],
  }),
  "PUT /subscriptions/:id/payment-method": endpoint({
    params: z.object({ id: z.uuid("Unknown subscription") }),
    body: subscriptionMethodInputSchema,
    answer: subscriptionAnswerSchema,
    errors: ["SUBSCRIPTION_NOT_FOUND", "SUBSCRIPTION_ENDED", "PAYMENT_METHOD_NOT_FOUND"],
  }),
  "GET /payment-methods/test/setups/:ref": endpoint({
    params: refParams,
    answer: testSetupSessionSchema,
    errors: ["SETUP_NOT_FOUND"],
  }),
  "POST /payment-methods/test/setups/:ref/choice": endpoint({
    params: refParams,
    body: testSetupChoiceSchema,
    answer: redirectAnswerSchema,
    errors: ["SETUP_NOT_FOUND"],
  }),
} as const;
