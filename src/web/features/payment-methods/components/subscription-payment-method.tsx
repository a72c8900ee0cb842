import { useQueryClient } from "@tanstack/react-query";
import { Plus } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import type { PaymentMethodList, SavedPaymentMethod } from "#domain/payment-methods";
import type { Subscription } from "#domain/subscription-schemas";
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
import { LoadError } from "#web/components/ui/load-error";
import { Spinner } from "#web/components/ui/spinner";
import { paymentMethodsKey, usePaymentMethods } from "#web/features/payment-methods/api/get-payment-methods";
import { useSetSubscriptionMethod } from "#web/features/payment-methods/api/set-subscription-method";
import { MethodChoices, TestModeNote } from "#web/features/payment-methods/components/add-payment-method";
import { subscriptionsKey } from "#web/features/subscriptions/api/get-subscriptions";
import { runMutation } from "#web/lib/mutation";

/** The radio value of "Use my default": the subscription follows the buyer's default method. */
const DEFAULT = "default";

/**
 * Change payment method on the renewal desk: a dialog to choose what a subscription renews on, "Use my
 * default" or one of the buyer's saved methods, and Add Payment Method (saved on the provider's page,
 * which brings the buyer back to the desk).
 */
export function ChangePaymentMethod({ subscription }: { subscription: Subscription }) {
  const [open, setOpen] = useState(false);
  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <AlertDialogTrigger asChild>
        <Button
          size="sm"
          variant="link"
          className="h-auto min-h-6 justify-start px-0 text-left text-xs whitespace-normal"
          data-testid="change-payment-method"
        >
          Change payment method
          <span className="sr-only"> of {subscription.productName}</span>
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent className="max-w-lg" data-testid="payment-method-dialog">
        {/* Drawn afresh at each opening: the methods and the subscription's choice as they are now. */}
        {open && <DialogBody subscription={subscription} onDone={() => setOpen(false)} />}
      </AlertDialogContent>
    </AlertDialog>
  );
}

function DialogBody({ subscription, onDone }: { subscription: Subscription; onDone: () => void }) {
  const methods = usePaymentMethods();
  const [adding, setAdding] = useState(false);
  if (methods.isPending || methods.isError)
    return (
      <>
        <Header subscription={subscription} />
        {methods.isPending ? (
          <Spinner className="py-8" label="Loading your payment methods" />
        ) : (
          <LoadError what="payment methods" error={methods.error} onRetry={() => void methods.refetch()} />
        )}
        <AlertDialogFooter>
          <AlertDialogCancel>Close</AlertDialogCancel>
        </AlertDialogFooter>
      </>
    );
  if (adding)
    return (
      <>
        <AlertDialogHeader>
          <AlertDialogTitle>Add Payment Method</AlertDialogTitle>
          <AlertDialogDescription>
            A card or a PayPal account is saved on the provider's page, which brings you back here; then
            choose it for {subscription.productName}. Nothing is charged when you save it.
          </AlertDialogDescription>
        </AlertDialogHeader>
        {methods.data.testMode && <TestModeNote />}
        <MethodChoices
          returnTo="subscriptions"
          methods={methods.data.methods}
          testMode={methods.data.testMode}
          onAdded={() => setAdding(false)}
        />
        <AlertDialogFooter>
          <Button type="button" variant="outline" onClick={() => setAdding(false)}>
            Back
          </Button>
        </AlertDialogFooter>
      </>
    );
  return (
    <ChooseForm
      subscription={subscription}
      list={methods.data}
      onAdd={() => setAdding(true)}
      onDone={onDone}
    />
  );
}

function Header({ subscription }: { subscription: Subscription }) {
  return (
    <AlertDialogHeader>
      <AlertDialogTitle className="break-words">
        Payment method for {subscription.productName}
      </AlertDialogTitle>
      <AlertDialogDescription>
        What its renewals are charged to. Your default pays every subscription that has no method of its own.
      </AlertDialogDescription>
    </AlertDialogHeader>
  );
}

