import { CreditCard, FlaskConical, Landmark, type LucideIcon, Plus, Wallet } from "lucide-react";
import { useState } from "react";
import type { SavedMethodKind, SavedPaymentMethod } from "#domain/payment-methods";
import { TEST_MODE_LABEL } from "#domain/test-mode";
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
import { useAddBankTransfer } from "#web/features/payment-methods/api/add-bank-transfer";
import { type SetupReturn, useOpenSetup } from "#web/features/payment-methods/use-open-setup";
import { runMutation } from "#web/lib/mutation";
import { cn } from "#web/lib/utils";

/** Each kind of saved method's icon, on every list of them. */
export const methodIcons: Record<SavedMethodKind, LucideIcon> = {
  card: CreditCard,
  paypal: Wallet,
  bank_transfer: Landmark,
};

/** Said beside Add Payment Method's choices. */
export const BANK_TRANSFER_NOTE = "Renewals are invoiced for payment by bank transfer";

/**
 * The choices of Add Payment Method: a card or a PayPal account (saved on the provider's page, which
 * brings the buyer back to `returnTo`), and bank transfer (added at once; not offered once saved).
 * `onAdded` hears that the bank transfer was added.
 */
export function MethodChoices({
  returnTo,
  methods,
  testMode,
  onAdded,
}: {
  returnTo: SetupReturn;
  methods: SavedPaymentMethod[];
  testMode: boolean;
  onAdded?: () => void;
}) {
  const setup = useOpenSetup(returnTo);
  const bank = useAddBankTransfer();
  const hasBankTransfer = methods.some((method) => method.kind === "bank_transfer");
  const busy = setup.busy || bank.isPending;
  const onBankTransfer = async () => {
    const result = await runMutation(bank.mutateAsync(), {
      success: (method) => ({
        title: "Bank transfer added",
        description: method.isDefault
          ? `${BANK_TRANSFER_NOTE}. It is your default payment method.`
          : `${BANK_TRANSFER_NOTE} when a subscription renews on it.`,
      }),
      error: { title: "Could not add bank transfer", show: "api", fallback: "Please try again." },
    });
    if (result.ok) onAdded?.();
  };
  const providerPage = testMode ? "on a test page; nothing is charged" : null;
  return (
    <ul className="grid gap-2" aria-label="Kinds of payment method" data-testid="payment-method-choices">
      <Choice
        icon={methodIcons.card}
        label="Card"
        note={providerPage ? `Saved ${providerPage}.` : "Saved by Stripe, on its own secure page."}
        busy={setup.busy && setup.opening === "card"}
        disabled={busy}
        onChoose={() => void setup.open("card")}
      />
      <Choice
        icon={methodIcons.paypal}
        label="PayPal"
        note={providerPage ? `Saved ${providerPage}.` : "Saved by PayPal, on its own page."}
        busy={setup.busy && setup.opening === "paypal"}
        disabled={busy}
        onChoose={() => void setup.open("paypal")}
      />
      {!hasBankTransfer && (
        <Choice
          icon={methodIcons.bank_transfer}
          label="Bank transfer"
          note={`${BANK_TRANSFER_NOTE}.`}
          busy={bank.isPending}
          disabled={busy}
          onChoose={() => void onBankTransfer()}
        />
      )}
    </ul>
  );
}

function Choice({
  icon: Icon,
  label,
  note,
  busy,
  disabled,
  onChoose,
}: {
  icon: LucideIcon;
  label: string;
  note: string;
  busy: boolean;
  disabled: boolean;
  onChoose: () => void;
}) {
  return (
    <li>
      <button
        type="button"
        disabled={disabled}
        onClick={onChoose}
        aria-busy={busy || undefined}
        className={cn(
          "flex w-full items-start gap-3 rounded-md border border-border bg-card p-3 text-left text-sm transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:opacity-60",
          busy && "border-primary",
        )}
        data-testid="payment-method-choice"
      >
        <Icon className="mt-0.5 size-5 shrink-0" aria-hidden />
        <span className="flex min-w-0 flex-col gap-0.5">
          <span className="font-medium">{busy ? `${label}: opening…` : label}</span>
          <span className="text-muted-foreground">{note}</span>
        </span>
      </button>
    </li>
  );
}

/** Test mode's word on the methods: saved on the test provider's page, and nothing ever charged. */
export function TestModeNote() {
  return (
    <p
      role="note"
      className="flex items-start gap-2 rounded-md border border-amber-400 bg-amber-100 px-3 py-2 text-xs text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
      data-testid="payment-methods-test-mode"
    >
      <FlaskConical className="mt-0.5 size-3.5 shrink-0" aria-hidden />
      <span>
        <span className="font-semibold">{TEST_MODE_LABEL}.</span> Cards and PayPal accounts are saved on a
        test page, and nothing is charged to them.
      </span>
    </p>
  );
}

/**
 * Add Payment Method: a small dialog with its choices (card, PayPal, bank transfer). A card or PayPal
 * account is saved on the provider's page, which brings the buyer back to `returnTo`.
 */
export function AddPaymentMethod({
  returnTo,
  methods,
  testMode,
  variant = "default",
}: {
  returnTo: SetupReturn;
  methods: SavedPaymentMethod[];
  testMode: boolean;
  variant?: "default" | "outline";
}) {
  const [open, setOpen] = useState(false);
  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <AlertDialogTrigger asChild>
        <Button variant={variant} data-testid="add-payment-method">
          <Plus aria-hidden /> Add Payment Method
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent data-testid="add-payment-method-dialog">
        <AlertDialogHeader>
          <AlertDialogTitle>Add Payment Method</AlertDialogTitle>
          <AlertDialogDescription>
            A saved method pays your renewals automatically. Nothing is charged when you save it.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <MethodChoices
          returnTo={returnTo}
          methods={methods}
          testMode={testMode}
          onAdded={() => setOpen(false)}
        />
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
