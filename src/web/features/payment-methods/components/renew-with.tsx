import { CreditCard } from "lucide-react";
import type { SavedPaymentMethod } from "#domain/payment-methods";
import { Button } from "#web/components/ui/button";
import { FormField } from "#web/components/ui/form-field";
import { LoadError } from "#web/components/ui/load-error";
import { NativeSelect } from "#web/components/ui/select";
import { usePaymentMethods } from "#web/features/payment-methods/api/get-payment-methods";
import { useOpenSetup } from "#web/features/payment-methods/use-open-setup";

/** The value of "Pay each renewal by hand": no saved method is sent with the order. */
const BY_HAND = "";

/** The methods an order's subscriptions may renew on: not refused for good, and cards only for a trial that needs one. */
export const renewableMethods = (methods: readonly SavedPaymentMethod[], needsCard: boolean) =>
  methods.filter((method) => !method.declined && (!needsCard || method.kind === "card"));

/**
 * The saved method an order's subscriptions renew on (`savedMethodId`), or undefined to send none: the
 * buyer's choice while it is still offered, else the default, else the first offered (for a trial that
 * needs a card, the first card when the default is not one).
 */
export function renewWithMethod(
  methods: readonly SavedPaymentMethod[] | undefined,
  chosen: string | null,
  needsCard: boolean,
): string | undefined {
  const offered = renewableMethods(methods ?? [], needsCard);
  if (chosen !== null && offered.some((method) => method.id === chosen)) return chosen;
  return (offered.find((method) => method.isDefault) ?? offered[0])?.id;
}

/**
 * "Renew with" at checkout, for a cart with a subscription: the buyer's saved methods, the default chosen
 * to begin with, or "Pay each renewal by hand" when none is saved; and Add Payment Method, which saves a
 * card on the provider's page and comes back to the checkout (the cart is kept in the browser). For a free
 * trial that needs a card (`needsCard`) only cards are offered, and one must be chosen.
 */
export function RenewWith({
  chosen,
  onChoose,
  needsCard,
  error,
}: {
  /** The buyer's choice, null until they make one. */
  chosen: string | null;
  onChoose: (id: string) => void;
  needsCard: boolean;
  /** Why the order cannot be placed with this choice (no card for a trial that needs one). */
  error?: string;
}) {
  const methods = usePaymentMethods();
  const setup = useOpenSetup("checkout");
  const add = (
    <Button
      type="button"
      variant="link"
      className="h-auto justify-start px-0"
      disabled={setup.busy}
      onClick={() => void setup.open("card")}
      data-testid="checkout-add-payment-method"
    >
      <CreditCard aria-hidden /> {setup.busy ? "Opening…" : "Add Payment Method"}
    </Button>
  );
  const needsCardNote = needsCard && (
    <p role="note" className="rounded-md bg-muted p-3 text-sm font-medium" data-testid="trial-needs-card">
      This free trial needs a card; it is charged only when the trial ends.
    </p>
  );
  if (methods.isPending)
    return (
      <div className="grid gap-3" role="status" aria-label="Loading your payment methods">
        {needsCardNote}
        <span className="h-4 w-24 animate-pulse rounded bg-muted" aria-hidden />
        <span className="h-10 w-full animate-pulse rounded-md bg-muted" aria-hidden />
      </div>
    );
  if (methods.isError)
    return (
      <div className="grid gap-3">
        {needsCardNote}
        <LoadError what="payment methods" error={methods.error} onRetry={() => void methods.refetch()} />
      </div>
    );

  const offered = renewableMethods(methods.data.methods, needsCard);
  const value = renewWithMethod(methods.data.methods, chosen, needsCard) ?? BY_HAND;
  const chosenMethod = offered.find((method) => method.id === value);
  const hint =
    offered.length === 0
      ? needsCard
        ? "Add a card to start this free trial. Nothing is charged when you save it."
        : "Save a card or a PayPal account and your renewals are paid automatically."
      : chosenMethod?.kind === "bank_transfer"
        ? "Each renewal is invoiced for payment by bank transfer. You can change this on your Subscriptions page."
        : "Each subscription in this order renews on it. You can change this on your Subscriptions page.";
  return (
    <div className="grid gap-3" data-testid="renew-with">
      {needsCardNote}
      <FormField label="Renew with" hint={hint} error={error}>
        <NativeSelect
          value={value}
          onChange={(event) => onChoose(event.target.value)}
          data-testid="renew-with-select"
        >
          {offered.length === 0 ? (
            <option value={BY_HAND}>{needsCard ? "No saved card yet" : "Pay each renewal by hand"}</option>
          ) : (
            offered.map((method) => (
              <option key={method.id} value={method.id}>
                {method.label}
                {method.isDefault ? " (default)" : ""}
              </option>
            ))
          )}
        </NativeSelect>
      </FormField>
      <div>{add}</div>
    </div>
  );
}
