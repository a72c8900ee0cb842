import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

export const getCategories = () => call("GET /categories");

export const categoriesQueryOptions = () =>
  queryOptions({
    queryKey: ["categories"],
    queryFn: getCategories,
    staleTime: 10 * 60_000,
  });

export function useCategories() {
  return useQuery(categoriesQueryOptions());
}

/** The category's display name, falling back to its slug while categories load. */
export function useCategoryName(slug: string) {
  const { data } = useCategories();
  return data?.find((c) => c.slug === slug)?.name ?? slug;
}
