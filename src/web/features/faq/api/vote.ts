import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import type { FaqVoteInput } from "#domain/faq";
import { call } from "#web/lib/api";
import { faqVotesQueryKey } from "./get-votes";

/** Records the visitor's vote (a second vote replaces the first) and answers with every tally. */
export const voteOnFaq = (input: FaqVoteInput) => call("POST /faq/votes", { body: input });

export function useVoteOnFaq() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: voteOnFaq,
    onSuccess: (data) => queryClient.setQueryData(faqVotesQueryKey, data),
    onError: (error: Error) => toast.error("Your vote was not saved", { description: error.message }),
  });
}
