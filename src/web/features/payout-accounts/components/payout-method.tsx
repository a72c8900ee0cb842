import { zodResolver } from "@hookform/resolvers/zod";
import { Banknote, Landmark, Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { countries, countryName } from "#domain/countries";
import {
  type BankAccount,
  type BankAccountInput,
  bankAccountSchema,
  type PayoutAccount,
  stripeStatusLabels,
  usesIban,
  usesIfsc,
} from "#domain/payouts";
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
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { LoadError } from "#web/components/ui/load-error";
import { NativeSelect } from "#web/components/ui/select";
import { Spinner } from "#web/components/ui/spinner";
import {
  usePayoutAccount,
  useRemovePayoutAccount,
  useSaveBankAccount,
  useStartOnboarding,
} from "#web/features/payout-accounts/api/payout-account";
import { errorText, runMutation } from "#web/lib/mutation";

/** `external_account` → "external account", `individual.verification.document` → "individual verification document". */
const requirementText = (requirement: string) => requirement.replace(/[._]/g, " ");

/**
 * "Payout method" for sellers and resellers: where their earnings are sent. A Stripe account (its
 * status, and onboarding to continue) or a bank account shown only by its last four characters.
 */
export function PayoutMethod() {
  const account = usePayoutAccount();
  return (
    <Card className="p-5 sm:p-6" data-testid="payout-method">
      <section aria-labelledby="payout-method-title">
        <h3 id="payout-method-title" className="text-lg font-semibold">
          Payout method
        </h3>
        <p className="mt-1 text-sm text-muted-foreground">
          Where we send your earnings from sales and referrals.
        </p>
        <div className="mt-5">
          {account.isPending ? (
            <Spinner className="py-8" label="Loading your payout method" />
          ) : account.isError ? (
            <LoadError what="payout method" error={account.error} onRetry={() => void account.refetch()} />
          ) : (
            <CurrentMethod account={account.data} />
          )}
        </div>
      </section>
    </Card>
  );
}

function CurrentMethod({ account }: { account: PayoutAccount | null }) {
  if (!account)
    return (
      <div
        className="rounded-lg border border-dashed border-border p-5 text-center"
        data-testid="payout-empty"
      >
        <p className="text-sm text-muted-foreground">
          No payout method yet. Connect a Stripe account or add a bank account to receive your earnings.
        </p>
        <div className="mt-4 flex flex-col justify-center gap-2 sm:flex-row">
          <ConnectStripe label="Connect with Stripe" needsCountry />
          <BankAccountDialog trigger="Add bank account" />
        </div>
      </div>
    );
  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-start gap-3 rounded-lg bg-accent p-4 text-accent-foreground">
        {account.method === "stripe" ? (
          <Banknote className="mt-0.5 size-6 shrink-0" aria-hidden />
        ) : (
          <Landmark className="mt-0.5 size-6 shrink-0" aria-hidden />
        )}
        <div className="min-w-0 flex-1">
          {account.method === "stripe" ? (
            <>
              <p className="flex flex-wrap items-center gap-2 font-medium">
                Stripe account
                <Badge
                  variant={account.status === "enabled" ? "success" : "outline"}
                  data-testid="payout-stripe-status"
                >
                  {stripeStatusLabels[account.status]}
                </Badge>
              </p>
              <p className="mt-1 text-sm">
                {account.status === "enabled"
                  ? "Stripe sends your payouts to the bank account you gave it."
                  : account.status === "onboarding"
                    ? "Finish Stripe's onboarding to receive payouts."
                    : "Stripe needs more details before it can pay you."}
              </p>
              {account.status === "restricted" && account.requirements.length > 0 && (
                <ul className="mt-2 list-disc pl-5 text-sm" aria-label="Details Stripe still needs">
                  {account.requirements.map((requirement) => (
                    <li key={requirement}>{requirementText(requirement)}</li>
                  ))}
                </ul>
              )}
            </>
          ) : (
            <>
              <p className="font-medium">
                Bank account{" "}
                <span className="whitespace-nowrap tabular-nums" data-testid="payout-bank-masked">
                  {account.masked}
                </span>
              </p>
              <p className="mt-1 text-sm">{countryName(account.country)}</p>
            </>
          )}
        </div>
      </div>
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        {account.method === "stripe" ? (
          <>
            {account.status !== "enabled" && <ConnectStripe label="Continue onboarding" />}
            <BankAccountDialog trigger="Use a bank account instead" variant="outline" />
          </>
        ) : (
          <>
            <BankAccountDialog trigger="Change bank account" variant="outline" />
            <ConnectStripe label="Connect with Stripe" needsCountry variant="outline" />
          </>
        )}
        <RemoveMethod />
      </div>
    </div>
  );
}

/**
 * Sends the browser to Stripe's onboarding (test mode: our own page). A new account asks for the
 * country first, since Stripe keeps it for good.
 */
