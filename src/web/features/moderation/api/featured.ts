import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { FeaturedSelection } from "#domain/moderation";
import { call } from "#web/lib/api";

const featuredKey = ["admin", "featured-products"] as const;

export const featuredAdminQueryOptions = () =>
  queryOptions({
    queryKey: featuredKey,
    queryFn: () => call("GET /admin/featured-products"),
  });

export function useFeaturedAdmin() {
  return useQuery(featuredAdminQueryOptions());
}

export const saveFeatured = (selection: FeaturedSelection) =>
  call("PUT /admin/featured-products", { body: selection });

/**
 * Saves the ordered choice; the home page's list and the product listings (whose Featured order leads
 * with it) reload with it.
 */
export function useSaveFeatured() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveFeatured,
    onSuccess: (list) => {
      queryClient.setQueryData(featuredKey, list);
      return queryClient.invalidateQueries({ queryKey: ["products"] });
    },
  });
}
