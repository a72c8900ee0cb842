import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AdminUserUpdate } from "#domain/admin-users";
import { auditLogKey } from "#web/features/audit/api/get-audit-log";
import { meQueryOptions } from "#web/features/auth/api/get-me";
import { adminUsersKey } from "#web/features/users/api/get-admin-users";
import { call } from "#web/lib/api";

export type UserUpdate = { id: string; patch: AdminUserUpdate };

export const updateUser = ({ id, patch }: UserUpdate) =>
  call("PATCH /admin/users/:id", { params: { id }, body: patch }).then((r) => r.user);

/** Super admins change roles or disable an account; the user lists, the audit trail and `me` reload. */
export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    // Awaited, so the row's controls keep the new values until the reloaded list has them.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminUsersKey }),
        queryClient.invalidateQueries({ queryKey: auditLogKey }),
        // A super admin may have changed their own roles.
        queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey }),
      ]),
  });
}
