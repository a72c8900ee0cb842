import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { MarkTransferredInput } from "#domain/refunds";
import { refundsKey } from "#web/features/refunds/api/get-refunds";
import { call } from "#web/lib/api";

export const markTransferred = ({ refundId, ...body }: { refundId: string } & MarkTransferredInput) =>
  call("POST /admin/refunds/:id/payout/transferred", { params: { id: refundId }, body }).then(
    (r) => r.payout,
  );

/** Admins: the bank transfer of a refund was made; the lists and orders reload. */
export function useMarkTransferred() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markTransferred,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: refundsKey }),
        queryClient.invalidateQueries({ queryKey: ["admin", "orders"] }),
      ]),
  });
}
