import { useRef, useState } from "react";
import type { Subscription } from "#domain/subscription-schemas";
import type { BillingInterval } from "#domain/subscriptions";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "#web/components/ui/alert-dialog";
import { Button } from "#web/components/ui/button";
import { useRestartSubscription } from "#web/features/subscription-changes/api/restart-subscription";
import { runMutation } from "#web/lib/mutation";

const intervalLabel = { month: "Monthly", year: "Yearly" } as const satisfies Record<BillingInterval, string>;

/**
 * Subscribe again on an ended subscription of the renewal desk: asks first (it may charge the saved
 * method at once), then starts it again on the same plan and seats and goes where the answer says: the
 * payment's result, or the payment page when there is no saved method to charge.
 */
export function SubscribeAgain({ subscription }: { subscription: Subscription }) {
  const { id, productName, planName, interval, quantity, paymentMethod } = subscription;
  const restart = useRestartSubscription();
  const [open, setOpen] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const busy = restart.isPending || leaving;

  const onConfirm = async () => {
    if (busy) return;
    const result = await runMutation(restart.mutateAsync(id), {
      error: {
        id: `subscription-${id}`,
        title: "Could not subscribe again",
        show: "api",
        fallback: "Please try again.",
      },
    });
    setOpen(false);
    if (!result.ok) return;
    setLeaving(true);
    // Scroll restoration keys a freshly loaded page by the same key: leave at the top, arrive at the top.
    window.scrollTo(0, 0);
    window.location.assign(result.data.redirectUrl);
  };

  const terms = `${planName ?? intervalLabel[interval]}${quantity > 1 ? ` × ${quantity}` : ""}`;
  const method =
    paymentMethod && paymentMethod.kind !== "bank_transfer" && !paymentMethod.declined
      ? `It is charged to ${paymentMethod.label}.`
      : "It is charged to your default payment method when you have one saved; otherwise you pay it on the payment page.";
  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <AlertDialogTrigger asChild>
        <Button ref={trigger} size="sm" disabled={busy} data-testid="subscribe-again">
          {busy ? "Opening…" : "Subscribe again"}
          <span className="sr-only"> to {productName}</span>
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          trigger.current?.focus();
        }}
      >
        <AlertDialogHeader>
          <AlertDialogTitle className="break-words">Subscribe to {productName} again?</AlertDialogTitle>
          <AlertDialogDescription>
            A new order starts it again on the same plan ({terms}), at the plan's price today. {method}
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={busy}>Go back</AlertDialogCancel>
          <Button onClick={() => void onConfirm()} disabled={busy}>
            {restart.isPending ? "Subscribing…" : "Subscribe again"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
