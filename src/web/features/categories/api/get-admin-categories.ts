import { type QueryClient, queryOptions, useQuery } from "@tanstack/react-query";
import { categoriesQueryOptions } from "#web/features/catalog/api/get-categories";
import { call } from "#web/lib/api";

export const getAdminCategories = () => call("GET /admin/categories");

/** Every category with its product count, for the admin screen. */
export const adminCategoriesQueryOptions = () =>
  queryOptions({
    queryKey: ["admin", "categories"],
    queryFn: getAdminCategories,
  });

export function useAdminCategories() {
  return useQuery(adminCategoriesQueryOptions());
}

/** After a category changes: this list and the public one (product filters, category names) reload. */
export const invalidateCategories = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: adminCategoriesQueryOptions().queryKey }),
    queryClient.invalidateQueries({ queryKey: categoriesQueryOptions().queryKey }),
  ]);
