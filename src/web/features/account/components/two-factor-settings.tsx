import { zodResolver } from "@hookform/resolvers/zod";
import { Copy, ShieldCheck, TriangleAlert } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import type { Me } from "#domain/accounts";
import { type PasswordConfirmInput, passwordConfirmSchema, twoFactorCodeSchema } from "#domain/accounts";
import type { TwoFactorSetup } from "#domain/endpoints/account";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { useConfirmTwoFactor } from "#web/features/account/api/confirm-two-factor";
import { useDisableTwoFactor } from "#web/features/account/api/disable-two-factor";
import { useEnableTwoFactor } from "#web/features/account/api/enable-two-factor";
import { copyText } from "#web/lib/clipboard";
import { reportError, runMutation } from "#web/lib/mutation";

type Step = { kind: "idle" } | { kind: "password" } | { kind: "setup"; setup: TwoFactorSetup };

/**
 * Off: password, then the QR code, key and backup codes, then a code from the app turns it on.
 * On: password turns it off.
 */
export function TwoFactorSettings({ me }: { me: Me }) {
  const [step, setStep] = useState<Step>({ kind: "idle" });
  const action = useRef<HTMLButtonElement>(null);
  const wasBusy = useRef(false);
  const enabled = me.twoFactorEnabled;

  useEffect(() => {
    if (step.kind === "idle" && wasBusy.current) action.current?.focus();
    wasBusy.current = step.kind !== "idle";
  }, [step.kind]);

  const done = () => setStep({ kind: "idle" });

  return (
    <div className="flex flex-col gap-4 pt-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h3 className="flex items-center gap-2 font-semibold">
            Two-factor authentication
            <Badge variant={enabled ? "success" : "outline"} data-testid="two-factor-status">
              {enabled ? "On" : "Off"}
            </Badge>
          </h3>
          <p className="text-sm text-muted-foreground">
            {enabled
              ? "Signing in asks for a code from your authenticator app."
              : "Ask for a code from an authenticator app when signing in."}
          </p>
        </div>
        {step.kind === "idle" && (
          <Button
            ref={action}
            variant="outline"
            // The long label wraps on the narrowest phones instead of pushing the page sideways.
            className="h-auto min-h-9 max-w-full shrink whitespace-normal"
            onClick={() => setStep({ kind: "password" })}
          >
            <ShieldCheck aria-hidden />
            {enabled ? "Turn off" : "Enable two-factor authentication"}
          </Button>
        )}
      </div>
      {step.kind === "password" &&
        (enabled ? (
          <DisableForm onCancel={done} onDone={done} />
        ) : (
          <EnableForm onCancel={done} onSetup={(setup) => setStep({ kind: "setup", setup })} />
        ))}
      {step.kind === "setup" && <SetupForm setup={step.setup} onCancel={done} onDone={done} />}
    </div>
  );
}

function usePasswordForm() {
  const form = useForm<PasswordConfirmInput>({
    resolver: zodResolver(passwordConfirmSchema),
    defaultValues: { password: "" },
  });
  useEffect(() => form.setFocus("password"), [form]);
  const fail = (error: unknown) =>
    reportError(
      error,
      { title: "Error", show: "client", fallback: "Something went wrong. Please try again." },
      (e) => {
        if (e.code !== "INVALID_PASSWORD") return undefined;
        form.setError("password", { message: e.message }, { shouldFocus: true });
        return null;
      },
    );
  return { form, fail };
}