function ConnectStripe({
  label,
  needsCountry = false,
  variant = "default",
}: {
  label: string;
  needsCountry?: boolean;
  variant?: "default" | "outline";
}) {
  const start = useStartOnboarding();
  const [open, setOpen] = useState(false);
  const [country, setCountry] = useState("");
  const [leaving, setLeaving] = useState(false);
  const go = async (input: { country?: string }) => {
    const result = await runMutation(start.mutateAsync(input), {
      error: { title: "Could not open Stripe", show: "client" },
    });
    if (!result.ok) return;
    setLeaving(true);
    window.location.assign(result.data);
  };
  const busy = start.isPending || leaving;
  if (!needsCountry)
    return (
      <Button variant={variant} disabled={busy} onClick={() => void go({})}>
        {busy ? "Opening Stripe..." : label}
      </Button>
    );
  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <AlertDialogTrigger asChild>
        <Button variant={variant}>{label}</Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <form
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            if (country) void go({ country });
          }}
        >
          <AlertDialogHeader>
            <AlertDialogTitle>Connect with Stripe</AlertDialogTitle>
            <AlertDialogDescription>
              Stripe asks for your identity and bank details on its own page, then pays you there. Choose the
              country you live in or your business is registered in; it cannot be changed later. This replaces
              any bank account you added here.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <FormField label="Country">
            <NativeSelect value={country} onChange={(event) => setCountry(event.target.value)} required>
              <option value="">Choose a country</option>
              {countries.map(({ code, name }) => (
                <option key={code} value={code}>
                  {name}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={busy}>Cancel</AlertDialogCancel>
            <Button type="submit" disabled={busy || !country}>
              {busy ? "Opening Stripe..." : "Continue to Stripe"}
            </Button>
          </AlertDialogFooter>
        </form>
      </AlertDialogContent>
    </AlertDialog>
  );
}

const emptyBankAccount: BankAccountInput = {
  holderName: "",
  country: "",
  iban: "",
  accountNumber: "",
  swift: "",
  ifsc: "",
};

/** The bank account form, in a dialog: which fields it asks for follows the bank's country. */
function BankAccountDialog({
  trigger,
  variant = "default",
}: {
  trigger: string;
  variant?: "default" | "outline";
}) {
  const save = useSaveBankAccount();
  const [open, setOpen] = useState(false);
  const form = useForm<BankAccountInput, unknown, BankAccount>({
    resolver: zodResolver(bankAccountSchema),
    defaultValues: emptyBankAccount,
  });
  const { errors, isSubmitting } = form.formState;
  const country = (form.watch("country") ?? "").toUpperCase();
  const iban = country === "" || usesIban(country);
  const ifsc = usesIfsc(country);

  const onOpenChange = (next: boolean) => {
    if (next) form.reset(emptyBankAccount);
    setOpen(next);
  };
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await runMutation(save.mutateAsync(values), {
      success: (saved) => ({
        title: "Payout method saved",
        description: saved?.method === "bank" ? `Payouts now go to ${saved.masked}.` : undefined,
      }),
      error: { title: "Could not save the bank account", show: "client" },
    });
    if (result.ok) setOpen(false);
  });

  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      <AlertDialogTrigger asChild>
        <Button variant={variant}>
          {variant === "default" && <Plus aria-hidden />} {trigger}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent className="max-w-lg">
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <AlertDialogHeader>
            <AlertDialogTitle>Bank account for payouts</AlertDialogTitle>
            <AlertDialogDescription>
              We keep these details encrypted and show only the last four characters. This replaces any other
              payout method.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <FormField label="Account holder" error={errors.holderName?.message}>
            <Input autoComplete="name" {...form.register("holderName")} />
          </FormField>
          <FormField label="Bank's country" error={errors.country?.message}>
            <NativeSelect {...form.register("country")}>
              <option value="">Choose a country</option>
              {countries.map(({ code, name }) => (
                <option key={code} value={code}>
                  {name}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          {iban ? (
            <FormField
              label="IBAN"
              error={errors.iban?.message}
              hint="For example DE89 3704 0044 0532 0130 00"
            >
              <Input autoComplete="off" spellCheck={false} {...form.register("iban")} />
            </FormField>
          ) : (
            <FormField label="Account number" error={errors.accountNumber?.message}>
              <Input autoComplete="off" spellCheck={false} {...form.register("accountNumber")} />
            </FormField>
          )}
          {ifsc ? (
            <FormField
              label="IFSC code"
              error={errors.ifsc?.message}
              hint="11 characters, for example HDFC0001234"
            >
              <Input autoComplete="off" spellCheck={false} {...form.register("ifsc")} />
            </FormField>
          ) : (
            <FormField label="SWIFT/BIC" error={errors.swift?.message} hint="8 or 11 characters">
              <Input autoComplete="off" spellCheck={false} {...form.register("swift")} />
            </FormField>
          )}
          {save.isError && (
            <p className="text-sm text-destructive" role="alert">
              {errorText(save.error, { show: "client" })}
            </p>
          )}
          <AlertDialogFooter>
            <AlertDialogCancel disabled={isSubmitting}>Cancel</AlertDialogCancel>
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? "Saving..." : "Save bank account"}
            </Button>
          </AlertDialogFooter>
        </form>
      </AlertDialogContent>
    </AlertDialog>
  );
}

function RemoveMethod() {
  const remove = useRemovePayoutAccount();
  const [open, setOpen] = useState(false);
  const confirm = async () => {
    const result = await runMutation(remove.mutateAsync(), {
      success: { title: "Payout method removed" },
      error: { title: "Could not remove the payout method", show: "client" },
    });
    if (result.ok) setOpen(false);
  };
  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <AlertDialogTrigger asChild>
        <Button variant="outline">
          <Trash2 aria-hidden /> Remove
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Remove your payout method?</AlertDialogTitle>
          <AlertDialogDescription>
            We cannot pay your earnings until you add a payout method again.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={remove.isPending}>Cancel</AlertDialogCancel>
          <Button variant="destructive" onClick={() => void confirm()} disabled={remove.isPending}>
            {remove.isPending ? "Removing..." : "Remove"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
