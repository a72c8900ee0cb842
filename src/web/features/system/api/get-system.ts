import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

export const getSystem = () => call("GET /admin/system");

/** The running system's figures and the exchange rates, for super admins. */
export const systemQueryOptions = () => queryOptions({ queryKey: ["admin", "system"], queryFn: getSystem });

export function useSystem() {
  return useQuery(systemQueryOptions());
}
