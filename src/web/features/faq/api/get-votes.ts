import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "#web/lib/api";

export type FaqVote = "helpful" | "not_helpful";
export type FaqVoteTally = { helpful: number; notHelpful: number; mine: FaqVote | null };
/** Every question's tally; questions nobody has voted on may be missing. */
export type FaqVotes = { votes: Record<string, FaqVoteTally> };

export const noVotes: FaqVoteTally = { helpful: 0, notHelpful: 0, mine: null };

export const faqVotesQueryKey = ["faq", "votes"] as const;

export const faqVotesQueryOptions = () =>
  queryOptions({
    queryKey: faqVotesQueryKey,
    queryFn: () => api<FaqVotes>("/faq/votes"),
  });

export function useFaqVotes() {
  return useQuery(faqVotesQueryOptions());
}

/** A question's tally, 0/0/no vote when it has none yet. */
export function tallyFor(votes: FaqVotes | undefined, questionId: string): FaqVoteTally {
  return votes?.votes[questionId] ?? noVotes;
}
