import type { PaymentMethod } from "#domain/checkout";

export type Charge = {
  orderId: string;
  /**
   * The provider's idempotency key (Stripe's `Idempotency-Key`, PayPal's `PayPal-Request-Id`): always
   * the order id, so a charge repeated after a crash or by the sweeper answers with the first charge's
   * outcome instead of taking the money again.
   */
  reference: string;
  amountUsd: string;
  method: PaymentMethod;
  email: string;
};
export type ChargeResult = { ok: true; reference: string } | { ok: false; reason: string };

/** What checkout needs from a payment provider; a real one (Stripe, PayPal) implements this. */
export type PaymentProvider = { name: string; charge(charge: Charge): Promise<ChargeResult> };

/**
 * The marketplace takes no real payments yet: every charge succeeds and the order is recorded as
 * `mock_confirmed` and paid, as the spec's checkout does. Like a real provider, the same idempotency
 * reference answers with the same charge.
 */
export const mockPaymentProvider: PaymentProvider = {
  name: "mock",
  async charge({ reference }) {
    return { ok: true, reference: `mock_${reference}` };
  },
};
