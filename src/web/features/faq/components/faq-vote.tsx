import { ThumbsDown, ThumbsUp } from "lucide-react";
import type { FaqVote as Vote } from "#domain/faq";
import { Button } from "#web/components/ui/button";
import { tallyFor, useFaqVotes } from "#web/features/faq/api/get-votes";
import { useVoteOnFaq } from "#web/features/faq/api/vote";

/** "Was this helpful?" with both counts; the visitor's own vote is the pressed button. */
export function FaqVote({ questionId }: { questionId: string }) {
  const votes = useFaqVotes();
  const vote = useVoteOnFaq();
  const tally = tallyFor(votes.data, questionId);
  const busy = votes.isPending || (vote.isPending && vote.variables?.questionId === questionId);
  const options: { value: Vote; label: string; count: number; Icon: typeof ThumbsUp }[] = [
    { value: "helpful", label: "Helpful", count: tally.helpful, Icon: ThumbsUp },
    { value: "not_helpful", label: "Not helpful", count: tally.notHelpful, Icon: ThumbsDown },
  ];

  return (
    <fieldset
      className="mt-4 flex min-w-0 flex-wrap items-center gap-x-3 gap-y-2 border-t border-border pt-4"
      aria-busy={busy}
      data-testid="faq-vote"
    >
      <legend className="sr-only">Was this helpful?</legend>
      <span className="text-sm text-muted-foreground" aria-hidden>
        Was this helpful?
      </span>
      <div className="flex gap-2">
        {options.map(({ value, label, count, Icon }) => {
          const pressed = tally.mine === value;
          return (
            <Button
              key={value}
              type="button"
              size="sm"
              variant={pressed ? "default" : "outline"}
              aria-pressed={pressed}
              aria-label={`${label} (${count})`}
              disabled={busy}
              onClick={() => {
                if (!pressed) vote.mutate({ questionId, vote: value });
              }}
              className="tabular-nums"
            >
              <Icon aria-hidden />
              <span aria-hidden>{count}</span>
            </Button>
          );
        })}
      </div>
    </fieldset>
  );
}
