import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import type { PaymentMethodSetupState, SavedPaymentMethod } from "#domain/payment-methods";
import { completeSetup } from "#web/features/payment-methods/api/complete-setup";
import { paymentMethodsKey } from "#web/features/payment-methods/api/get-payment-methods";
import { subscriptionsKey } from "#web/features/subscriptions/api/get-subscriptions";
import { showToast } from "#web/lib/lazy-toast";
import { toastError } from "#web/lib/mutation";
import { keepScroll } from "#web/lib/scroll-restoration";

/** How many times the return asks while the provider's answer is on its way, and how far apart. */
const POLLS = 5;
const POLL_MS = 1_000;

/**
 * The setups asked about in this page load: StrictMode's second effect run, and a remount while the
 * answer is on its way, wait for the same answer instead of asking again.
 */
const checks = new Map<string, Promise<PaymentMethodSetupState>>();

async function untilDecided(id: string, cancelled: boolean): Promise<PaymentMethodSetupState> {
  for (let poll = 1; ; poll++) {
    const answer = await completeSetup(id);
    // Cancelled on the provider's page: one answer is enough; a setup still open there saved nothing.
    if (answer.state !== "pending" || cancelled || poll >= POLLS) return answer;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function check(id: string, cancelled: boolean) {
  let answer = checks.get(id);
  if (!answer) {
    answer = untilDecided(id, cancelled);
    checks.set(id, answer);
  }
  return answer;
}

/** What the buyer is told of the setup they came back from, in one toast per setup. */
function report(id: string, answer: PaymentMethodSetupState, cancelled: boolean) {
  const toast = { id: `payment-method-setup-${id}` };
  if (answer.state === "saved" && answer.method) {
    showToast("success", `${answer.method.label} saved`, {
      ...toast,
      description: answer.method.isDefault
        ? "It is your default payment method: your renewals are charged to it."
        : "Choose it for a subscription, or make it your default.",
    });
  } else if (answer.state === "failed") {
    toastError(null, {
      ...toast,
      title: "Nothing was saved",
      description: answer.reason ?? "The provider did not save it. Please try again.",
    });
  } else if (answer.state === "cancelled" || cancelled) {
    showToast("info", "Nothing was saved", {
      ...toast,
      description: "You left the provider's page before saving.",
    });
  } else {
    showToast("info", "Still being saved", {
      ...toast,
      description: "The provider has not confirmed it yet. It appears with your payment methods once it has.",
    });
  }
}

/**
 * The return from a provider's page where the buyer saved a card or a PayPal account (`?setup=<id>`, with
 * `&cancelled=1` when they cancelled there): asks whether it was saved (a few times, a second apart,
 * while the provider's answer is on its way), says so in a toast, refreshes the saved methods and the
 * subscriptions that renew on them, and takes `setup` and `cancelled` out of the address. Used by every
 * page a setup returns to: the wallet, the renewal desk and the checkout. `onSaved` hears of the method
 * saved (the checkout chooses it). `checking` is true while the answer is awaited.
 */
export function usePaymentMethodSetupReturn({
  onSaved,
}: {
  onSaved?: (method: SavedPaymentMethod) => void;
} = {}) {
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const setupId = params.get("setup");
  const cancelled = params.get("cancelled") === "1";
  const [checking, setChecking] = useState(false);
  const saved = useRef(onSaved);
  saved.current = onSaved;

  useEffect(() => {
    if (!setupId) return;
    let live = true;
    setChecking(true);
    check(setupId, cancelled)
      .then(
        (answer) => {
          if (!live) return;
          report(setupId, answer, cancelled);
          if (answer.state === "saved" && answer.method) saved.current?.(answer.method);
        },
        (error: unknown) => {
          if (!live) return;
          // Asked again on the next visit with this address: a lost answer is not a final one.
          checks.delete(setupId);
          toastError(error, {
            id: `payment-method-setup-${setupId}`,
            title: "Could not check your payment method",
            show: "api",
            fallback: "Please look at your payment methods in a moment.",
          });
        },
      )
      .finally(() => {
        if (!live) return;
        setChecking(false);
        void queryClient.invalidateQueries({ queryKey: paymentMethodsKey });
        void queryClient.invalidateQueries({ queryKey: subscriptionsKey });
        setParams(
          (current) => {
            const next = new URLSearchParams(current);
            next.delete("setup");
            next.delete("cancelled");
            return next;
          },
          // The page stays where the buyer is reading it.
          { replace: true, state: keepScroll },
        );
      });
    return () => {
      live = false;
    };
  }, [setupId, cancelled, queryClient, setParams]);

  return { checking: checking || setupId !== null };
}
