import { zodResolver } from "@hookform/resolvers/zod";
import { Pencil } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import type { Me } from "#domain/accounts";
import { type ProfileInput, profileSchema } from "#domain/accounts";
import { ViewCard } from "#web/components/layout/view-card";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { useUpdateProfile } from "#web/features/account/api/update-profile";
import { runMutation } from "#web/lib/mutation";

type ProfileValues = { [K in keyof ProfileInput]-?: string };

const fields = [
  { name: "firstName", label: "First name", autoComplete: "given-name" },
  { name: "lastName", label: "Last name", autoComplete: "family-name" },
  { name: "phone", label: "Phone", autoComplete: "tel", type: "tel" },
  { name: "address", label: "Address", autoComplete: "street-address" },
  { name: "city", label: "City", autoComplete: "address-level2" },
  { name: "country", label: "Country", autoComplete: "country-name" },
] as const;

const memberSince = new Intl.DateTimeFormat("en-US", { month: "short", day: "2-digit", year: "numeric" });

function valuesOf(me: Me): ProfileValues {
  return {
    firstName: me.firstName,
    lastName: me.lastName,
    phone: me.phone ?? "",
    address: me.address ?? "",
    city: me.city ?? "",
    country: me.country ?? "",
  };
}

/** Shown first as read-only details; Edit turns them into a form, Save or Cancel turns them back. */
export function ProfileView({ me }: { me: Me }) {
  const [editing, setEditing] = useState(false);
  const update = useUpdateProfile();
  const form = useForm<ProfileInput, unknown, z.output<typeof profileSchema>>({
    resolver: zodResolver(profileSchema),
    defaultValues: valuesOf(me),
  });
  const { errors, isSubmitting } = form.formState;
  const saved = valuesOf(me);
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);

  // Keyboard users land in the first field on Edit and back on the Edit button afterwards.
  useEffect(() => {
    if (editing) form.setFocus("firstName");
    else if (wasEditing.current) editButton.current?.focus();
    wasEditing.current = editing;
  }, [editing, form]);

  const startEditing = () => {
    form.reset(saved);
    setEditing(true);
  };
  const cancel = () => {
    form.reset(saved);
    setEditing(false);
  };
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await runMutation(update.mutateAsync(values), {
      success: { title: "Profile Updated", description: "Your profile has been successfully updated." },
      error: {
        title: "Update Failed",
        show: "client",
        fallback: "Failed to update profile. Please try again.",
      },
    });
    if (!result.ok) return;
    form.reset(valuesOf(result.data));
    setEditing(false);
  });

  return (
    <div className="flex flex-col gap-6">
      <ViewCard
        title="Profile Information"
        description="Your name and contact details."
        action={
          !editing && (
            <Button ref={editButton} variant="outline" onClick={startEditing}>
              <Pencil aria-hidden /> Edit
            </Button>
          )
        }
      >
        {editing ? (
          <form onSubmit={onSubmit} noValidate className="grid gap-5 sm:grid-cols-2">
            {fields.slice(0, 2).map((field) => (
              <FormField key={field.name} label={field.label} error={errors[field.name]?.message}>
                <Input autoComplete={field.autoComplete} {...form.register(field.name)} />
              </FormField>
            ))}
            <FormField label="E-mail" hint="Email cannot be changed" className="sm:col-span-2">
              <Input type="email" value={me.email} readOnly className="bg-muted" />
            </FormField>
            {fields.slice(2).map((field) => (
              <FormField key={field.name} label={field.label} error={errors[field.name]?.message}>
                <Input
                  type={"type" in field ? field.type : "text"}
                  autoComplete={field.autoComplete}
                  {...form.register(field.name)}
                />
              </FormField>
            ))}
            <div className="flex flex-wrap gap-2 sm:col-span-2">
              <Button type="submit" disabled={isSubmitting}>
                {isSubmitting ? "Saving..." : "Save"}
              </Button>
              <Button type="button" variant="outline" onClick={cancel} disabled={isSubmitting}>
                Cancel
              </Button>
            </div>
          </form>
        ) : (
          <dl className="grid gap-x-6 gap-y-4 sm:grid-cols-2" data-testid="profile-details">
            {fields.slice(0, 2).map((field) => (
              <Detail key={field.name} label={field.label} value={saved[field.name]} />
            ))}
            <Detail label="E-mail" value={me.email} hint="Email cannot be changed" wide />
            {fields.slice(2).map((field) => (
              <Detail key={field.name} label={field.label} value={saved[field.name]} />
            ))}
          </dl>
        )}
      </ViewCard>
      <Card asChild className="p-5 sm:p-6">
        <section aria-labelledby="account-heading">
          <h2 id="account-heading" className="text-xl font-semibold">
            Account
          </h2>
          <dl className="mt-4 grid gap-4 sm:grid-cols-2">
            <Detail label="Member since" value={memberSince.format(new Date(me.createdAt))} />
            <div>
              <dt className="text-sm text-muted-foreground">Email verified</dt>
              <dd className="mt-1">
                <Badge variant={me.emailVerified ? "success" : "outline"}>
                  {me.emailVerified ? "Yes" : "No"}
                </Badge>
              </dd>
            </div>
          </dl>
        </section>
      </Card>
    </div>
  );
}

function Detail({
  label,
  value,
  hint,
  wide,
}: {
  label: string;
  value: string;
  hint?: string;
  wide?: boolean;
}) {
  return (
    <div className={wide ? "sm:col-span-2" : undefined}>
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="mt-1 font-medium break-words">
        {value || <span className="font-normal text-muted-foreground italic">Not provided</span>}
        {hint && <span className="mt-0.5 block text-xs font-normal text-muted-foreground">{hint}</span>}
      </dd>
    </div>
  );
}
