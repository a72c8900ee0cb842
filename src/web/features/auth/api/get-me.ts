import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "#web/lib/api";

export type Me = {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  roles: {
    isBuyer: boolean;
    isSeller: boolean;
    isReseller: boolean;
    isAdmin: boolean;
    isSuperAdmin: boolean;
  };
};

export const meQueryOptions = () =>
  queryOptions({
    queryKey: ["me"],
    queryFn: () => api<{ user: Me | null }>("/me").then((r) => r.user),
    staleTime: 5 * 60_000,
  });

export function useMe() {
  return useQuery(meQueryOptions());
}

export function isAdmin(me: Me | null | undefined) {
  return Boolean(me && (me.roles.isAdmin || me.roles.isSuperAdmin));
}
