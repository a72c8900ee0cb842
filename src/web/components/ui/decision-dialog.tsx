import { type ReactNode, useState } from "react";
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

type Variant = "default" | "outline" | "destructive";

/**
 * A decision taken on a button after a confirmation, with an optional note: the shape of the refund and
 * held-commission steps. `onConfirm` answers whether it went through; only then the dialog closes and
 * the note is cleared, so nothing typed is lost when it fails.
 */
export function DecisionDialog({
  words,
  subject,
  triggerVariant,
  confirmVariant = "default",
  noteLabel,
  pending,
  onConfirm,
}: {
  words: { button: string; title: string; body: ReactNode };
  /** What the decision is about, for the button's accessible name and the dialog's text. */
  subject: string;
  triggerVariant: Variant;
  confirmVariant?: Variant;
  /** The note field's label; without one the dialog asks for no note. */
  noteLabel?: string;
  pending: boolean;
  onConfirm: (note: string | undefined) => Promise<boolean>;
}) {
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState("");
  const submit = async () => {
    if (!(await onConfirm(note.trim() || undefined))) return;
    setOpen(false);
    setNote("");
  };
  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <AlertDialogTrigger asChild>
        <Button size="sm" variant={triggerVariant} aria-label={`${words.button}: ${subject}`}>
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
        {noteLabel && (
          <FormField label={noteLabel}>
            <Textarea value={note} maxLength={2000} rows={3} onChange={(e) => setNote(e.target.value)} />
          </FormField>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
          <Button variant={confirmVariant} onClick={submit} disabled={pending}>
            {pending ? "Saving..." : words.button}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
