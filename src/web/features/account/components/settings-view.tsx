import { zodResolver } from "@hookform/resolvers/zod";
import { Monitor, Moon, Sun } from "lucide-react";
import { type ComponentProps, useEffect, useId } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import type { Me } from "#domain/accounts";
import { preferencesSchema } from "#domain/accounts";
import { currencies } from "#domain/currency";
import { ViewCard } from "#web/components/layout/view-card";
import { Button } from "#web/components/ui/button";
import { FormField } from "#web/components/ui/form-field";
import { NativeSelect } from "#web/components/ui/select";
import { useUpdatePreferences } from "#web/features/account/api/update-preferences";
import { AccountControl } from "#web/features/account/components/account-control";
import { SecuritySettings } from "#web/features/account/components/security-settings";
import { applyPreferences } from "#web/features/account/use-preference-sync";
import { themeStore } from "#web/features/theme/theme-store";
import { runMutation } from "#web/lib/mutation";
import { cn } from "#web/lib/utils";

const settingsSchema = preferencesSchema.required();
type SettingsValues = z.infer<typeof settingsSchema>;

function valuesOf(me: Me): SettingsValues {
  return {
    theme: me.preferences.theme ?? themeStore.get(),
    currency: me.preferences.currency,
    notifications: me.preferences.notifications,
  };
}

const themes = [
  { value: "light", label: "Light", icon: Sun },
  { value: "dark", label: "Dark", icon: Moon },
  { value: "system", label: "System", icon: Monitor },
] as const;

const toggles = [
  {
    name: "notifications.emailNotifications",
    label: "Email notifications",
    description: "Account and security messages by e-mail.",
  },
  {
    name: "notifications.orderUpdates",
    label: "Order updates",
    description: "Confirmations and status changes of your orders.",
  },
  {
    name: "notifications.marketingEmails",
    label: "Marketing emails",
    description: "Deals, new products and the occasional newsletter.",
  },
] as const;

const legendClass = "text-base font-semibold";

/** Preferences are applied here only once the server has stored them, so every device agrees. */
export function SettingsView({ me }: { me: Me }) {
  const save = useUpdatePreferences();
  const form = useForm<SettingsValues>({
    resolver: zodResolver(settingsSchema),
    defaultValues: valuesOf(me),
  });
  const { isSubmitting, errors, dirtyFields } = form.formState;

  // A currency picked in the navbar meanwhile shows up here, without undoing edits in progress.
  useEffect(() => form.reset(valuesOf(me), { keepDirtyValues: true }), [me, form]);

  const onSubmit = form.handleSubmit(async (values) => {
    const onlyCurrency = Object.keys(dirtyFields).join() === "currency";
    const result = await runMutation(save.mutateAsync(values), {
      success: { title: "Settings saved" },
      error: {
        title: "Error",
        show: "client",
        fallback: onlyCurrency
          ? "Failed to save currency preference."
          : "Failed to save settings. Please try again.",
      },
    });
    if (!result.ok) return;
    applyPreferences(result.data.preferences);
    form.reset(valuesOf(result.data));
  });

  return (
    <div className="flex flex-col gap-6">
      <ViewCard title="Settings" description="How Stackbay looks and what it sends you.">
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-8">
          <fieldset>
            <legend className={legendClass}>Appearance</legend>
            <div className="mt-3 grid grid-cols-1 gap-3 min-[440px]:grid-cols-3 sm:max-w-md">
              {themes.map(({ value, label, icon: Icon }) => (
                <label
                  key={value}
                  className="flex cursor-pointer items-center gap-3 rounded-md border border-border p-3 text-sm font-medium has-checked:border-primary has-checked:bg-accent has-checked:text-accent-foreground has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-ring"
                >
                  <input type="radio" value={value} className="accent-primary" {...form.register("theme")} />
                  <Icon className="size-4" aria-hidden />
                  {label}
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset>
            <legend className={legendClass}>Currency</legend>
            <FormField
              label="Preferred currency"
              hint="Prices across Stackbay are shown in this currency."
              error={errors.currency?.message}
              className="mt-3 sm:max-w-sm"
            >
              <NativeSelect {...form.register("currency")}>
                {currencies.map((c) => (
                  <option key={c.code} value={c.code}>
                    {`${c.code} · ${c.name} (${c.symbol})`}
                  </option>
                ))}
              </NativeSelect>
            </FormField>
          </fieldset>
          <fieldset>
            <legend className={legendClass}>Notifications</legend>
            <div className="mt-3 flex flex-col divide-y divide-border rounded-md border border-border">
              {toggles.map((toggle) => (
                <Toggle
                  key={toggle.name}
                  label={toggle.label}
                  description={toggle.description}
                  {...form.register(toggle.name)}
                />
              ))}
            </div>
          </fieldset>
          <div>
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? "Saving..." : "Save Changes"}
            </Button>
          </div>
        </form>
      </ViewCard>
      <SecuritySettings me={me} />
      <AccountControl me={me} />
    </div>
  );
}

/** A labelled checkbox drawn as an on/off switch. */
function Toggle({
  label,
  description,
  className,
  ...props
}: ComponentProps<"input"> & { label: string; description: string }) {
  const id = useId();
  return (
    <div className="flex items-center justify-between gap-4 p-4">
      <div>
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        <p id={`${id}-description`} className="text-sm text-muted-foreground">
          {description}
        </p>
      </div>
      <input
        id={id}
        type="checkbox"
        aria-describedby={`${id}-description`}
        className={cn(
          "relative h-6 w-11 shrink-0 cursor-pointer appearance-none rounded-full bg-muted-foreground/50 transition-colors checked:bg-primary",
          "before:absolute before:top-0.5 before:left-0.5 before:size-5 before:rounded-full before:bg-white before:shadow before:transition-transform checked:before:translate-x-5",
          "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring",
          className,
        )}
        {...props}
      />
    </div>
  );
}
