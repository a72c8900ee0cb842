import type { RefundDecisionInput } from "#domain/refunds";
import { DecisionDialog } from "#web/components/ui/decision-dialog";
import { useDecideRefund } from "#web/features/refunds/api/decide-refund";
import { runMutation } from "#web/lib/mutation";

const wording = {
  approve: {
    button: "Approve",
    title: "Approve this refund?",
    body: "The item is refunded, its license keys stop working and any reseller commission on it is cancelled. The buyer is paid back within 5–10 business days.",
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
  const words = wording[decision];
  return (
    <DecisionDialog
      words={{ ...words, body: finalReview ? `${words.body} This decision is final.` : words.body }}
      subject={subject}
      triggerVariant={decision === "approve" ? "default" : "outline"}
      noteLabel={decision === "escalate" ? undefined : "Note for the buyer (optional)"}
      pending={decide.isPending}
      onConfirm={async (note) =>
        (
          await runMutation(decide.mutateAsync({ id, decision, note }), {
            success: { title: words.done, description: subject },
            error: { title: "The refund could not be updated" },
          })
        ).ok
      }
    />
  );
}
