import { queryOptions, useQuery } from "@tanstack/react-query";
import type { CurrentUserAnswer, Me } from "#domain/accounts";
import { api } from "#web/lib/api";

export const meQueryOptions = () =>
  queryOptions({
    queryKey: ["me"],
    queryFn: () => api<CurrentUserAnswer>("/me").then((r) => r.user),
    staleTime: 5 * 60_000,
  });

export function useMe() {
  return useQuery(meQueryOptions());
}

export function isAdmin(me: Me | null | undefined) {
  return Boolean(me && (me.roles.isAdmin || me.roles.isSuperAdmin));
}
