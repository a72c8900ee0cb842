import type { CommissionDecision } from "#domain/commission-holds";
import { DecisionDialog } from "#web/components/ui/decision-dialog";
import { useDecideCommission } from "#web/features/referrals/api/decide-commission";
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
  const words = wording[decision];
  return (
    <DecisionDialog
      words={words}
      subject={subject}
      triggerVariant={decision === "release" ? "default" : "outline"}
      confirmVariant={decision === "reject" ? "destructive" : "default"}
      noteLabel="Note for the audit log (optional)"
      pending={decide.isPending}
      onConfirm={async (note) =>
        (
          await runMutation(decide.mutateAsync({ id, decision, note }), {
            success: { title: words.done, description: subject },
            error: { title: "The commission could not be updated" },
          })
        ).ok
      }
    />
  );
}
