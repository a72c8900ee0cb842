import { zodResolver } from "@hookform/resolvers/zod";
import { type RefObject, useId, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import {
  type SellerApiKey,
  type SellerApiKeyInput,
  type SellerApiKeyIssued,
  sellerApiKeyInputSchema,
  sellerApiScopeInfo,
  sellerApiScopes,
} from "#domain/seller-api";
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
import { OneTimeSecret } from "#web/components/ui/one-time-secret";
import { useCreateApiKey } from "#web/features/seller-api/api/create-api-key";
import { useRevokeApiKey } from "#web/features/seller-api/api/revoke-api-key";
import { useRollApiKey } from "#web/features/seller-api/api/roll-api-key";
import { runMutation } from "#web/lib/mutation";

/**
 * Where the keyboard focus goes when a dialog opened from a button closes: back to that button, or, when
 * it has left the page (the empty state's button once a key exists, a revoked key's actions), to
 * `fallback`, the keys' heading.
 */
export function useReturnFocus(fallback: RefObject<HTMLElement | null>) {
  const opener = useRef<HTMLElement | null>(null);
  return {
    remember: () => {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    },
    onCloseAutoFocus: (event: Event) => {
      event.preventDefault();
      const back = opener.current?.isConnected ? opener.current : fallback.current;
      back?.focus();
    },
  };
}

/**
 * A key's whole secret, shown once (made or rolled): in a read-only field, selected, with a Copy button,
 * and the warning that it is not shown again. Closing the dialog is the only way on.
 */
function SecretStep({
  issued,
  rolled,
  onDone,
}: {
  issued: SellerApiKeyIssued;
  rolled: boolean;
  onDone: () => void;
}) {
  return (
    <OneTimeSecret
      title={rolled ? "New secret for your key" : "Your new API key"}
      description={
        rolled
          ? `“${issued.key.name}” now answers only to this key. Put it where your systems keep their secrets.`
          : `“${issued.key.name}” is ready. Put it where your systems keep their secrets and send it as a bearer token.`
      }
      lost="Stackbay keeps only a fingerprint of it. If you lose it, roll the key for a new secret."
      label="Secret key"
      secret={issued.secret}
      what="key"
      copied={{ title: "API key copied", description: issued.key.name }}
      testId="api-key-secret"
      onDone={onDone}
    />
  );
}

type FormValues = z.output<typeof sellerApiKeyInputSchema>;

/** The new key's name and scopes, checked with the API's own schema; the limit's answer shows in the form. */
function CreateKeyForm({ onCreated }: { onCreated: (issued: SellerApiKeyIssued) => void }) {
  const create = useCreateApiKey();
  const form = useForm<SellerApiKeyInput, unknown, FormValues>({
    resolver: zodResolver(sellerApiKeyInputSchema),
    defaultValues: { name: "", scopes: [] },
  });
  const { errors, isSubmitting } = form.formState;
  const id = useId();
  const scopesError = errors.scopes?.message ?? errors.scopes?.root?.message;

  const onSubmit = form.handleSubmit(async (values) => {
    const result = await runMutation(create.mutateAsync(values), {
      error: { title: "Failed to create the key", show: "client" },
      on: (error) => {
        if (error.code !== "API_KEY_LIMIT") return undefined;
        form.setError("root", { message: error.message });
        return null;
      },
    });
    if (result.ok) onCreated(result.data);
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label="New API key">
      <AlertDialogHeader>
        <AlertDialogTitle>Create key</AlertDialogTitle>
        <AlertDialogDescription>
          Give each system its own key, with only the scopes it needs.
        </AlertDialogDescription>
      </AlertDialogHeader>
      <FormField
        label="Name"
        error={errors.name?.message}
        hint="Where the key is used, such as “Warehouse sync”."
      >
        <Input autoComplete="off" {...form.register("name")} />
      </FormField>
      <fieldset
        className="flex min-w-0 flex-col gap-2"
        aria-describedby={scopesError ? `${id}-scopes-error` : undefined}
      >
        <legend className="mb-1.5 text-sm font-medium">Scopes</legend>
        {sellerApiScopes.map((scope) => (
          <label
            key={scope}
            className="flex cursor-pointer items-start gap-3 rounded-md border border-border p-3 has-checked:border-primary has-focus-visible:outline-2 has-focus-visible:outline-ring"
          >
            <input
              type="checkbox"
              value={scope}
              className="mt-0.5 size-4 shrink-0 accent-primary focus-visible:outline-none"
              aria-labelledby={`${id}-${scope}`}
              aria-describedby={`${id}-${scope}-grants`}
              aria-invalid={Boolean(scopesError)}
              {...form.register("scopes")}
            />
            <span className="flex min-w-0 flex-col gap-0.5">
              <span id={`${id}-${scope}`} className="text-sm font-medium">
                {sellerApiScopeInfo[scope].label}
              </span>
              <span id={`${id}-${scope}-grants`} className="text-xs text-muted-foreground">
                {sellerApiScopeInfo[scope].grants}
              </span>
            </span>
          </label>
        ))}
        {scopesError && (
          <p id={`${id}-scopes-error`} className="text-sm text-destructive">
            {scopesError}
          </p>
        )}
      </fieldset>
      {errors.root?.message && (
        <p role="alert" className="text-sm text-destructive" data-testid="api-key-limit">
          {errors.root.message}
        </p>
      )}
      <AlertDialogFooter>
        <AlertDialogCancel type="button" disabled={isSubmitting}>
          Cancel
        </AlertDialogCancel>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? "Creating..." : "Create key"}
        </Button>
      </AlertDialogFooter>
    </form>
  );
}

/**
 * "Create key": the form, then the new key's secret in the same dialog. Closing it (Done, Cancel, Escape)
 * leaves the list, which by then shows the key. It lives above the list and its empty state, so the
 * secret stays on screen while the list it changed is read again.
 */
export function CreateKeyDialog({
  open,
  onOpenChange,
  onCloseAutoFocus,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus: (event: Event) => void;
}) {
  const [issued, setIssued] = useState<SellerApiKeyIssued | null>(null);
  const change = (next: boolean) => {
    onOpenChange(next);
    if (!next) setIssued(null);
  };
  return (
    <AlertDialog open={open} onOpenChange={change}>
      <AlertDialogContent onCloseAutoFocus={onCloseAutoFocus} data-testid="create-api-key-dialog">
        {issued ? (
          <SecretStep issued={issued} rolled={false} onDone={() => change(false)} />
        ) : (
          <CreateKeyForm onCreated={setIssued} />
        )}
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** "Roll secret": a question first (the old secret stops at once), then the new secret, once. */
export function RollKeyButton({ apiKey }: { apiKey: SellerApiKey }) {
  const [open, setOpen] = useState(false);
  const [issued, setIssued] = useState<SellerApiKeyIssued | null>(null);
  const roll = useRollApiKey();
  const change = (next: boolean) => {
    setOpen(next);
    if (!next) setIssued(null);
  };
  const confirm = async () => {
    const result = await runMutation(roll.mutateAsync(apiKey.id), {
      error: { title: "Failed to roll the secret", show: "client" },
      on: (error) => {
        // Revoked or gone meanwhile (another tab): the question no longer stands; the server says why.
        if (error.code === "API_KEY_REVOKED" || error.code === "API_KEY_NOT_FOUND") change(false);
        return undefined;
      },
    });
    if (result.ok) setIssued(result.data);
  };
  return (
    <AlertDialog open={open} onOpenChange={change}>
      <AlertDialogTrigger asChild>
        <Button size="sm" variant="outline" aria-label={`Roll secret: ${apiKey.name}`}>
          Roll secret
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent data-testid="roll-api-key-dialog">
        {issued ? (
          <SecretStep issued={issued} rolled onDone={() => change(false)} />
        ) : (
          <>
            <AlertDialogHeader>
              <AlertDialogTitle>Roll the secret of “{apiKey.name}”?</AlertDialogTitle>
              <AlertDialogDescription>
                The key gets a new secret, shown once. The old secret stops working at once: every system that
                still sends it is refused until it has the new one. The key keeps its name, prefix and scopes.
              </AlertDialogDescription>
            </AlertDialogHeader>
            <AlertDialogFooter>
              <AlertDialogCancel disabled={roll.isPending}>Cancel</AlertDialogCancel>
              <Button onClick={confirm} disabled={roll.isPending}>
                {roll.isPending ? "Rolling..." : "Roll secret"}
              </Button>
            </AlertDialogFooter>
          </>
        )}
      </AlertDialogContent>
    </AlertDialog>
  );
}

/**
 * "Revoke": asked first, in the destructive style. A revoked key keeps its row without actions, so the
 * focus then goes to the keys' heading.
 */
export function RevokeKeyButton({
  apiKey,
  fallbackFocus,
}: {
  apiKey: SellerApiKey;
  fallbackFocus: RefObject<HTMLElement | null>;
}) {
  const [open, setOpen] = useState(false);
  const revoke = useRevokeApiKey();
  const focus = useReturnFocus(fallbackFocus);
  const confirm = async () => {
    const result = await runMutation(revoke.mutateAsync(apiKey.id), {
      success: { title: "API key revoked", description: apiKey.name },
      error: { title: "Failed to revoke the key", show: "client" },
    });
    if (result.ok) setOpen(false);
  };
  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <Button
        size="sm"
        variant="outline"
        className="border-destructive/60 text-destructive hover:bg-destructive/10 hover:text-destructive"
        aria-label={`Revoke: ${apiKey.name}`}
        onClick={() => {
          focus.remember();
          setOpen(true);
        }}
      >
        Revoke
      </Button>
      <AlertDialogContent onCloseAutoFocus={focus.onCloseAutoFocus} data-testid="revoke-api-key-dialog">
        <AlertDialogHeader>
          <AlertDialogTitle>Revoke “{apiKey.name}”?</AlertDialogTitle>
          <AlertDialogDescription>
            Every call with this key is refused from now on, and it cannot be turned back on. Its calls stay
            in the access log.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={revoke.isPending}>Cancel</AlertDialogCancel>
          <Button variant="destructive" onClick={confirm} disabled={revoke.isPending}>
            {revoke.isPending ? "Revoking..." : "Revoke key"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
