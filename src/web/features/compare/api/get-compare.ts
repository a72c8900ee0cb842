import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

export const getCompare = (ids: readonly string[]) => call("GET /compare", { query: { ids: ids.join(",") } });

export const compareQueryOptions = (ids: readonly string[]) =>
  queryOptions({
    queryKey: ["products", "compare", ids],
    queryFn: () => getCompare(ids),
    // Removing a product keeps the table in place while the smaller comparison loads.
    placeholderData: keepPreviousData,
  });

export function useCompare(ids: readonly string[], enabled: boolean) {
  return useQuery({ ...compareQueryOptions(ids), enabled });
}
