import { queryOptions, useQuery } from "@tanstack/react-query";
import type { FaqVotes, FaqVoteTally } from "#domain/faq";
import { call } from "#web/lib/api";

export const noVotes: FaqVoteTally = { helpful: 0, notHelpful: 0, mine: null };

export const faqVotesQueryKey = ["faq", "votes"] as const;

export const faqVotesQueryOptions = () =>
  queryOptions({
    queryKey: faqVotesQueryKey,
    queryFn: () => call("GET /faq/votes"),
  });

export function useFaqVotes() {
  return useQuery(faqVotesQueryOptions());
}

/** A question's tally, 0/0/no vote when it has none yet. */
export function tallyFor(votes: FaqVotes | undefined, questionId: string): FaqVoteTally {
  return votes?.votes[questionId] ?? noVotes;
}
