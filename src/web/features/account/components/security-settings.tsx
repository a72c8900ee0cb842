import { zodResolver } from "@hookform/resolvers/zod";
import { KeyRound } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import type { Me } from "#domain/accounts";
import { type ChangePasswordInput, changePasswordSchema } from "#domain/accounts";
import { ViewCard } from "#web/components/layout/view-card";
import { Button } from "#web/components/ui/button";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { useChangePassword } from "#web/features/account/api/change-password";
import { TwoFactorSettings } from "#web/features/account/components/two-factor-settings";
import { runMutation } from "#web/lib/mutation";

export function SecuritySettings({ me }: { me: Me }) {
  return (
    <ViewCard title="Security" description="Your password and how you sign in.">
      <div className="flex flex-col divide-y divide-border">
        <ChangePassword />
        <TwoFactorSettings me={me} />
      </div>
    </ViewCard>
  );
}

const emptyPasswords: ChangePasswordInput = { currentPassword: "", newPassword: "" };

function ChangePassword() {
  const [open, setOpen] = useState(false);
  const change = useChangePassword();
  const form = useForm<ChangePasswordInput>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: emptyPasswords,
  });
  const { errors, isSubmitting } = form.formState;
  const toggle = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);

  // Opening focuses the first field as it mounts (autoFocus); closing hands focus back to the toggle.
  useEffect(() => {
    if (!open && wasOpen.current) toggle.current?.focus();
    wasOpen.current = open;
  }, [open]);

  const close = () => {
    form.reset(emptyPasswords);
    setOpen(false);
  };
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await runMutation(change.mutateAsync(values), {
      success: { title: "Password changed", description: "Your other sessions have been signed out." },
      error: { title: "Error", show: "client", fallback: "Failed to change password. Please try again." },
      on: (error) => {
        if (error.code !== "INVALID_PASSWORD") return undefined;
        form.setError("currentPassword", { message: error.message }, { shouldFocus: true });
        return null;
      },
    });
    if (result.ok) close();
  });

  return (
    <div className="flex flex-col gap-4 pb-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h3 className="font-semibold">Password</h3>
          <p className="text-sm text-muted-foreground">Changing it signs you out on your other devices.</p>
        </div>
        <Button
          ref={toggle}
          variant="outline"
          aria-expanded={open}
          aria-controls="change-password-form"
          onClick={() => (open ? close() : setOpen(true))}
        >
          <KeyRound aria-hidden /> Change Password
        </Button>
      </div>
      {open && (
        <form
          id="change-password-form"
          aria-label="Change password"
          onSubmit={onSubmit}
          noValidate
          className="grid gap-4 rounded-md border border-border p-4 sm:max-w-md"
        >
          <FormField label="Current password" error={errors.currentPassword?.message}>
            <Input
              type="password"
              autoComplete="current-password"
              // Opened by a click on Change Password, so the keyboard lands where the password is typed.
              autoFocus
              {...form.register("currentPassword")}
            />
          </FormField>
          <FormField label="New password" error={errors.newPassword?.message}>
            <Input type="password" autoComplete="new-password" {...form.register("newPassword")} />
          </FormField>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? "Saving..." : "Update Password"}
            </Button>
            <Button type="button" variant="outline" onClick={close} disabled={isSubmitting}>
              Cancel
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}
