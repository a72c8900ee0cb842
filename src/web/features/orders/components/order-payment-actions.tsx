import { useRef, useState } from "react";
import { BANK_TRANSFER_METHOD } from "#domain/bank-transfer";
import type { Order } from "#domain/checkout";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "#web/components/ui/alert-dialog";
import { Button } from "#web/components/ui/button";
import { useCancelOrder, useRetryPayment } from "#web/features/payments/api/order-payment";
import { runMutation } from "#web/lib/mutation";
import { cn } from "#web/lib/utils";

/**
 * Pay now and Cancel for an order that awaits payment (`awaitsPayment`): Pay now sends the buyer back
 * to the payment the order was placed with (the provider's page still open, or the bank transfer's
 * instructions), as the return page's Try again does; Cancel asks first, then cancels it on the server.
 */
export function OrderPaymentActions({ order, className }: { order: Order; className?: string }) {
  const pay = useRetryPayment(order.id);
  const cancel = useCancelOrder(order.id);
  const [leaving, setLeaving] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const short = order.id.slice(0, 8);
  // One toast per order: a second click's answer replaces the first's instead of stacking.
  const id = `order-action-${order.id}`;
  // The server words why an order cannot be paid or cancelled (already paid, cancelled, expired).
  const failure = (title: string) => ({ id, title, show: "api", fallback: "Please try again." }) as const;

  const onPay = async () => {
    const result = await runMutation(pay.mutateAsync(), {
      error: failure("Could not open the payment page"),
    });
    if (!result.ok) return;
    setLeaving(true);
    window.scrollTo(0, 0);
    window.location.assign(result.data.redirectUrl);
  };
  const onCancel = () =>
    runMutation(cancel.mutateAsync(), {
      success: { id, title: `Order ${short} cancelled` },
      error: failure("Could not cancel the order"),
    });
  const busy = pay.isPending || leaving || cancel.isPending;

  return (
    <div className={cn("flex flex-wrap gap-2", className)} data-testid="order-payment-actions">
      <Button size="sm" disabled={busy} onClick={() => void onPay()}>
        {pay.isPending || leaving ? "Opening…" : "Pay now"}
        <span className="sr-only"> for order {short}</span>
      </Button>
      <Button ref={opener} size="sm" variant="outline" disabled={busy} onClick={() => setConfirming(true)}>
        {cancel.isPending ? "Cancelling…" : "Cancel"}
        <span className="sr-only"> order {short}</span>
      </Button>
      <AlertDialog open={confirming} onOpenChange={setConfirming}>
        <AlertDialogContent
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            opener.current?.focus();
          }}
        >
          <AlertDialogHeader>
            <AlertDialogTitle>Cancel order {short}?</AlertDialogTitle>
            <AlertDialogDescription>
              {order.paymentMethod === BANK_TRANSFER_METHOD
                ? "Do not send the transfer for it."
                : "Nothing has been charged for it."}{" "}
              Once cancelled it cannot be paid; to buy these items, place a new order.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Keep order</AlertDialogCancel>
            <AlertDialogAction variant="destructive" onClick={() => void onCancel()}>
              Cancel order
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}