function ChooseForm({
  subscription,
  list,
  onAdd,
  onDone,
}: {
  subscription: Subscription;
  list: PaymentMethodList;
  onAdd: () => void;
  onDone: () => void;
}) {
  const { id, productName, paymentMethod } = subscription;
  const queryClient = useQueryClient();
  const save = useSetSubscriptionMethod();
  const name = useId();
  const { methods } = list;
  const defaultMethod = methods.find((method) => method.isDefault);
  const held =
    paymentMethod?.chosen && methods.some((m) => m.id === paymentMethod.id) ? paymentMethod.id : null;
  const [chosen, setChosen] = useState<string>(held ?? DEFAULT);
  const unchanged = chosen === (held ?? DEFAULT);

  const onSubmit = async () => {
    if (save.isPending) return;
    if (unchanged) return onDone();
    const paymentMethodId = chosen === DEFAULT ? null : chosen;
    const picked = methods.find((method) => method.id === paymentMethodId);
    const result = await runMutation(save.mutateAsync({ id, paymentMethodId }), {
      success: {
        id: `subscription-method-${id}`,
        title: "Payment method changed",
        description: picked
          ? `${productName} renews on ${picked.label}.`
          : defaultMethod
            ? `${productName} renews on your default, ${defaultMethod.label}.`
            : `${productName} is paid by hand on each invoice until you save a payment method.`,
      },
      error: {
        id: `subscription-method-${id}`,
        title: "Could not change the payment method",
        show: "api",
        fallback: "Please try again.",
      },
      on: (error) => {
        // Moved on elsewhere (a method removed, the subscription ended): what the dialog shows is refreshed.
        if (error.code === "PAYMENT_METHOD_NOT_FOUND")
          void queryClient.invalidateQueries({ queryKey: paymentMethodsKey });
        if (error.code === "SUBSCRIPTION_ENDED" || error.code === "SUBSCRIPTION_NOT_FOUND")
          void queryClient.invalidateQueries({ queryKey: subscriptionsKey });
        return undefined;
      },
    });
    if (result.ok) onDone();
  };

  return (
    <form
      className="grid min-w-0 gap-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit();
      }}
    >
      <Header subscription={subscription} />
      <fieldset className="grid gap-2" data-testid="payment-method-options">
        <legend className="sr-only">Renew {productName} on</legend>
        <Option
          name={name}
          value={DEFAULT}
          chosen={chosen}
          onChoose={setChosen}
          label="Use my default"
          note={
            defaultMethod
              ? `Now ${defaultMethod.label}; it follows your default if you change it.`
              : "You have no saved payment method yet, so each renewal is paid by hand on its invoice."
          }
        />
        {methods.map((method) => (
          <Option
            key={method.id}
            name={name}
            value={method.id}
            chosen={chosen}
            onChoose={setChosen}
            label={method.label}
            note={methodNote(method)}
            disabled={method.declined !== null && method.id !== held}
          />
        ))}
      </fieldset>
      <div>
        <Button
          type="button"
          variant="link"
          className="h-auto px-0"
          onClick={onAdd}
          data-testid="subscription-add-payment-method"
        >
          <Plus aria-hidden /> Add Payment Method
        </Button>
      </div>
      <AlertDialogFooter>
        <AlertDialogCancel type="button" disabled={save.isPending}>
          Cancel
        </AlertDialogCancel>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save"}
        </Button>
      </AlertDialogFooter>
    </form>
  );
}

function methodNote(method: SavedPaymentMethod): ReactNode {
  const notes = [
    method.isDefault && "Your default",
    method.kind === "card" && method.expires && `Expires ${method.expires}`,
    method.kind === "bank_transfer" && "Renewals are invoiced for payment by bank transfer",
    method.declined && `Declined: ${method.declined.trim().replace(/\.+$/, "")}. Save it again to use it`,
  ].filter(Boolean);
  return notes.length > 0 ? notes.join(" · ") : null;
}

function Option({
  name,
  value,
  chosen,
  onChoose,
  label,
  note,
  disabled = false,
}: {
  name: string;
  value: string;
  chosen: string;
  onChoose: (value: string) => void;
  label: string;
  note: ReactNode;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <label
      className="flex cursor-pointer items-start gap-3 rounded-md border border-border p-3 text-sm has-checked:border-primary has-checked:bg-accent has-checked:text-accent-foreground has-disabled:cursor-not-allowed has-disabled:opacity-60 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-ring"
      data-testid="payment-method-option"
    >
      <input
        type="radio"
        name={name}
        value={value}
        checked={chosen === value}
        onChange={() => onChoose(value)}
        disabled={disabled}
        aria-describedby={note ? `${id}-note` : undefined}
        className="mt-0.5 size-4 shrink-0 accent-primary"
      />
      <span className="flex min-w-0 flex-col gap-0.5">
        <span className="font-medium break-words">{label}</span>
        {note && (
          <span id={`${id}-note`} className="text-xs break-words text-muted-foreground">
            {note}
          </span>
        )}
      </span>
    </label>
  );
}
