import { useState } from "react";
import type { CommissionDecision } from "#domain/commission-holds";
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
import { useDecideCommission } from "#web/features/commissions/api/decide-commission";
import { runMutation } from "#web/lib/mutation";

const wording = {
  release: {
    button: "Release",
    title: "Release this commission?",
    body: "It becomes pending and is approved once the refund window after the order has passed, like any other commission.",
    done: "Commission released",
  },
  reject: {
    button: "Reject",
    title: "Reject this commission?",
    body: "It is cancelled and the reseller is not paid for this order. This cannot be undone.",
    done: "Commission rejected",
  },
} as const;

/** Releases or rejects a held commission after a confirmation, with an optional note for the audit log. */
export function CommissionDecisionButton({
  id,
  decision,
  subject,
}: {
  id: string;
  decision: CommissionDecision;
  /** What the commission is about, for the button's accessible name (product and order). */
  subject: string;
}) {
  const decide = useDecideCommission();
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState("");
  const words = wording[decision];
  const submit = async () => {
    const result = await runMutation(decide.mutateAsync({ id, decision, note: note.trim() || undefined }), {
      success: { title: words.done, description: subject },
      error: { title: "The commission could not be updated" },
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
          variant={decision === "release" ? "default" : "outline"}
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
          </AlertDialogDescription>
        </AlertDialogHeader>
        <FormField label="Note for the audit log (optional)">
          <Textarea value={note} maxLength={2000} rows={3} onChange={(e) => setNote(e.target.value)} />
        </FormField>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={decide.isPending}>Cancel</AlertDialogCancel>
          <Button
            variant={decision === "reject" ? "destructive" : "default"}
            onClick={submit}
            disabled={decide.isPending}
          >
            {decide.isPending ? "Saving..." : words.button}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
