import { zodResolver } from "@hookform/resolvers/zod";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import {
  MAX_SELLER_WEBHOOK_ENDPOINTS,
  type SellerWebhookEndpoint,
  type SellerWebhookInput,
  type SellerWebhookIssued,
  sellerWebhookEventInfo,
  sellerWebhookEvents,
  sellerWebhookInputSchema,
  WEBHOOK_SECRET_OVERLAP_HOURS,
} from "#domain/seller-webhooks";
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
import { useCreateWebhook } from "#web/features/seller-webhooks/api/create-webhook";
import { useDeleteWebhook } from "#web/features/seller-webhooks/api/delete-webhook";
import { useRotateWebhookSecret } from "#web/features/seller-webhooks/api/rotate-webhook-secret";
import { useUpdateWebhook } from "#web/features/seller-webhooks/api/update-webhook";
import { runMutation } from "#web/lib/mutation";

/** An endpoint's signing secret, shown once (made or rotated), with a Copy button and the warning. */
function SecretStep({
  issued,
  rotated,
  onDone,
}: {
  issued: SellerWebhookIssued;
  rotated: boolean;
  onDone: () => void;
}) {
  return (
    <OneTimeSecret
      title={rotated ? "New signing secret" : "Your endpoint is registered"}
      description={
        rotated
          ? `The old secret keeps signing beside this one for ${WEBHOOK_SECRET_OVERLAP_HOURS} hours: give your receiver the new one before then.`
          : "Your receiver checks each delivery's signature with this secret."
      }
      lost="If you lose it, rotate the secret for a new one."
      label="Signing secret"
      secret={issued.secret}
      what="secret"
      copied={{ title: "Signing secret copied", description: issued.endpoint.url }}
      testId="webhook-secret"
      onDone={onDone}
    />
  );
}

type FormValues = z.output<typeof sellerWebhookInputSchema>;

/** URL, description and events, checked with the API's own schema; a refused URL shows on its field. */
function WebhookForm({
  endpoint,
  onSaved,
}: {
  endpoint: SellerWebhookEndpoint | null;
  onSaved: (issued: SellerWebhookIssued | null) => void;
}) {
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const form = useForm<SellerWebhookInput, unknown, FormValues>({
    resolver: zodResolver(sellerWebhookInputSchema),
    defaultValues: endpoint
      ? { url: endpoint.url, description: endpoint.description, events: endpoint.events }
      : { url: "", description: "", events: [] },
  });
  const { errors, isSubmitting } = form.formState;
  const id = useId();
  const eventsError = errors.events?.message ?? errors.events?.root?.message;

  const onSubmit = form.handleSubmit(async (values) => {
    const on = (error: { code: string; message: string }) => {
      if (error.code === "WEBHOOK_URL_REFUSED") {
        form.setError("url", { message: error.message });
        return null;
      }
      if (error.code === "WEBHOOK_ENDPOINT_LIMIT") {
        form.setError("root", { message: error.message });
        return null;
      }
      return undefined;
    };
    if (endpoint) {
      const result = await runMutation(update.mutateAsync({ id: endpoint.id, ...values }), {
        success: { title: "Endpoint saved", description: values.url },
        error: { title: "Failed to save the endpoint", show: "client" },
        on,
      });
      if (result.ok) onSaved(null);
      return;
    }
    const result = await runMutation(create.mutateAsync(values), {
      error: { title: "Failed to register the endpoint", show: "client" },
      on,
    });
    if (result.ok) onSaved(result.data);
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label="Webhook endpoint">
      <AlertDialogHeader>
        <AlertDialogTitle>{endpoint ? "Edit endpoint" : "Add endpoint"}</AlertDialogTitle>
        <AlertDialogDescription>
          Stackbay posts the events you choose to this URL, signed with the endpoint's secret.
        </AlertDialogDescription>
      </AlertDialogHeader>
      <FormField label="URL" error={errors.url?.message} hint="An https:// address of your own server.">
        <Input type="url" inputMode="url" autoComplete="off" spellCheck={false} {...form.register("url")} />
      </FormField>
      <FormField
        label="Description"
        error={errors.description?.message}
        hint="Optional, such as “Provisioning”."
      >
        <Input autoComplete="off" {...form.register("description")} />
      </FormField>
      <fieldset
        className="flex min-w-0 flex-col gap-1.5"
        aria-describedby={eventsError ? `${id}-events-error` : undefined}
      >
        <legend className="mb-1.5 text-sm font-medium">Events</legend>
        <div className="grid max-h-64 gap-1.5 overflow-y-auto pr-1 sm:grid-cols-2">
          {sellerWebhookEvents.map((event) => (
            <label
              key={event}
              className="flex cursor-pointer items-start gap-2 rounded-md border border-border p-2 has-checked:border-primary has-focus-visible:outline-2 has-focus-visible:outline-ring"
              title={sellerWebhookEventInfo[event]}
            >
              <input
                type="checkbox"
                value={event}
                className="mt-0.5 size-4 shrink-0 accent-primary focus-visible:outline-none"
                aria-describedby={`${id}-${event}`}
                aria-invalid={Boolean(eventsError)}
                {...form.register("events")}
              />
              <span className="flex min-w-0 flex-col">
                <code className="font-mono text-xs break-all">{event}</code>
                <span id={`${id}-${event}`} className="sr-only">
                  {sellerWebhookEventInfo[event]}
                </span>
              </span>
            </label>
          ))}
        </div>
        {eventsError && (
          <p id={`${id}-events-error`} className="text-sm text-destructive">
            {eventsError}
          </p>
        )}
      </fieldset>
      {errors.root?.message && (
        <p role="alert" className="text-sm text-destructive" data-testid="webhook-limit">
          {errors.root.message}
        </p>
      )}
      <AlertDialogFooter>
        <AlertDialogCancel type="button" disabled={isSubmitting}>
          Cancel
        </AlertDialogCancel>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? "Saving..." : endpoint ? "Save endpoint" : "Add endpoint"}
        </Button>
      </AlertDialogFooter>
    </form>
  );
}

