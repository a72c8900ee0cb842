import { zodResolver } from "@hookform/resolvers/zod";
import { LogIn, MailWarning, ShieldCheck } from "lucide-react";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useLocation, useNavigate } from "react-router";
import { toast } from "sonner";
import type { z } from "zod";
import {
  type SignInInput,
  signInSchema,
  type TwoFactorCodeInput,
  twoFactorCodeSchema,
} from "#domain/accounts";
import { paths } from "#domain/routes";
import { Button } from "#web/components/ui/button";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { useSignIn } from "#web/features/auth/api/sign-in";
import { useVerifyTwoFactor } from "#web/features/auth/api/verify-two-factor";
import { AuthCard, authLinkClass } from "#web/features/auth/components/auth-card";
import { PasswordInput } from "#web/features/auth/components/password-input";
import {
  type LoginState,
  readState,
  returnPath,
  type VerifyState,
} from "#web/features/auth/components/route-state";
import { runMutation } from "#web/lib/mutation";

export function Component() {
  const location = useLocation();
  const navigate = useNavigate();
  const arrived = readState<LoginState>(location.state);
  const [step, setStep] = useState<"password" | "two-factor">("password");
  const [unverified, setUnverified] = useState<string | null>(null);

  // A message handed over by the previous step is shown once, then dropped from history so a reload
  // does not repeat it. The fixed toast id keeps StrictMode's second effect run from doubling it.
  const { message } = arrived;
  useEffect(() => {
    if (!message) return;
    toast.success(message, { id: "login-message" });
    void navigate(`${location.pathname}${location.search}${location.hash}`, {
      replace: true,
      state: { ...readState<LoginState>(location.state), message: undefined },
    });
  }, [message, navigate, location]);

  // The spec's checkout guard message, for a visitor sent here from /checkout with a cart.
  const fromCheckout = arrived.from?.pathname === paths.checkout();
  useEffect(() => {
    if (fromCheckout) {
      toast.info("Authentication required", {
        id: "checkout-login",
        description: "Please log in to complete your order.",
      });
    }
  }, [fromCheckout]);

  const signIn = useSignIn();
  const form = useForm<SignInInput, unknown, z.output<typeof signInSchema>>({
    resolver: zodResolver(signInSchema),
    defaultValues: { email: arrived.email ?? "", password: "" },
  });
  const twoFactor = useVerifyTwoFactor();
  const codeForm = useForm<TwoFactorCodeInput, unknown, z.output<typeof twoFactorCodeSchema>>({
    resolver: zodResolver(twoFactorCodeSchema),
    defaultValues: { code: "", trustDevice: false },
  });

  useEffect(() => {
    if (step === "two-factor") codeForm.setFocus("code");
  }, [step, codeForm]);

  const welcome = { title: "Welcome back!", description: "Successfully logged in" };
  const signedIn = () => navigate(returnPath(arrived.from, paths.home()), { replace: true });
  const loginFailed = { title: "Login Failed", show: "api" } as const;

  const onSubmit = form.handleSubmit(async (values) => {
    setUnverified(null);
    const result = await runMutation(signIn.mutateAsync(values), {
      // Only a finished sign-in is welcomed; one that asks for a second factor is not over yet.
      success: (answer) => ("user" in answer ? welcome : null),
      error: loginFailed,
      on: (error) => {
        if (error.code !== "EMAIL_NOT_VERIFIED") return undefined;
        setUnverified(values.email);
        return {
          title: "Email Not Verified",
          description:
            "Please verify your email before logging in. Check your inbox for the verification code.",
        };
      },
    });
    if (!result.ok) return;
    if ("user" in result.data) return await signedIn();
    codeForm.reset({ code: "", trustDevice: false });
    setStep("two-factor");
  });

  const onTwoFactor = codeForm.handleSubmit(async (values) => {
    const result = await runMutation(twoFactor.mutateAsync(values), {
      success: welcome,
      error: loginFailed,
      on: (error) => {
        switch (error.code) {
          case "INVALID_TWO_FACTOR_CODE":
            codeForm.setError("code", { message: error.message }, { shouldFocus: true });
            return { title: "Invalid Code", description: error.message };
          case "TWO_FACTOR_EXPIRED":
          case "TOO_MANY_ATTEMPTS":
            // The pending sign-in is over (timed out, or too many wrong codes): the password is needed again.
            form.resetField("password");
            setStep("password");
            return { title: "Login Failed", description: error.message };
          default:
            return undefined;
        }
      },
    });
    if (result.ok) await signedIn();
  });

  if (step === "two-factor") {
    const { errors, isSubmitting } = codeForm.formState;
    return (
      <AuthCard
        title="Two-factor authentication"
        pageTitle="Log In"
        description="Enter the 6-digit code from your authenticator app, or one of your backup codes."
        icon={ShieldCheck}
      >
        <form onSubmit={onTwoFactor} noValidate className="grid gap-4">
          <FormField label="Authentication code" error={errors.code?.message}>
            <Input
              autoComplete="one-time-code"
              autoCapitalize="none"
              spellCheck={false}
              className="font-mono tracking-widest"
              {...codeForm.register("code")}
            />
          </FormField>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" className="size-4 accent-primary" {...codeForm.register("trustDevice")} />
            Trust this device for 30 days
          </label>
          <Button type="submit" size="lg" disabled={isSubmitting}>
            {isSubmitting ? "Verifying..." : "Verify"}
          </Button>
          <Button type="button" variant="ghost" onClick={() => setStep("password")}>
            Back to login
          </Button>
        </form>
      </AuthCard>
    );
  }

  const { errors, isSubmitting } = form.formState;
  return (
    <AuthCard
      title="Welcome Back"
      pageTitle="Log In"
      description="Log in to your Stackbay account."
      icon={LogIn}
      footer={
        <>
          <p>
            Don't have an account?{" "}
            <Link to={paths.signup()} className={authLinkClass}>
              Sign up
            </Link>
          </p>
          <p>
            Have a verification code?{" "}
            <Link to={paths.verify()} className={authLinkClass}>
              Verify your email
            </Link>
          </p>
        </>
      }
    >
      {unverified && (
        <div
          role="status"
          className="mb-5 flex gap-3 rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm"
        >
          <MailWarning className="mt-0.5 size-5 shrink-0 text-destructive" aria-hidden />
          <div className="flex flex-col items-start gap-2">
            <p>
              <span className="font-medium">Your e-mail address is not verified yet.</span> Enter the code we
              e-mailed you, or ask for a new one.
            </p>
            <Button asChild variant="outline" size="sm">
              <Link to={paths.verify()} state={{ email: unverified } satisfies VerifyState}>
                Enter verification code
              </Link>
            </Button>
          </div>
        </div>
      )}
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <FormField label="E-mail" error={errors.email?.message}>
          <Input type="email" autoComplete="email" inputMode="email" {...form.register("email")} />
        </FormField>
        <div className="grid gap-1.5">
          <FormField label="Password" error={errors.password?.message}>
            <PasswordInput autoComplete="current-password" {...form.register("password")} />
          </FormField>
          <Link to={paths.forgotPassword()} className={`${authLinkClass} justify-self-end text-sm`}>
            Forgot password?
          </Link>
        </div>
        <Button type="submit" size="lg" disabled={isSubmitting}>
          {isSubmitting ? "Logging in..." : "Log In"}
        </Button>
      </form>
    </AuthCard>
  );
}
