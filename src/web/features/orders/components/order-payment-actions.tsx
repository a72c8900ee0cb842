import { useRef, useState } from "react";
import { toast } from "sonner";
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
import { ApiError } from "#web/lib/api";
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
  const failure = (error: unknown, fallback: string) =>
    toast.error(error instanceof ApiError ? error.message : fallback, { id: `order-action-${order.id}` });

  const onPay = async () => {
    try {
      const { redirectUrl } = await pay.mutateAsync();
      setLeaving(true);
      window.scrollTo(0, 0);
      window.location.assign(redirectUrl);
    } catch (error) {
      failure(error, "Could not open the payment page. Please try again.");
    }
  };
  const onCancel = async () => {
    try {
      await cancel.mutateAsync();
      toast.success(`Order ${short} cancelled`, { id: `order-action-${order.id}` });
    } catch (error) {
      failure(error, "Could not cancel the order. Please try again.");
    }
  };
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
