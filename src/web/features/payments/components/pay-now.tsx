import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "#web/components/ui/button";
import { retryPayment } from "#web/features/payments/api/order-payment";
import { runMutation } from "#web/lib/mutation";

/**
 * Opens an order's payment page as Order History's Pay now does: a new payment attempt for the order
 * (`useRetryPayment`'s call, for an order known only when it is paid: a change of plan's, made by its
 * commit), then the browser goes to the page it answers (the provider's, or the bank transfer's
 * instructions). `open` answers whether it is on its way; a failure is reported by its toast. `busy`
 * stays true once the browser is leaving, so nothing is clicked twice.
 */
export function useOpenPayment() {
  const attempt = useMutation({ mutationFn: retryPayment });
  const [leaving, setLeaving] = useState(false);
  const open = async (orderId: string) => {
    const result = await runMutation(attempt.mutateAsync(orderId), {
      error: {
        id: `order-payment-${orderId}`,
        title: "Could not open the payment page",
        show: "api",
        fallback: "Please try again.",
      },
    });
    if (!result.ok) return false;
    setLeaving(true);
    window.scrollTo(0, 0);
    window.location.assign(result.data.redirectUrl);
    return true;
  };
  return { open, busy: attempt.isPending || leaving };
}

/** Pay now for an order that awaits payment (a renewal, a change of plan); `what` ends its accessible name. */
export function PayNow({ orderId, what }: { orderId: string; what: string }) {
  const payment = useOpenPayment();
  return (
    <Button size="sm" disabled={payment.busy} onClick={() => void payment.open(orderId)}>
      {payment.busy ? "Opening…" : "Pay now"}
      <span className="sr-only"> {what}</span>
    </Button>
  );
}
