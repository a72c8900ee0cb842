import { useMutation, useQueryClient } from "@tanstack/react-query";
import { auditLogKey } from "#web/features/audit/api/get-audit-log";
import { adminUsersKey } from "#web/features/users/api/get-admin-users";
import { call } from "#web/lib/api";

export const trustSeller = ({ userId, trusted }: { userId: string; trusted: boolean }) =>
  call("PUT /admin/users/:id/trusted-seller", { params: { id: userId }, body: { trusted } });

/** An admin marks a seller trusted (or not): their later listings skip the queue. */
export function useTrustSeller() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: trustSeller,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminUsersKey }),
        queryClient.invalidateQueries({ queryKey: auditLogKey }),
      ]),
  });
}
