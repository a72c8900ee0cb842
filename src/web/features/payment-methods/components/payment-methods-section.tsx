import { TriangleAlert, WalletCards } from "lucide-react";
import { useId, useRef, useState } from "react";
import type { SavedPaymentMethod } from "#domain/payment-methods";
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
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { LoadError } from "#web/components/ui/load-error";
import { Spinner } from "#web/components/ui/spinner";
import { usePaymentMethods } from "#web/features/payment-methods/api/get-payment-methods";
import { useMakeDefaultMethod } from "#web/features/payment-methods/api/make-default";
import { useRemovePaymentMethod } from "#web/features/payment-methods/api/remove-payment-method";
import {
  AddPaymentMethod,
  BANK_TRANSFER_NOTE,
  methodIcons,
  TestModeNote,
} from "#web/features/payment-methods/components/add-payment-method";
import { usePaymentMethodSetupReturn } from "#web/features/payment-methods/use-setup-return";
import { runMutation } from "#web/lib/mutation";

const subscriptionsText = (n: number) => `${n} ${n === 1 ? "subscription" : "subscriptions"}`;

/** "Declined: <reason>. Save the card again or choose another." */
export function declinedText(method: Pick<SavedPaymentMethod, "kind" | "declined">): string | null {
  if (!method.declined) return null;
  const reason = method.declined.trim().replace(/\.+$/, "");
  const again = method.kind === "paypal" ? "Save the PayPal account again" : "Save the card again";
  return `Declined: ${reason}. ${again} or choose another.`;
}

/**
 * The Wallet's "Payment methods": the buyer's saved cards, PayPal accounts and bank transfer, which pay
 * their renewals. Each with its expiry, whether it is the default, how many subscriptions renew on it and
 * a refusal for good; Make default and Remove; Add Payment Method. Also where a setup started here
 * returns (`?setup=<id>`).
 */
export function PaymentMethodsSection() {
  const methods = usePaymentMethods();
  const { checking } = usePaymentMethodSetupReturn();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  return (
    <Card className="p-5 sm:p-6" data-testid="payment-methods">
      <section aria-labelledby={headingId} aria-busy={checking || methods.isPending}>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0 flex-1 basis-64">
            <h3 ref={heading} id={headingId} tabIndex={-1} className="text-lg font-semibold outline-none">
              Payment methods
            </h3>
            <p className="mt-1 text-sm text-muted-foreground">
              What your renewals are charged to. The default pays every subscription that has no method of its
              own.
            </p>
          </div>
          {methods.data && (
            <AddPaymentMethod
              returnTo="wallet"
              methods={methods.data.methods}
              testMode={methods.data.testMode}
            />
          )}
        </div>
        {methods.data?.testMode && (
          <div className="mt-4">
            <TestModeNote />
          </div>
        )}
        {checking && (
          <p
            className="mt-4 text-sm text-muted-foreground"
            role="status"
            data-testid="payment-method-checking"
          >
            Checking the payment method you just saved…
          </p>
        )}
        <div className="mt-5">
          {methods.isPending ? (
            <Spinner className="py-8" label="Loading your payment methods" />
          ) : methods.isError ? (
            <LoadError what="payment methods" error={methods.error} onRetry={() => void methods.refetch()} />
          ) : methods.data.methods.length === 0 ? (
            <NoMethods />
          ) : (
            <ul className="grid gap-3" aria-labelledby={headingId} data-testid="payment-method-list">
              {methods.data.methods.map((method) => (
                <MethodRow
                  key={method.id}
                  method={method}
                  others={methods.data.methods.filter((other) => other.id !== method.id)}
                  onGone={() => heading.current?.focus()}
                />
              ))}
            </ul>
          )}
        </div>
      </section>
    </Card>
  );
}

function NoMethods() {
  return (
    <div
      className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-border px-4 py-8 text-center"
      data-testid="payment-methods-empty"
    >
      <WalletCards className="size-8 text-muted-foreground" aria-hidden />
      <p className="font-semibold">No saved payment methods</p>
      <p className="max-w-md text-sm text-muted-foreground">
        Save a card or a PayPal account and your renewals are paid automatically. Until then, you pay each
        renewal by hand from its invoice.
      </p>
    </div>
  );
}

