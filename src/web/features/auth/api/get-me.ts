import { queryOptions, useQuery } from "@tanstack/react-query";
import type { NotificationSettings, Roles } from "#domain/accounts";
import type { CurrencyCode } from "#domain/currency";
import { api } from "#web/lib/api";

/** The signed-in user as `GET /api/me` returns it. */
export type Me = {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  address: string | null;
  city: string | null;
  country: string | null;
  emailVerified: boolean;
  twoFactorEnabled: boolean;
  createdAt: string;
  roles: Roles;
  preferences: {
    currency: CurrencyCode;
    theme: "light" | "dark" | null;
    notifications: NotificationSettings;
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
