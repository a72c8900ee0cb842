import { useState } from "react";
import type { setupReturns } from "#domain/payment-methods";
import { useStartSetup } from "#web/features/payment-methods/api/start-setup";
import { runMutation } from "#web/lib/mutation";

/** Where the provider's page sends the buyer back to. */
export type SetupReturn = (typeof setupReturns)[number];

/**
 * Sends the browser to the provider's page to save a card or a PayPal account (test mode: our test page),
 * which sends the buyer back to `returnTo` with `?setup=<id>` (`usePaymentMethodSetupReturn`). `busy`
 * stays true once the browser is leaving, so nothing is clicked twice.
 */
export function useOpenSetup(returnTo: SetupReturn) {
  const start = useStartSetup();
  const [leaving, setLeaving] = useState(false);
  const open = async (kind: "card" | "paypal") => {
    const result = await runMutation(start.mutateAsync({ kind, returnTo }), {
      error: {
        id: "payment-method-setup",
        title: kind === "card" ? "Could not open the card page" : "Could not open PayPal",
        show: "api",
        fallback: "Please try again.",
      },
    });
    if (!result.ok) return;
    setLeaving(true);
    // Scroll restoration keys a freshly loaded page by the same key: leave at the top, arrive at the top.
    window.scrollTo(0, 0);
    window.location.assign(result.data);
  };
  return { open, busy: start.isPending || leaving, opening: start.variables?.kind };
}
