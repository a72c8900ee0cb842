import { useState } from "react";
import type { RefundDecisionInput } from "#domain/refunds";
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
import { useDecideRefund } from "#web/features/refunds/api/decide-refund";
import { runMutation } from "#web/lib/mutation";

const wording = {
  approve: {
    button: "Approve",
    title: "Approve this refund?",
    body: "The item is refunded, its licence keys stop working and any reseller commission on it is cancelled. The buyer is paid back within 5–10 business days.",
    done: "Refund approved",
  },
  reject: {
    button: "Decline",
    title: "Decline this refund?",
    body: "Tell the buyer why. They can still ask Stackbay for a final review.",
    done: "Refund declined",
  },
  escalate: {
    button: "Ask Stackbay to review",
    title: "Ask Stackbay for a final review?",
    body: "Stackbay looks at both sides and decides. You'll get an e-mail with the outcome.",
    done: "Sent to Stackbay for review",
  },
} as const;

/** One step on a refund request, confirmed in a dialog with an optional note. */
export function RefundDecisionButton({
  id,
  decision,
  subject,
  finalReview = false,
}: {
  id: string;
  decision: RefundDecisionInput["decision"];
  /** What the request is about, for the button's accessible name (e.g. the product). */
  subject: string;
  /** The platform's wording: its decision is final. */
  finalReview?: boolean;
}) {
  const decide = useDecideRefund();
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState("");
  const words = wording[decision];
  const submit = async () => {
    const result = await runMutation(decide.mutateAsync({ id, decision, note: note.trim() || undefined }), {
      success: { title: words.done, description: subject },
      error: { title: "The refund could not be updated" },
    });
    if (!result.ok) return;
    setOpen(false);
    setNote("");
  };
  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <AlertDialogTrigger asChild>
        <Button
          size="sm"
          variant={decision === "approve" ? "default" : "outline"}
          aria-label={`${words.button}: ${subject}`}
        >
          {words.button}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{words.title}</AlertDialogTitle>
          <AlertDialogDescription>
            {subject}. {words.body}
            {finalReview && " This decision is final."}
          </AlertDialogDescription>
        </AlertDialogHeader>
        {decision !== "escalate" && (
          <FormField label="Note for the buyer (optional)">
            <Textarea value={note} maxLength={2000} rows={3} onChange={(e) => setNote(e.target.value)} />
          </FormField>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={decide.isPending}>Cancel</AlertDialogCancel>
          <Button onClick={submit} disabled={decide.isPending}>
            {decide.isPending ? "Saving..." : words.button}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
