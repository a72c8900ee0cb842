import { zodResolver } from "@hookform/resolvers/zod";
import { MailCheck } from "lucide-react";
import { useState } from "react";
import { type FieldErrors, useForm, useWatch } from "react-hook-form";
import { Link, useLocation, useNavigate } from "react-router";
import type { z } from "zod";
import {
  CODE_LENGTH,
  CODE_TTL_SECONDS,
  formatCountdown,
  RESEND_COOLDOWN_SECONDS,
  type VerifyEmailInput,
  verifyEmailSchema,
} from "#domain/accounts";
import { paths } from "#domain/routes";
import { Button } from "#web/components/ui/button";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { useSendVerificationCode } from "#web/features/auth/api/send-verification-code";
import { useVerifyEmail } from "#web/features/auth/api/verify-email";
import { AuthCard, authLinkClass } from "#web/features/auth/components/auth-card";
import { codeErrors, cooldownError, useSecondsLeft } from "#web/features/auth/components/code-timing";
import {
  type LoginState,
  readState,
  returnPath,
  type VerifyState,
} from "#web/features/auth/components/route-state";
import { runMutation, toastInvalid } from "#web/lib/mutation";

const EMAIL_REQUIRED = "Please enter your email address.";
const INCOMPLETE_CODE = "Please enter the complete 6-digit verification code.";

const secondsFromNow = (seconds: number) => Date.now() + seconds * 1000;

export function Component() {
  const navigate = useNavigate();
  const arrived = readState<VerifyState>(useLocation().state);
  // Deadlines, not counters: the remaining time is read from the clock (see useSecondsLeft).
  const [expiresAt, setExpiresAt] = useState(() => secondsFromNow(CODE_TTL_SECONDS));
  const [resendAt, setResendAt] = useState(() =>
    arrived.email && arrived.codeSent ? secondsFromNow(RESEND_COOLDOWN_SECONDS) : 0,
  );
  const secondsLeft = useSecondsLeft(expiresAt);
  const cooldown = useSecondsLeft(resendAt);
  const expired = secondsLeft === 0;

  const verify = useVerifyEmail();
  const resend = useSendVerificationCode();
  const form = useForm<VerifyEmailInput, unknown, z.output<typeof verifyEmailSchema>>({
    resolver: zodResolver(verifyEmailSchema),
    defaultValues: { email: arrived.email ?? "", code: "" },
  });
  const { errors } = form.formState;
  const [email = "", code = ""] = useWatch({ control: form.control, name: ["email", "code"] });
  const hasEmail = email.trim() !== "";
  const codeField = form.register("code");

  const onInvalid = (problems: FieldErrors<VerifyEmailInput>) => {
    const emailProblem = problems.email?.message;
    if (emailProblem) {
      toastInvalid(emailProblem === EMAIL_REQUIRED ? "Email Required" : "Invalid Email", emailProblem);
    } else if (problems.code) {
      toastInvalid("Invalid Code", INCOMPLETE_CODE);
    }
  };

  const onSubmit = form.handleSubmit(async (values) => {
    if (expired) return;
    const result = await runMutation(verify.mutateAsync(values), {
      // Verified in the browser that signed up: the server has opened the session.
      success: ({ user }) => ({
        title: "Email Verified!",
        description: user
          ? "Your email has been verified. Welcome to Stackbay!"
          : "Your email has been successfully verified. You can now log in.",
      }),
      error: { title: "Verification Failed", description: "Failed to verify the code. Please try again." },
      on: codeErrors(form),
    });
    if (!result.ok) return;
    if (result.data.user) {
      await navigate(returnPath(arrived.from, paths.dashboard()), { replace: true });
      return;
    }
    await navigate(paths.login(), {
      state: { message: "Email verified! Please log in.", email: values.email } satisfies LoginState,
    });
  }, onInvalid);

  const onResend = async () => {
    if (!hasEmail) {
      form.setError("email", { message: EMAIL_REQUIRED }, { shouldFocus: true });
      toastInvalid("Email Required", EMAIL_REQUIRED);
      return;
    }
    if (!(await form.trigger("email", { shouldFocus: true }))) return;
    const result = await runMutation(resend.mutateAsync({ email }), {
      success: { title: "Code Resent", description: "A new verification code has been sent to your email." },
      error: {
        title: "Resend Failed",
        show: "api",
        fallback: "Failed to resend the code. Please try again.",
      },
      on: (error) => {
        switch (error.code) {
          case "CODE_COOLDOWN":
            return cooldownError(error, setResendAt);
          case "MAIL_FAILED":
            return { title: "Error", description: "Failed to send verification code. Please try again." };
          default:
            return undefined;
        }
      },
    });
    if (!result.ok) return;
    setExpiresAt(secondsFromNow(result.data.expiresInSeconds ?? CODE_TTL_SECONDS));
    setResendAt(secondsFromNow(result.data.cooldownSeconds ?? RESEND_COOLDOWN_SECONDS));
    form.setValue("code", "");
    form.clearErrors("code");
  };

  return (
    <AuthCard
      title="Verify Your Email"
      description={`Enter the ${CODE_LENGTH}-digit code we sent to your e-mail address.`}
      icon={MailCheck}
      footer={
        <>
          {/* The server never says whether an address is verified (that would tell who has an
              account), so someone who already is gets a way on from here. */}
          <p>
            Already verified?{" "}
            <Link
              to={paths.login()}
              state={hasEmail ? ({ email: email.trim() } satisfies LoginState) : undefined}
              className={authLinkClass}
            >
              Log in
            </Link>
          </p>
          <Link to={paths.signup()} className={authLinkClass}>
            Back to Sign Up
          </Link>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <FormField label="E-mail" error={errors.email?.message}>
          <Input type="email" autoComplete="email" inputMode="email" {...form.register("email")} />
        </FormField>
        <FormField
          label="Verification code"
          error={errors.code?.message}
          hint={
            expired
              ? "Code expired - please go back and sign up again, or resend a new code."
              : `The ${CODE_LENGTH} digits from the e-mail.`
          }
        >
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
            disabled={expired}
            className="h-12 text-center font-mono text-2xl tracking-[0.5em]"
          />
        </FormField>
        <div className="rounded-md bg-muted px-3 py-2 text-center text-sm">
          {expired ? (
            <p role="alert" className="font-medium text-destructive">
              Code has expired
            </p>
          ) : (
            <p className="text-muted-foreground">
              Code expires in{" "}
              <span role="timer" data-testid="countdown" className="font-mono font-semibold text-foreground">
                {formatCountdown(secondsLeft)}
              </span>
            </p>
          )}
        </div>
        <Button
          type="submit"
          size="lg"
          disabled={code.length !== CODE_LENGTH || !hasEmail || expired || verify.isPending}
        >
          {verify.isPending ? "Verifying..." : "Verify Email"}
        </Button>
        <div className="flex flex-col items-center gap-1">
          <Button
            type="button"
            variant="outline"
            onClick={onResend}
            disabled={cooldown > 0 || resend.isPending}
          >
            {resend.isPending ? "Sending..." : cooldown > 0 ? `Resend Code (${cooldown}s)` : "Resend Code"}
          </Button>
          {!hasEmail && <p className="text-xs text-muted-foreground">Enter your email address first</p>}
        </div>
      </form>
    </AuthCard>
  );
}