function PasswordForm({
  label,
  submit,
  form,
  onSubmit,
  onCancel,
}: {
  label: string;
  submit: string;
  form: ReturnType<typeof usePasswordForm>["form"];
  onSubmit: (values: PasswordConfirmInput) => Promise<void>;
  onCancel: () => void;
}) {
  const { errors, isSubmitting } = form.formState;
  return (
    <form
      aria-label={label}
      onSubmit={form.handleSubmit(onSubmit)}
      noValidate
      className="grid gap-4 rounded-md border border-border p-4 sm:max-w-md"
    >
      <FormField label="Your password" hint="Confirm it's you." error={errors.password?.message}>
        <Input type="password" autoComplete="current-password" {...form.register("password")} />
      </FormField>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? "Checking..." : submit}
        </Button>
        <Button type="button" variant="outline" onClick={onCancel} disabled={isSubmitting}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function EnableForm({
  onCancel,
  onSetup,
}: {
  onCancel: () => void;
  onSetup: (setup: TwoFactorSetup) => void;
}) {
  const enable = useEnableTwoFactor();
  const { form, fail } = usePasswordForm();
  return (
    <PasswordForm
      label="Enable two-factor authentication"
      submit="Continue"
      form={form}
      onCancel={onCancel}
      onSubmit={(values) => enable.mutateAsync(values).then(onSetup, fail)}
    />
  );
}

function DisableForm({ onCancel, onDone }: { onCancel: () => void; onDone: () => void }) {
  const disable = useDisableTwoFactor();
  const { form, fail } = usePasswordForm();
  return (
    <PasswordForm
      label="Turn off two-factor authentication"
      submit="Turn off two-factor"
      form={form}
      onCancel={onCancel}
      onSubmit={(values) =>
        disable.mutateAsync(values).then(() => {
          toast.success("Two-factor authentication turned off");
          onDone();
        }, fail)
      }
    />
  );
}

const codeSchema = twoFactorCodeSchema.pick({ code: true });

function SetupForm({
  setup,
  onCancel,
  onDone,
}: {
  setup: TwoFactorSetup;
  onCancel: () => void;
  onDone: () => void;
}) {
  const confirm = useConfirmTwoFactor();
  const form = useForm<{ code: string }>({ resolver: zodResolver(codeSchema), defaultValues: { code: "" } });
  const { errors, isSubmitting } = form.formState;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  const copyCodes = () => copyText(setup.backupCodes.join("\n"), { title: "Backup codes copied" }, "codes");

  const onSubmit = form.handleSubmit(async ({ code }) => {
    const result = await runMutation(confirm.mutateAsync({ code }), {
      success: { title: "Two-factor authentication enabled" },
      error: { title: "Error", show: "client", fallback: "Something went wrong. Please try again." },
      on: (error) => {
        if (error.code !== "INVALID_TWO_FACTOR_CODE") return undefined;
        form.setError("code", { message: error.message }, { shouldFocus: true });
        return null;
      },
    });
    if (result.ok) onDone();
  });

  return (
    <section
      aria-labelledby="two-factor-setup-heading"
      className="flex flex-col gap-5 rounded-md border border-border p-4"
      data-testid="two-factor-setup"
    >
      <h4 id="two-factor-setup-heading" ref={heading} tabIndex={-1} className="font-semibold outline-none">
        Set up your authenticator app
      </h4>
      <ol className="flex list-decimal flex-col gap-5 pl-5 text-sm">
        <li>
          <p>Scan this QR code with your authenticator app.</p>
          <img
            src={`data:image/svg+xml;utf8,${encodeURIComponent(setup.qrCodeSvg)}`}
            alt="QR code for your authenticator app"
            width={192}
            height={192}
            className="mt-3 rounded-md border border-border bg-white p-2"
          />
          <p className="mt-3 text-muted-foreground">Can't scan it? Enter this key instead:</p>
          <code
            className="mt-1 block rounded bg-muted px-2 py-1 font-mono break-all"
            data-testid="two-factor-secret"
          >
            {setup.secret}
          </code>
        </li>
        <li>
          <p>Save your backup codes.</p>
          <p className="mt-2 flex gap-2 rounded-md border border-amber-600/40 bg-amber-500/10 p-3">
            <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
            <span>
              Store these codes somewhere safe, such as a password manager. Each one signs you in once if you
              lose your phone. They are not shown again.
            </span>
          </p>
          <ul className="mt-3 grid grid-cols-2 gap-2 font-mono sm:max-w-sm" data-testid="backup-codes">
            {setup.backupCodes.map((code) => (
              <li key={code} className="rounded bg-muted px-2 py-1 text-center">
                {code}
              </li>
            ))}
          </ul>
          <Button type="button" variant="outline" size="sm" className="mt-3" onClick={copyCodes}>
            <Copy aria-hidden /> Copy backup codes
          </Button>
        </li>
        <li>
          <form
            onSubmit={onSubmit}
            noValidate
            className="grid gap-4 sm:max-w-xs"
            aria-label="Confirm two-factor code"
          >
            <FormField
              label="Code from your app"
              hint="The 6-digit code your authenticator app shows now."
              error={errors.code?.message}
            >
              <Input
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                {...form.register("code")}
              />
            </FormField>
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={isSubmitting}>
                {isSubmitting ? "Checking..." : "Turn on"}
              </Button>
              <Button type="button" variant="outline" onClick={onCancel} disabled={isSubmitting}>
                Cancel
              </Button>
            </div>
          </form>
        </li>
      </ol>
    </section>
  );
}
