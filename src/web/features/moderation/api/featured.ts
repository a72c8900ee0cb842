import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { FeaturedAdminList, FeaturedSelection } from "#domain/moderation";
import { api } from "#web/lib/api";

const featuredKey = ["admin", "featured-products"] as const;

export const featuredAdminQueryOptions = () =>
  queryOptions({
    queryKey: featuredKey,
    queryFn: () => api<FeaturedAdminList>("/admin/featured-products"),
  });

export function useFeaturedAdmin() {
  return useQuery(featuredAdminQueryOptions());
}

export const saveFeatured = (selection: FeaturedSelection) =>
  api<FeaturedAdminList>("/admin/featured-products", { method: "PUT", body: selection });

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
