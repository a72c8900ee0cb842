import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { RefundMessageInput } from "#domain/refunds";
import { refundsKey } from "#web/features/refunds/api/get-refunds";
import { call } from "#web/lib/api";

const threadKey = (id: string) => [...refundsKey, "thread", id] as const;

/** A refund request's messages; asked for only while its conversation is open on screen. */
export function useRefundThread(id: string, enabled: boolean) {
  return useQuery({
    queryKey: threadKey(id),
    queryFn: () => call("GET /refunds/:id/messages", { params: { id } }),
    enabled,
    refetchInterval: enabled ? 30_000 : false,
  });
}

export function usePostRefundMessage(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RefundMessageInput) =>
      call("POST /refunds/:id/messages", { params: { id }, body: input }),
    onSuccess: (thread) => queryClient.setQueryData(threadKey(id), thread),
  });
}
