import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { StorefrontInput } from "#domain/storefronts";
import { call } from "#web/lib/api";

export const vendorPageQueryOptions = (slug: string, page: number) =>
  queryOptions({
    queryKey: ["vendors", slug, page],
    queryFn: () => call("GET /vendors/:slug", { params: { slug }, query: { page } }),
    placeholderData: keepPreviousData,
  });

export function useVendorPage(slug: string, page: number) {
  return useQuery(vendorPageQueryOptions(slug, page));
}

export function useMyStorefront(enabled = true) {
  return useQuery({
    enabled,
    queryKey: ["seller", "storefront"],
    queryFn: () => call("GET /seller/storefront"),
  });
}

export function useSaveStorefront() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StorefrontInput) => call("PUT /seller/storefront", { body }),
    onSuccess: (data) => {
      queryClient.setQueryData(["seller", "storefront"], data);
      // A rename is the vendor of every product of the seller: cards and details show it.
      void queryClient.invalidateQueries({ queryKey: ["vendors"] });
      void queryClient.invalidateQueries({ queryKey: ["products"] });
    },
  });
}

export function useSetVerified(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (verified: boolean) =>
      call("PUT /admin/vendors/:slug/verification", { params: { slug }, body: { verified } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["vendors", slug] }),
  });
}
