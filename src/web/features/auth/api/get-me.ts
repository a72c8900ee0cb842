import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Me } from "#domain/accounts";
import { call } from "#web/lib/api";

/** The signed-in user, or null for a visitor. */
export const getMe = () => call("GET /me").then((r) => r.user);

export const meQueryOptions = () =>
  queryOptions({
    queryKey: ["me"],
    queryFn: getMe,
    staleTime: 5 * 60_000,
  });

export function useMe() {
  return useQuery(meQueryOptions());
}

export function isAdmin(me: Me | null | undefined) {
  return Boolean(me && (me.roles.isAdmin || me.roles.isSuperAdmin));
}
