import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Storefront, StorefrontInput, StorefrontVerification, VendorPage } from "#domain/storefronts";
import { api } from "#web/lib/api";

export const vendorPageQueryOptions = (slug: string, page: number) =>
  queryOptions({
    queryKey: ["vendors", slug, page],
    queryFn: () => api<VendorPage>(`/vendors/${encodeURIComponent(slug)}?page=${page}`),
    placeholderData: keepPreviousData,
  });

export function useVendorPage(slug: string, page: number) {
  return useQuery(vendorPageQueryOptions(slug, page));
}

export function useMyStorefront(enabled = true) {
  return useQuery({
    enabled,
    queryKey: ["seller", "storefront"],
    queryFn: () => api<{ storefront: Storefront }>("/seller/storefront"),
  });
}

export function useSaveStorefront() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StorefrontInput) =>
      api<{ storefront: Storefront }>("/seller/storefront", { method: "PUT", body }),
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
      api<StorefrontVerification>(`/admin/vendors/${encodeURIComponent(slug)}/verification`, {
        method: "PUT",
        body: { verified },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["vendors", slug] }),
  });
}
