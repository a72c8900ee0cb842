import { keepPreviousData, type QueryClient, queryOptions, useQuery } from "@tanstack/react-query";
import type { ProductStatusFilter } from "#domain/product-admin";
import { adminCategoriesQueryOptions } from "#web/features/categories/api/get-admin-categories";
import { call } from "#web/lib/api";

export type ManagedProductsFilters = {
  search: string;
  status: ProductStatusFilter;
  page: number;
  /** Only the caller's own products (sellers always get only theirs). */
  mine: boolean;
};

export const getManagedProducts = ({ search, status, page, mine }: ManagedProductsFilters) =>
  call("GET /manage/products", {
    query: { search, status: status === "all" ? undefined : status, page, mine: mine ? "true" : undefined },
  });

/** The prefix of every managed-products key (lists and details), for invalidating them all. */
export const managedProductsKey = ["manage", "products"] as const;

export const managedProductsQueryOptions = (filters: ManagedProductsFilters) =>
  queryOptions({
    queryKey: [...managedProductsKey, "list", filters],
    queryFn: () => getManagedProducts(filters),
    placeholderData: keepPreviousData,
  });

export function useManagedProducts(filters: ManagedProductsFilters) {
  return useQuery(managedProductsQueryOptions(filters));
}

/** After a product changes: the managers' lists and details, and every public product query. */
export function invalidateProducts(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: managedProductsKey }),
    queryClient.invalidateQueries({ queryKey: ["products"] }),
    // Category screens count products per category.
    queryClient.invalidateQueries({ queryKey: adminCategoriesQueryOptions().queryKey }),
  ]);
}
