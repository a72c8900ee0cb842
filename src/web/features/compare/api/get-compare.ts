import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { CompareAnswer } from "#domain/compare";
import { api } from "#web/lib/api";

export const getCompare = (ids: readonly string[]) =>
  api<CompareAnswer>("/compare", { query: { ids: ids.join(",") } });

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
