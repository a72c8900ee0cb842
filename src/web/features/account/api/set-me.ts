import type { QueryClient } from "@tanstack/react-query";
import type { Me } from "#domain/accounts";
import { meQueryOptions } from "#web/features/auth/api/get-me";

/** Every account call answers with the updated user; it replaces the cached `me` so the whole app sees it. */
export function setMe(queryClient: QueryClient, user: Me | null) {
  queryClient.setQueryData(meQueryOptions().queryKey, user);
}
