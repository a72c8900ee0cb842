import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { UserRoleFilter } from "#domain/admin-users";
import { call } from "#web/lib/api";

export type AdminUsersFilter = { search?: string; role?: UserRoleFilter; page: number };

export const getAdminUsers = ({ search, role, page }: AdminUsersFilter) =>
  call("GET /admin/users", { query: { search, role, page } });

/** The prefix of every user list page's key, for invalidating them all. */
export const adminUsersKey = ["admin", "users"] as const;

/** Accounts for super admins, 25 a page, with search and a role filter. */
export const adminUsersQueryOptions = (filter: AdminUsersFilter) =>
  queryOptions({
    queryKey: [...adminUsersKey, filter],
    queryFn: () => getAdminUsers(filter),
    placeholderData: keepPreviousData,
  });

export function useAdminUsers(filter: AdminUsersFilter) {
  return useQuery(adminUsersQueryOptions(filter));
}
