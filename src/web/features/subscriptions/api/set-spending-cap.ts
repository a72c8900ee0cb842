import { useMutation, useQueryClient } from "@tanstack/react-query";
import { subscriptionsKey } from "#web/features/subscriptions/api/get-subscriptions";
import { call } from "#web/lib/api";

/** Sets, changes or (with null) removes the cap on a metered subscription's use per period, at once. */
export const setSpendingCap = ({ id, cap }: { id: string; cap: string | null }) =>
  call("PUT /subscriptions/:id/spending-cap", { params: { id }, body: { cap } }).then((r) => r.subscription);

export function useSetSpendingCap() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setSpendingCap,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subscriptionsKey }),
  });
}
