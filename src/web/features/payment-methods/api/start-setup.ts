import { useMutation } from "@tanstack/react-query";
import type { PaymentMethodSetupInput } from "#domain/payment-methods";
import { call } from "#web/lib/api";

/**
 * Opens the provider's page to save a card or a PayPal account (test mode: our own test page); answers
 * where the browser goes. The provider sends the buyer back to `returnTo` with `?setup=<id>`.
 */
export const startSetup = (input: PaymentMethodSetupInput) =>
  call("POST /payment-methods/setups", { body: input }).then((r) => r.redirectUrl);

export function useStartSetup() {
  return useMutation({ mutationFn: startSetup });
}
