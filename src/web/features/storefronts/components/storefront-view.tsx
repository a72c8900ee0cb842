import { zodResolver } from "@hookform/resolvers/zod";
import { ExternalLink, ImageUp, X } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { useForm } from "react-hook-form";
import { Link } from "react-router";
import type { Me } from "#domain/accounts";
import { hasRole } from "#domain/accounts";
import { countries } from "#domain/countries";
import { imageFileProblem } from "#domain/product-admin";
import { paths } from "#domain/routes";
import {
  STOREFRONT_DESCRIPTION_MAX,
  type Storefront,
  type StorefrontInput,
  type StorefrontValues,
  storefrontChangeLabel,
  storefrontInitials,
  storefrontInputSchema,
} from "#domain/storefronts";
import { ViewCard } from "#web/components/layout/view-card";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { FormField, Textarea } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { LoadError } from "#web/components/ui/load-error";
import { NativeSelect } from "#web/components/ui/select";
import { Spinner } from "#web/components/ui/spinner";
import { useMyStorefront, useSaveStorefront } from "#web/features/storefronts/api/storefronts";
import { uploadImage } from "#web/features/uploads/api/upload-image";
import { runMutation } from "#web/lib/mutation";

/** The seller's "Storefront" view: the public face of their account, and its link. */
export function StorefrontView({ me }: { me: Me }) {
  const query = useMyStorefront();
  const seller = hasRole(me.roles, "seller");
  return (
    <ViewCard
      title="Storefront"
      description="Your public page: buyers reach it from every product of yours. Its name is the vendor shown on all your products."
      action={
        query.data && (
          <Button asChild variant="outline" size="sm">
            <Link to={paths.vendor(query.data.storefront.slug)}>
              <ExternalLink aria-hidden /> View storefront
            </Link>
          </Button>
        )
      }
    >
      {!seller ? (
        <p className="text-sm text-muted-foreground">Storefronts are for sellers.</p>
      ) : query.isPending ? (
        <Spinner label="Loading your storefront" />
      ) : query.isError ? (
        <LoadError what="storefront" error={query.error} onRetry={() => query.refetch()} />
      ) : (
        <StorefrontForm
          key={`${query.data.storefront.updatedAt} ${query.data.storefront.pendingChange?.submittedAt ?? ""} ${query.data.storefront.pendingChange?.status ?? ""}`}
          storefront={query.data.storefront}
        />
      )}
    </ViewCard>
  );
}

function StorefrontForm({ storefront }: { storefront: Storefront }) {
  const save = useSaveStorefront();
  const change = storefront.pendingChange;
  // The form shows the name and logo asked for while they wait, so saving other fields keeps the request.
  const asked = change?.status === "pending" ? change : storefront;
  const form = useForm<StorefrontInput, unknown, StorefrontValues>({
    resolver: zodResolver(storefrontInputSchema),
    defaultValues: {
      name: asked.name,
      description: storefront.description ?? "",
      website: storefront.website ?? "",
      country: storefront.country ?? "",
      logoUrl: asked.logoUrl ?? "",
    },
  });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    await runMutation(save.mutateAsync(values), {
      success: (saved) =>
        saved.storefront.pendingChange?.status === "pending"
          ? {
              title: "Storefront saved",
              description: "Your new name and logo show once an admin approves them.",
            }
          : { title: "Storefront saved" },
      error: { title: "Storefront not saved", show: "client" },
    });
  });
  const logoUrl = form.watch("logoUrl") || null;
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Storefront" className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
        <span>
          Address: <code className="break-all text-foreground">{paths.vendor(storefront.slug)}</code>
        </span>
        {storefront.isVerified && change?.status !== "pending" && (
          <Badge variant="success">Verified vendor</Badge>
        )}
      </div>
      {change && (
        <div
          role="status"
          data-testid="storefront-change-status"
          className={
            change.status === "pending"
              ? "flex flex-col gap-1 rounded-md border border-border bg-muted p-3 text-sm"
              : "flex flex-col gap-1 rounded-md border border-destructive/40 p-3 text-sm text-destructive"
          }
        >
          <span className="flex flex-wrap items-center gap-2 font-medium">
            <Badge variant={change.status === "pending" ? "secondary" : "outline"}>
              {change.status === "pending" ? "Pending review" : "Rejected"}
            </Badge>
            {storefrontChangeLabel(change)}
          </span>
          {change.status === "pending" && (
            <span className="text-muted-foreground">
              Shown now: {storefront.name}
              {storefront.isVerified ? ". Your Verified badge is hidden until the change is approved." : "."}
            </span>
          )}
        </div>
      )}
      <LogoField
        name={form.watch("name") || storefront.name}
        url={logoUrl}
        error={errors.logoUrl?.message}
        onChange={(url) => form.setValue("logoUrl", url ?? "", { shouldDirty: true })}
      />
      <FormField label="Storefront name" error={errors.name?.message}>
        <Input autoComplete="organization" maxLength={80} {...form.register("name")} />
      </FormField>
      <FormField
        label="Description"
        error={errors.description?.message}
        hint={`What you sell and for whom, up to ${STOREFRONT_DESCRIPTION_MAX} characters.`}
      >
        <Textarea maxLength={STOREFRONT_DESCRIPTION_MAX} {...form.register("description")} />
      </FormField>
      {/* Side by side only where a country's name still fits its half (not beside the dashboard's menu at 768 px). */}
      <div className="grid gap-5 lg:grid-cols-2">
        <FormField label="Website" error={errors.website?.message} hint="A full https:// address.">
          <Input type="url" inputMode="url" placeholder="https://" {...form.register("website")} />
        </FormField>
        <FormField label="Country" error={errors.country?.message}>
          <NativeSelect autoComplete="country" {...form.register("country")}>
            <option value="">Not shown</option>
            {countries.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </NativeSelect>
        </FormField>
      </div>
      <div>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? "Saving…" : "Save storefront"}
        </Button>
      </div>
    </form>
  );
}

