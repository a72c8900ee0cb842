import { randomUUID } from "node:crypto";
import type { PaymentMethod } from "#domain/checkout";

export type Charge = { orderId: string; amountUsd: string; method: PaymentMethod; email: string };
export type ChargeResult = { ok: true; reference: string } | { ok: false; reason: string };

/** What checkout needs from a payment provider; a real one (Stripe, PayPal) implements this. */
export type PaymentProvider = { name: string; charge(charge: Charge): Promise<ChargeResult> };

/**
 * The marketplace takes no real payments yet: every charge succeeds and the order is recorded as
 * `mock_confirmed` and paid, as the spec's checkout does.
 */
export const mockPaymentProvider: PaymentProvider = {
  name: "mock",
  async charge() {
    return { ok: true, reference: `mock_${randomUUID()}` };
  },
};
