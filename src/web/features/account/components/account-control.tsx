import { zodResolver } from "@hookform/resolvers/zod";
import { Download, Trash2 } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { type DeleteAccountInput, deleteAccountSchema, type Me } from "#domain/accounts";
import { paths } from "#domain/routes";
import { ViewCard } from "#web/components/layout/view-card";
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
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { accountExportUrl, useDeleteAccount } from "#web/features/account/api/account-control";
import { runMutation } from "#web/lib/mutation";
import { noticeAfterLoad } from "#web/lib/notice-after-load";

/** Settings' "Your data and account": a copy of everything we hold, and deleting the account (decision 0016). */
export function AccountControl({ me }: { me: Me }) {
  return (
    <ViewCard
      title="Your data and account"
      description="Take a copy of your data, or delete your account. The privacy policy explains what each does."
    >
      <div className="flex flex-col divide-y divide-border">
        <div className="flex flex-wrap items-center justify-between gap-3 pb-6">
          <div className="min-w-0">
            <h3 className="font-semibold">Download my data</h3>
            <p className="text-sm text-muted-foreground">
              A JSON file of your profile, orders, licenses, reviews and everything else we hold about you.
            </p>
          </div>
          <Button asChild variant="outline">
            <a href={accountExportUrl} download data-testid="download-my-data">
              <Download aria-hidden /> Download my data
            </a>
          </Button>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-3 pt-6">
          <div className="min-w-0">
            <h3 className="font-semibold">Delete my account</h3>
            <p className="text-sm text-muted-foreground">
              Your personal data is erased and you are signed out. Issued invoices are kept as the law
              requires.
            </p>
          </div>
          <DeleteAccountDialog twoFactor={me.twoFactorEnabled} />
        </div>
      </div>
    </ViewCard>
  );
}

function DeleteAccountDialog({ twoFactor }: { twoFactor: boolean }) {
  const [open, setOpen] = useState(false);
  const [blocked, setBlocked] = useState<string | null>(null);
  const remove = useDeleteAccount();
  const form = useForm<DeleteAccountInput, unknown, z.output<typeof deleteAccountSchema>>({
    resolver: zodResolver(deleteAccountSchema),
    defaultValues: { password: "", code: twoFactor ? "" : undefined },
  });
  const { errors, isSubmitting } = form.formState;

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) {
      form.reset();
      setBlocked(null);
    }
  };

  const onSubmit = form.handleSubmit(async (values) => {
    setBlocked(null);
    const result = await runMutation(remove.mutateAsync(twoFactor ? values : { password: values.password }), {
      error: { title: "Error", show: "client", fallback: "Failed to delete your account. Please try again." },
      on: (error) => {
        switch (error.code) {
          case "ACCOUNT_DELETION_BLOCKED":
            setBlocked(error.message);
            return null;
          case "INVALID_PASSWORD":
            form.setError("password", { message: error.message }, { shouldFocus: true });
            return null;
          case "INVALID_TWO_FACTOR_CODE":
            form.setError("code", { message: error.message }, { shouldFocus: true });
            return null;
          default:
            return undefined;
        }
      },
    });
    if (!result.ok) return;
    // Signed out by the server: the app loads afresh at home, as signing out does, so nothing of the
    // account stays in memory and no guarded screen sees the user vanish and sends them to /login on
    // the way out. The toast is shown by that page.
    noticeAfterLoad("Account deleted", "Your account and personal data have been deleted.");
    window.location.replace(paths.home());
  });

  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      <AlertDialogTrigger asChild>
        <Button variant="destructive">
          <Trash2 aria-hidden /> Delete my account
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <AlertDialogHeader>
            <AlertDialogTitle>Delete your account?</AlertDialogTitle>
            <AlertDialogDescription>
              This cannot be undone. Your name, e-mail address, phone, addresses, password and sessions are
              erased; reviews and questions stay as "Former customer"; issued invoices are kept as the law
              requires.
            </AlertDialogDescription>
          </AlertDialogHeader>
          {blocked && (
            <p role="alert" className="rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm">
              {blocked}
            </p>
          )}
          <FormField label="Your password" hint="Confirm it's you." error={errors.password?.message}>
            <Input type="password" autoComplete="current-password" {...form.register("password")} />
          </FormField>
          {twoFactor && (
            <FormField label="Authenticator code" error={errors.code?.message}>
              <Input
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                {...form.register("code")}
              />
            </FormField>
          )}
          <AlertDialogFooter>
            <AlertDialogCancel type="button" disabled={isSubmitting}>
              Cancel
            </AlertDialogCancel>
            <Button type="submit" variant="destructive" disabled={isSubmitting}>
              {isSubmitting ? "Deleting..." : "Delete my account"}
            </Button>
          </AlertDialogFooter>
        </form>
      </AlertDialogContent>
    </AlertDialog>
  );
}
