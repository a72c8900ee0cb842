import { call } from "#web/lib/api";

/**
 * Back from the provider's page: asks whether the setup saved a method yet (`pending` while the provider's
 * answer is on its way). Asking again changes nothing more.
 */
export const completeSetup = (id: string) =>
  call("POST /payment-methods/setups/:id/complete", { params: { id } });
