import { zodResolver } from "@hookform/resolvers/zod";
import { MessageSquare } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { formatDateTime } from "#domain/dates";
import { REFUND_MESSAGE_MAX, type RefundMessageInput, refundMessageInputSchema } from "#domain/refunds";
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
import { FormField, Textarea } from "#web/components/ui/form-field";
import { LoadError } from "#web/components/ui/load-error";
import { Spinner } from "#web/components/ui/spinner";
import { usePostRefundMessage, useRefundThread } from "#web/features/refunds/api/refund-thread";
import { runMutation } from "#web/lib/mutation";
import { cn } from "#web/lib/utils";

/**
 * The conversation on a refund request, for its buyer, its seller and Stackbay: offer a fix, explain,
 * answer. Opened from the request's row; the messages load only then. A decided request is read-only.
 */
export function RefundThreadButton({
  id,
  subject,
  open: requestOpen,
}: {
  id: string;
  /** What the request is about, for the button's accessible name and the dialog's title. */
  subject: string;
  /** Whether the request still waits for a decision (messages can be written). */
  open: boolean;
}) {
  const [shown, setShown] = useState(false);
  return (
    <AlertDialog open={shown} onOpenChange={setShown}>
      <AlertDialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`Messages about ${subject}`}>
          <MessageSquare aria-hidden /> Messages
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent className="max-h-[90dvh] overflow-y-auto">
        <AlertDialogHeader>
          <AlertDialogTitle>Messages about {subject}</AlertDialogTitle>
          <AlertDialogDescription>
            The buyer, the seller and Stackbay see this conversation; each new message is sent to the others.
          </AlertDialogDescription>
        </AlertDialogHeader>
        {shown && <Thread id={id} writable={requestOpen} />}
        <AlertDialogFooter>
          <AlertDialogCancel>Close</AlertDialogCancel>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

function Thread({ id, writable }: { id: string; writable: boolean }) {
  const thread = useRefundThread(id, true);
  const post = usePostRefundMessage(id);
  const form = useForm<RefundMessageInput>({
    resolver: zodResolver(refundMessageInputSchema),
    defaultValues: { body: "" },
  });
  const submit = form.handleSubmit(async (values) => {
    const result = await runMutation(post.mutateAsync(values), {
      error: { title: "Your message could not be sent", show: "client" },
    });
    if (result.ok) form.reset({ body: "" });
  });
  return (
    <div className="flex flex-col gap-4">
      {thread.isPending ? (
        <Spinner label="Loading messages" />
      ) : thread.isError ? (
        <LoadError what="messages" error={thread.error} onRetry={() => thread.refetch()} />
      ) : thread.data.items.length === 0 ? (
        <p className="text-sm text-muted-foreground">No messages yet.</p>
      ) : (
        <ol className="flex flex-col gap-3" aria-label="Messages" data-testid="refund-messages">
          {thread.data.items.map((message) => (
            <li
              key={message.id}
              className={cn(
                "max-w-[85%] rounded-lg border border-border px-3 py-2 text-sm",
                message.mine ? "self-end bg-accent" : "self-start bg-card",
              )}
              data-testid="refund-message"
            >
              <p className="text-xs text-muted-foreground">
                {message.mine ? "You" : message.authorName}
                {message.author === "seller" && !message.mine ? " (seller)" : ""}
                {message.author === "buyer" && !message.mine ? " (buyer)" : ""} ·{" "}
                <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
              </p>
              <p className="mt-1 break-words whitespace-pre-line">{message.body}</p>
            </li>
          ))}
        </ol>
      )}
      {writable ? (
        <form onSubmit={submit} className="flex flex-col gap-2" noValidate>
          <FormField
            label="Your message"
            error={form.formState.errors.body?.message}
            hint={`Plain text, up to ${REFUND_MESSAGE_MAX.toLocaleString("en-US")} characters.`}
          >
            <Textarea className="min-h-24" maxLength={REFUND_MESSAGE_MAX} {...form.register("body")} />
          </FormField>
          <Button type="submit" className="self-end" disabled={form.formState.isSubmitting}>
            {form.formState.isSubmitting ? "Sending..." : "Send message"}
          </Button>
        </form>
      ) : (
        <p className="text-sm text-muted-foreground">
          This request has been decided; no more messages can be added.
        </p>
      )}
    </div>
  );
}
