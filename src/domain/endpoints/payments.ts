import { z } from "zod";
import { endpoint } from "#domain/endpoint";
import {
  completePaymentBodySchema,
  orderPaymentAnswerSchema,
  paymentRedirectSchema,
  paymentsConfigSchema,
  redirectAnswerSchema,
  testPaymentChoiceSchema,
  testPaymentSessionSchema,
} from "#domain/payments";

/** What the web calls of the server's `payments` module (`src/server/modules/payments/routes.ts`). */
/** Every code this module's services can answer: the endpoints below that reach them share the list. */
const paymentsErrors = [
  "INVALID_SIGNATURE",
  "ORDER_CANCELLED",
  "ORDER_NOT_CANCELLABLE",
  "ORDER_NOT_FOUND",
  "PAYMENT_SESSION_NOT_FOUND",
  "PROVIDER_NOT_FOUND",
] as const;

export const paymentsEndpoints = {
  "GET /orders/:id/payment": endpoint({
    params: z.object({ id: z.string() }),
    answer: orderPaymentAnswerSchema,
    errors: ["ORDER_NOT_FOUND", "PAYMENT_SESSION_NOT_FOUND", "PROVIDER_NOT_FOUND"],
  }),
  "GET /payments/config": endpoint({ answer: paymentsConfigSchema, errors: [] }),
  "GET /payments/test/sessions/:ref": endpoint({
    params: z.object({ ref: z.string() }),
    answer: testPaymentSessionSchema,
    errors: ["ORDER_NOT_FOUND", "PAYMENT_SESSION_NOT_FOUND", "PROVIDER_NOT_FOUND"],
  }),
  "POST /orders/:id/cancel": endpoint({
    params: z.object({ id: z.string() }),
    answer: orderPaymentAnswerSchema,
    errors: paymentsErrors,
  }),
  "POST /orders/:id/payment": endpoint({
    params: z.object({ id: z.string() }),
    answer: paymentRedirectSchema,
    errors: paymentsErrors,
  }),
  "POST /orders/:id/payment/complete": endpoint({
    params: z.object({ id: z.string() }),
    body: completePaymentBodySchema,
    answer: orderPaymentAnswerSchema,
    errors: paymentsErrors,
  }),
  "POST /payments/test/sessions/:ref/choice": endpoint({
    params: z.object({ ref: z.string() }),
    body: testPaymentChoiceSchema,
    answer: redirectAnswerSchema,
    errors: paymentsErrors,
  }),
} as const;
