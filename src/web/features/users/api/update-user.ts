import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AdminUser, AdminUserUpdate } from "#domain/admin-users";
import { auditLogKey } from "#web/features/audit/api/get-audit-log";
import { meQueryOptions } from "#web/features/auth/api/get-me";
import { adminUsersKey } from "#web/features/users/api/get-admin-users";
import { api } from "#web/lib/api";

export type UserUpdate = { id: string; patch: AdminUserUpdate };

export const updateUser = ({ id, patch }: UserUpdate) =>
  api<{ user: AdminUser }>(`/admin/users/${encodeURIComponent(id)}`, { method: "PATCH", body: patch }).then(
    (r) => r.user,
  );

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
