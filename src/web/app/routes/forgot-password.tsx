import { zodResolver } from "@hookform/resolvers/zod";
import { KeyRound } from "lucide-react";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useNavigate } from "react-router";
import type { z } from "zod";
import {
  CODE_LENGTH,
  type EmailOnlyInput,
  emailOnlySchema,
  RESEND_COOLDOWN_SECONDS,
  type ResetPasswordInput,
  resetPasswordSchema,
} from "#domain/accounts";
import { paths } from "#domain/routes";
import { Button } from "#web/components/ui/button";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { useForgotPassword } from "#web/features/auth/api/forgot-password";
import { useResetPassword } from "#web/features/auth/api/reset-password";
import { AuthCard, authLinkClass } from "#web/features/auth/components/auth-card";
import { codeErrors, cooldownError, useSecondsLeft } from "#web/features/auth/components/code-timing";
import { PasswordInput } from "#web/features/auth/components/password-input";
import type { LoginState } from "#web/features/auth/components/route-state";
import { isApiError } from "#web/lib/api";
import { runMutation } from "#web/lib/mutation";

export function Component() {
  const navigate = useNavigate();
  const [email, setEmail] = useState<string | null>(null);
  const [resendAt, setResendAt] = useState(0);
  const cooldown = useSecondsLeft(resendAt);

  const forgot = useForgotPassword();
  const emailForm = useForm<EmailOnlyInput, unknown, z.output<typeof emailOnlySchema>>({
    resolver: zodResolver(emailOnlySchema),
    defaultValues: { email: "" },
  });
  const reset = useResetPassword();
  const resetForm = useForm<ResetPasswordInput, unknown, z.output<typeof resetPasswordSchema>>({
    resolver: zodResolver(resetPasswordSchema),
    defaultValues: { email: "", code: "", password: "" },
  });
  const codeField = resetForm.register("code");

  useEffect(() => {
    if (email) resetForm.setFocus("code");
  }, [email, resetForm]);

  /** Asks for a code; true when one is on its way (or the address has no account, which looks the same). */
  const sendCode = async (address: string) => {
    const result = await runMutation(forgot.mutateAsync({ email: address }), {
      success: {
        title: "Check your email",
        description: "If an account exists for that address, we sent a 6-digit code.",
      },
      error: { title: "Request Failed", show: "api" },
      on: (error) => {
        switch (error.code) {
          case "CODE_COOLDOWN":
            return cooldownError(error, setResendAt);
          case "MAIL_FAILED":
            return { title: "Error", description: "Failed to send the code. Please try again." };
          default:
            return undefined;
        }
      },
    });
    if (result.ok) {
      setResendAt(Date.now() + (result.data.cooldownSeconds ?? RESEND_COOLDOWN_SECONDS) * 1000);
      return true;
    }
    // A code sent moments ago is still good: let the visitor enter it.
    return isApiError(result.error, "CODE_COOLDOWN");
  };

  const onRequest = emailForm.handleSubmit(async (values) => {
    if (!(await sendCode(values.email))) return;
    resetForm.reset({ email: values.email, code: "", password: "" });
    setEmail(values.email);
  });

  const onReset = resetForm.handleSubmit(async (values) => {
    const result = await runMutation(reset.mutateAsync(values), {
      success: { title: "Password changed", description: "You can now log in with your new password." },
      error: { title: "Reset Failed", show: "api" },
      on: codeErrors(resetForm),
    });
    if (!result.ok) return;
    await navigate(paths.login(), {
      state: { message: "Password changed. Please log in.", email: values.email } satisfies LoginState,
    });
  });

  const footer = (
    <p>
      Remembered it?{" "}
      <Link to={paths.login()} className={authLinkClass}>
        Back to login
      </Link>
    </p>
  );

  if (!email) {
    const { errors, isSubmitting } = emailForm.formState;
    return (
      <AuthCard
        title="Forgot your password?"
        pageTitle="Forgot Password"
        description={`Enter your account's e-mail address and we'll send you a ${CODE_LENGTH}-digit code to choose a new password.`}
        icon={KeyRound}
        footer={footer}
      >
        <form onSubmit={onRequest} noValidate className="grid gap-4">
          <FormField label="E-mail" error={errors.email?.message}>
            <Input type="email" autoComplete="email" inputMode="email" {...emailForm.register("email")} />
          </FormField>
          <Button type="submit" size="lg" disabled={isSubmitting}>
            {isSubmitting ? "Sending code..." : "Send Code"}
          </Button>
        </form>
      </AuthCard>
    );
  }

  const { errors, isSubmitting } = resetForm.formState;
  return (
    <AuthCard
      title="Reset your password"
      pageTitle="Forgot Password"
      description={
        <>
          Enter the code sent to <span className="font-medium text-foreground">{email}</span> and your new
          password.
        </>
      }
      icon={KeyRound}
      footer={footer}
    >
      <form onSubmit={onReset} noValidate className="grid gap-4">
        <FormField label="Verification code" error={errors.code?.message}>
          <Input
            {...codeField}
            onChange={(event) => {
              event.target.value = event.target.value.replace(/\D/g, "").slice(0, CODE_LENGTH);
              return codeField.onChange(event);
            }}
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={CODE_LENGTH}
            placeholder="000000"
            className="h-12 text-center font-mono text-2xl tracking-[0.5em]"
          />
        </FormField>
        <FormField label="New password" error={errors.password?.message} hint="At least 6 characters.">
          <PasswordInput autoComplete="new-password" {...resetForm.register("password")} />
        </FormField>
        <Button type="submit" size="lg" disabled={isSubmitting}>
          {isSubmitting ? "Changing password..." : "Change Password"}
        </Button>
        <div className="flex flex-wrap justify-center gap-2">
          <Button
            type="button"
            variant="outline"
            disabled={cooldown > 0 || forgot.isPending}
            onClick={() => void sendCode(email)}
          >
            {forgot.isPending ? "Sending..." : cooldown > 0 ? `Resend Code (${cooldown}s)` : "Resend Code"}
          </Button>
          <Button type="button" variant="ghost" onClick={() => setEmail(null)}>
            Use a different e-mail
          </Button>
        </div>
      </form>
    </AuthCard>
  );
}
