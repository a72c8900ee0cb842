import { useMutation, useQueryClient } from "@tanstack/react-query";
import { subscriptionsKey } from "#web/features/subscriptions/api/get-subscriptions";
import { call } from "#web/lib/api";

/** Undoes a cancellation before the paid period ends: the subscription renews again. */
export const resumeSubscription = (id: string) =>
  call("POST /subscriptions/:id/resume", { params: { id } }).then((r) => r.subscription);

export function useResumeSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resumeSubscription,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subscriptionsKey }),
  });
}
