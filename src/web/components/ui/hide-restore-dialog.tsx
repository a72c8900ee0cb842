import { DecisionDialog } from "#web/components/ui/decision-dialog";
import { runMutation } from "#web/lib/mutation";

type Noun = "review" | "question";

/**
 * An admin's Hide or Restore of something a person wrote (a review, a question), with the reason that
 * is e-mailed to its writer. The caller says what hiding and restoring do and sends the decision.
 */
export function HideRestoreDialog({
  noun,
  writer,
  published,
  subject,
  effect,
  pending,
  decide,
}: {
  noun: Noun;
  /** Who is e-mailed the reason: "author", "asker". */
  writer: string;
  /** Published, the dialog hides it; hidden, it restores it. */
  published: boolean;
  subject: string;
  effect: { hide: string; restore: string };
  pending: boolean;
  decide: (action: "hide" | "restore", reason: string) => Promise<unknown>;
}) {
  const Noun = noun === "review" ? "Review" : "Question";
  const action = published ? "hide" : "restore";
  return (
    <DecisionDialog
      words={
        published
          ? { button: "Hide", title: `Hide this ${noun}?`, body: effect.hide }
          : { button: "Restore", title: `Restore this ${noun}?`, body: effect.restore }
      }
      subject={subject}
      triggerVariant={published ? "destructive" : "outline"}
      confirmVariant={published ? "destructive" : "default"}
      noteLabel={`Reason (required, sent to the ${writer})`}
      pending={pending}
      onConfirm={async (reason) =>
        (
          await runMutation(decide(action, reason ?? ""), {
            success: { title: `${Noun} ${published ? "hidden" : "restored"}`, description: subject },
            error: { title: `The ${noun} could not be ${published ? "hidden" : "restored"}` },
          })
        ).ok
      }
    />
  );
}