/** The logo: uploaded as soon as it is picked (checked by the server), shown at once, removable. */
function LogoField({
  name,
  url,
  error,
  onChange,
}: {
  name: string;
  url: string | null;
  error?: string;
  onChange: (url: string | null) => void;
}) {
  const id = useId();
  const [uploading, setUploading] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  useEffect(() => setProblem(error), [error]);
  const pick = async (file: File | undefined) => {
    if (!file) return;
    const local = imageFileProblem(file);
    if (local) return setProblem(local);
    setProblem(undefined);
    setUploading(true);
    const result = await runMutation(uploadImage(file), {
      error: { title: "The logo could not be uploaded", description: "Please try again." },
      // What the server found wrong with the file (type, size) is said on the field, not in a toast.
      on: (failure) => {
        setProblem(failure.message);
        return null;
      },
    });
    setUploading(false);
    if (result.ok) onChange(result.data.url);
  };
  return (
    <div className="flex flex-col gap-2">
      <span className="text-sm font-medium" id={`${id}-label`}>
        Logo
      </span>
      <div className="flex flex-wrap items-center gap-4">
        {url ? (
          <img
            src={url}
            alt="Logo preview"
            className="size-20 rounded-xl border border-border object-cover"
            data-testid="logo-preview"
          />
        ) : (
          <div
            className="flex size-20 items-center justify-center rounded-xl bg-primary/10 text-xl font-bold text-primary"
            aria-hidden
          >
            {storefrontInitials(name)}
          </div>
        )}
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline" size="sm" disabled={uploading}>
            <label htmlFor={`${id}-file`} className="cursor-pointer">
              <ImageUp aria-hidden /> {uploading ? "Uploading…" : url ? "Change logo" : "Upload logo"}
            </label>
          </Button>
          <input
            id={`${id}-file`}
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif,image/avif"
            className="sr-only"
            aria-labelledby={`${id}-label`}
            aria-describedby={problem ? `${id}-error` : undefined}
            disabled={uploading}
            onChange={(event) => {
              void pick(event.target.files?.[0]);
              event.target.value = "";
            }}
          />
          {url && (
            <Button type="button" variant="ghost" size="sm" onClick={() => onChange(null)}>
              <X aria-hidden /> Remove
            </Button>
          )}
        </div>
      </div>
      {problem ? (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {problem}
        </p>
      ) : (
        <p className="text-xs text-muted-foreground">
          A square picture looks best; JPEG, PNG or WebP under 5 MB.
        </p>
      )}
    </div>
  );
}
