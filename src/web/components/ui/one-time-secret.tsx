import { Copy, TriangleAlert } from "lucide-react";
import { type ReactNode, useEffect, useRef } from "react";
import {
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "#web/components/ui/alert-dialog";
import { Button } from "#web/components/ui/button";
import { FormField, Textarea } from "#web/components/ui/form-field";
import { copyText } from "#web/lib/clipboard";

/**
 * A secret shown once, as the step of a dialog that made or replaced it (an API key, a webhook's signing
 * secret): in a read-only field that takes the focus selected, with a Copy button and the warning that it
 * is not shown again. Done closes the dialog; there is no way back to the secret.
 */
export function OneTimeSecret({
  title,
  description,
  lost,
  label,
  secret,
  what,
  copied,
  testId,
  onDone,
}: {
  title: string;
  description: string;
  /** What to do if it is lost, after "Copy it now: it will not be shown again." */
  lost: ReactNode;
  /** The field's label ("Secret key"). */
  label: string;
  secret: string;
  /** What it is, in the Copy button and the copy error ("key", "secret"). */
  what: string;
  /** The toast once copied. */
  copied: { title: string; description: string };
  /** The step's test id; its field's is `<testId>-value`. */
  testId: string;
  onDone: () => void;
}) {
  const field = useRef<HTMLTextAreaElement>(null);
  // The step replaces the form or the question the focus was in: the focus moves to the secret, selected.
  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, []);
  return (
    <div className="grid gap-4" data-testid={testId}>
      <AlertDialogHeader>
        <AlertDialogTitle>{title}</AlertDialogTitle>
        <AlertDialogDescription>{description}</AlertDialogDescription>
      </AlertDialogHeader>
      <p className="flex gap-2 rounded-md border border-amber-600/40 bg-amber-500/10 p-3 text-sm">
        <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
        <span>
          <strong className="font-semibold">Copy it now: it will not be shown again.</strong> {lost}
        </span>
      </p>
      <FormField label={label}>
        <Textarea
          ref={field}
          readOnly
          rows={2}
          spellCheck={false}
          autoComplete="off"
          value={secret}
          onFocus={(event) => event.currentTarget.select()}
          className="min-h-0 resize-none font-mono break-all"
          data-testid={`${testId}-value`}
        />
      </FormField>
      <AlertDialogFooter>
        <Button type="button" variant="outline" onClick={() => copyText(secret, copied, what)}>
          <Copy aria-hidden /> Copy {what}
        </Button>
        <Button type="button" onClick={onDone}>
          Done
        </Button>
      </AlertDialogFooter>
    </div>
  );
}