function MethodRow({
  method,
  others,
  onGone,
}: {
  method: SavedPaymentMethod;
  /** The buyer's other methods: what becomes of its subscriptions when it is removed. */
  others: SavedPaymentMethod[];
  /** It was removed: the keyboard goes back to the section. */
  onGone: () => void;
}) {
  const Icon = methodIcons[method.kind];
  const declined = declinedText(method);
  return (
    <Card
      asChild
      flat
      className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start"
      data-testid="payment-method"
    >
      <li>
        <Icon className="hidden size-6 shrink-0 text-muted-foreground sm:mt-0.5 sm:block" aria-hidden />
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <p className="flex flex-wrap items-center gap-2">
            <span className="font-medium break-words" data-testid="payment-method-label">
              {method.label}
            </span>
            {method.isDefault && <Badge data-testid="payment-method-default">Default</Badge>}
          </p>
          {method.kind === "card" && method.expires && (
            <p className="text-sm text-muted-foreground" data-testid="payment-method-expires">
              Expires {method.expires}
            </p>
          )}
          {method.kind === "bank_transfer" && (
            <p className="text-sm text-muted-foreground">{BANK_TRANSFER_NOTE}.</p>
          )}
          {method.subscriptions > 0 && (
            <p className="text-sm" data-testid="payment-method-subscriptions">
              Renews {subscriptionsText(method.subscriptions)}
            </p>
          )}
          {declined && (
            <p
              className="mt-1 flex items-start gap-2 text-sm font-medium text-amber-800 dark:text-amber-300"
              data-testid="payment-method-declined"
            >
              <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
              {declined}
            </p>
          )}
        </div>
        <div className="flex flex-wrap gap-2 sm:justify-end">
          {!method.isDefault && <MakeDefault method={method} />}
          <RemoveMethod method={method} others={others} onGone={onGone} />
        </div>
      </li>
    </Card>
  );
}

function MakeDefault({ method }: { method: SavedPaymentMethod }) {
  const makeDefault = useMakeDefaultMethod();
  const onClick = () => {
    if (makeDefault.isPending) return;
    void runMutation(makeDefault.mutateAsync(method.id), {
      success: {
        id: "payment-method-default",
        title: `${method.label} is your default`,
        description: "Subscriptions without a method of their own renew on it.",
      },
      error: {
        id: "payment-method-default",
        title: "Could not change your default",
        show: "api",
        fallback: "Please try again.",
      },
    });
  };
  return (
    <Button
      size="sm"
      variant="outline"
      // Not `disabled` while it works: a disabled button loses the keyboard focus.
      aria-disabled={makeDefault.isPending || undefined}
      aria-label={`Make default: ${method.label}`}
      onClick={onClick}
    >
      {makeDefault.isPending ? "Saving…" : "Make default"}
    </Button>
  );
}

/** What removing `method` does to the subscriptions that renew on it. */
function removalText(method: SavedPaymentMethod, others: SavedPaymentMethod[]): string {
  const n = method.subscriptions;
  if (n === 0) return "No subscription renews on it now.";
  const its = n === 1 ? "The subscription that renews on it" : `The ${n} subscriptions that renew on it`;
  const fallback = method.isDefault ? undefined : others.find((other) => other.isDefault);
  if (fallback) return `${its} will renew on your default, ${fallback.label}.`;
  if (method.isDefault && others.length > 0)
    return `${its} will renew on your new default, another of your saved methods.`;
  return `${its} will then be paid by hand on each invoice.`;
}

function RemoveMethod({
  method,
  others,
  onGone,
}: {
  method: SavedPaymentMethod;
  others: SavedPaymentMethod[];
  onGone: () => void;
}) {
  const remove = useRemovePaymentMethod();
  const [open, setOpen] = useState(false);
  const removed = useRef(false);
  const confirm = async () => {
    if (remove.isPending) return;
    const result = await runMutation(remove.mutateAsync(method.id), {
      success: { title: `${method.label} removed` },
      error: { title: "Could not remove the payment method", show: "api", fallback: "Please try again." },
    });
    if (!result.ok) return;
    removed.current = true;
    setOpen(false);
  };
  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <AlertDialogTrigger asChild>
        <Button size="sm" variant="outline" aria-label={`Remove: ${method.label}`}>
          Remove
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent
        onCloseAutoFocus={(event) => {
          // Its button is gone with it: the keyboard goes back to the list's heading.
          if (!removed.current) return;
          event.preventDefault();
          onGone();
        }}
      >
        <AlertDialogHeader>
          <AlertDialogTitle className="break-words">Remove {method.label}?</AlertDialogTitle>
          <AlertDialogDescription>
            {removalText(method, others)} You can save it again at any time.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={remove.isPending}>Cancel</AlertDialogCancel>
          <Button variant="destructive" onClick={() => void confirm()} disabled={remove.isPending}>
            {remove.isPending ? "Removing…" : "Remove"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
