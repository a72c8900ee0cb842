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

const idParams = z.object({ id: z.uuid("Unknown order") });
const refParams = z.object({ ref: z.string().regex(/^tps_[0-9a-f]{24}$/, "Unknown payment session") });

/** What the web calls of the server's `payments` module (`src/server/modules/payments/routes.ts`). */
export const paymentsEndpoints = {
  "GET /orders/:id/payment": endpoint({
    params: idParams,
    answer: orderPaymentAnswerSchema,
    errors: ["ORDER_NOT_FOUND"],
  }),
  "GET /payments/config": endpoint({ answer: paymentsConfigSchema, errors: [] }),
  "GET /payments/test/sessions/:ref": endpoint({
    params: refParams,
    answer: testPaymentSessionSchema,
    errors: ["PAYMENT_SESSION_NOT_FOUND"],
  }),
  "POST /orders/:id/cancel": endpoint({
    params: idParams,
    answer: orderPaymentAnswerSchema,
    errors: ["INVALID_ORDER_TRANSITION", "ORDER_NOT_CANCELLABLE", "ORDER_NOT_FOUND"],
  }),
  "POST /orders/:id/payment": endpoint({
    params: idParams,
    answer: paymentRedirectSchema,
    errors: ["INVALID_ORDER_TRANSITION", "ORDER_CANCELLED", "ORDER_NOT_FOUND"],
  }),
  "POST /orders/:id/payment/complete": endpoint({
    params: idParams,
    body: completePaymentBodySchema,
    answer: orderPaymentAnswerSchema,
    errors: ["ORDER_NOT_FOUND"],
  }),
  "POST /payments/test/sessions/:ref/choice": endpoint({
    params: refParams,
    body: testPaymentChoiceSchema,
    answer: redirectAnswerSchema,
    errors: ["PAYMENT_SESSION_NOT_FOUND"],
  }),
} as const;

/** Payment providers post their signed events here, server to server. */
export const paymentsExternalEndpoints = {
  "POST /payments/webhooks/:provider": endpoint({
    params: z.object({ provider: z.string().max(20) }),
    answer: z.object({ received: z.literal(true) }),
    errors: ["INVALID_SIGNATURE", "PROVIDER_NOT_FOUND"],
  }),
} as const;
