import { zodResolver } from "@hookform/resolvers/zod";
import { UserPlus } from "lucide-react";
import { type FieldErrors, useForm } from "react-hook-form";
import { Link, useNavigate } from "react-router";
import type { z } from "zod";
import { accountTypes, type SignUpInput, signUpSchema } from "#domain/accounts";
import { paths } from "#domain/routes";
import { Button } from "#web/components/ui/button";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { NativeSelect } from "#web/components/ui/select";
import { useSignUp } from "#web/features/auth/api/sign-up";
import { AuthCard, authLinkClass } from "#web/features/auth/components/auth-card";
import { PasswordInput } from "#web/features/auth/components/password-input";
import type { VerifyState } from "#web/features/auth/components/route-state";
import { isApiError } from "#web/lib/api";
import { runMutation, toastInvalid } from "#web/lib/mutation";

const empty: SignUpInput = { firstName: "", lastName: "", email: "", password: "", accountType: "buyer" };

/** The order the spec reports problems in: the first one found becomes the toast. */
const fieldOrder = ["firstName", "lastName", "email", "password", "accountType"] as const;

export function Component() {
  const navigate = useNavigate();
  const signUp = useSignUp();
  const form = useForm<SignUpInput, unknown, z.output<typeof signUpSchema>>({
    resolver: zodResolver(signUpSchema),
    defaultValues: empty,
  });
  const { errors, isSubmitting } = form.formState;

  const onInvalid = (problems: FieldErrors<SignUpInput>) => {
    const first = fieldOrder.map((name) => problems[name]?.message).find(Boolean);
    if (first) toastInvalid("Validation Error", first);
  };

  const onSubmit = form.handleSubmit(async (values) => {
    const goVerify = (email: string, codeSent: boolean) =>
      navigate(paths.verify(), { state: { email, codeSent } satisfies VerifyState });
    const result = await runMutation(signUp.mutateAsync(values), {
      success: {
        title: "Verification Code Sent",
        description: "Please check your email for the 6-digit verification code.",
      },
      error: { title: "Signup Failed", show: "api" },
      // The account exists; the code can be sent again from the verify screen.
      on: (error) =>
        error.code === "MAIL_FAILED"
          ? { title: "Error", description: "Failed to send verification code. Please try again." }
          : undefined,
    });
    if (result.ok) {
      form.reset(empty);
      await goVerify(result.data.email, true);
    } else if (isApiError(result.error, "MAIL_FAILED")) {
      form.reset(empty);
      await goVerify(values.email, false);
    }
  }, onInvalid);

  return (
    <AuthCard
      title="Join Stackbay"
      pageTitle="Sign Up"
      description="Create a buyer or seller account to save products, check out and track your orders."
      icon={UserPlus}
      footer={
        <p>
          Already have an account?{" "}
          <Link to={paths.login()} className={authLinkClass}>
            Log in
          </Link>
        </p>
      }
    >
      <form onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-2">
        <FormField label="First name" error={errors.firstName?.message}>
          <Input autoComplete="given-name" {...form.register("firstName")} />
        </FormField>
        <FormField label="Last name" error={errors.lastName?.message}>
          <Input autoComplete="family-name" {...form.register("lastName")} />
        </FormField>
        <FormField label="E-mail" error={errors.email?.message} className="sm:col-span-2">
          <Input type="email" autoComplete="email" inputMode="email" {...form.register("email")} />
        </FormField>
        <FormField
          label="Password"
          error={errors.password?.message}
          hint="At least 6 characters."
          className="sm:col-span-2"
        >
          <PasswordInput autoComplete="new-password" {...form.register("password")} />
        </FormField>
        <FormField label="Account type" error={errors.accountType?.message} className="sm:col-span-2">
          <NativeSelect {...form.register("accountType")}>
            {accountTypes.map((type) => (
              <option key={type.value} value={type.value}>
                {type.label}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <Button type="submit" size="lg" disabled={isSubmitting} className="sm:col-span-2">
          {isSubmitting ? "Creating account..." : "Create Account"}
        </Button>
      </form>
    </AuthCard>
  );
}