/** "Add endpoint": the form, then the new endpoint's secret in the same dialog. */
export function AddWebhookButton({ count }: { count: number }) {
  const [open, setOpen] = useState(false);
  const [issued, setIssued] = useState<SellerWebhookIssued | null>(null);
  const change = (next: boolean) => {
    setOpen(next);
    if (!next) setIssued(null);
  };
  return (
    <AlertDialog open={open} onOpenChange={change}>
      <AlertDialogTrigger asChild>
        <Button disabled={count >= MAX_SELLER_WEBHOOK_ENDPOINTS}>Add endpoint</Button>
      </AlertDialogTrigger>
      <AlertDialogContent className="max-w-xl" data-testid="add-webhook-dialog">
        {issued ? (
          <SecretStep issued={issued} rotated={false} onDone={() => change(false)} />
        ) : (
          <WebhookForm endpoint={null} onSaved={setIssued} />
        )}
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** "Edit": the same form, filled in. */
export function EditWebhookButton({ endpoint }: { endpoint: SellerWebhookEndpoint }) {
  const [open, setOpen] = useState(false);
  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <AlertDialogTrigger asChild>
        <Button size="sm" variant="outline" aria-label={`Edit: ${endpoint.url}`}>
          Edit
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent className="max-w-xl" data-testid="edit-webhook-dialog">
        <WebhookForm endpoint={endpoint} onSaved={() => setOpen(false)} />
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** "Rotate secret": a question first, then the new secret, once. */
export function RotateSecretButton({ endpoint }: { endpoint: SellerWebhookEndpoint }) {
  const [open, setOpen] = useState(false);
  const [issued, setIssued] = useState<SellerWebhookIssued | null>(null);
  const rotate = useRotateWebhookSecret();
  const change = (next: boolean) => {
    setOpen(next);
    if (!next) setIssued(null);
  };
  const confirm = async () => {
    const result = await runMutation(rotate.mutateAsync(endpoint.id), {
      error: { title: "Failed to rotate the secret", show: "client" },
    });
    if (result.ok) setIssued(result.data);
  };
  return (
    <AlertDialog open={open} onOpenChange={change}>
      <AlertDialogTrigger asChild>
        <Button size="sm" variant="outline" aria-label={`Rotate secret: ${endpoint.url}`}>
          Rotate secret
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent data-testid="rotate-webhook-dialog">
        {issued ? (
          <SecretStep issued={issued} rotated onDone={() => change(false)} />
        ) : (
          <>
            <AlertDialogHeader>
              <AlertDialogTitle>Rotate the signing secret?</AlertDialogTitle>
              <AlertDialogDescription>
                {`The endpoint gets a new secret, shown once. For ${WEBHOOK_SECRET_OVERLAP_HOURS} hours deliveries carry a signature with each secret, then only with the new one.`}
              </AlertDialogDescription>
            </AlertDialogHeader>
            <AlertDialogFooter>
              <AlertDialogCancel disabled={rotate.isPending}>Cancel</AlertDialogCancel>
              <Button onClick={confirm} disabled={rotate.isPending}>
                {rotate.isPending ? "Rotating..." : "Rotate secret"}
              </Button>
            </AlertDialogFooter>
          </>
        )}
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** "Delete": asked first, in the destructive style. */
export function DeleteWebhookButton({ endpoint }: { endpoint: SellerWebhookEndpoint }) {
  const [open, setOpen] = useState(false);
  const remove = useDeleteWebhook();
  const confirm = async () => {
    const result = await runMutation(remove.mutateAsync(endpoint.id), {
      success: { title: "Endpoint deleted", description: endpoint.url },
      error: { title: "Failed to delete the endpoint", show: "client" },
    });
    if (result.ok) setOpen(false);
  };
  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <AlertDialogTrigger asChild>
        <Button
          size="sm"
          variant="outline"
          className="border-destructive/60 text-destructive hover:bg-destructive/10 hover:text-destructive"
          aria-label={`Delete: ${endpoint.url}`}
        >
          Delete
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent data-testid="delete-webhook-dialog">
        <AlertDialogHeader>
          <AlertDialogTitle>Delete this endpoint?</AlertDialogTitle>
          <AlertDialogDescription>
            {`Nothing more is sent to ${endpoint.url}, and its deliveries leave the log.`}
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={remove.isPending}>Cancel</AlertDialogCancel>
          <Button variant="destructive" onClick={confirm} disabled={remove.isPending}>
            {remove.isPending ? "Deleting..." : "Delete endpoint"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
