import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { StorefrontChangeQueue } from "#domain/storefronts";
import { invalidateProducts } from "#web/features/manage-products/api/get-managed-products";
import { api } from "#web/lib/api";

type Decision = { slug: string; name: string; logoUrl: string | null };

export const storefrontChangesQueryOptions = () =>
  queryOptions({
    queryKey: ["admin", "storefront-changes"],
    queryFn: () => api<StorefrontChangeQueue>("/admin/storefront-changes"),
  });

/** Storefront names and logos waiting for an admin, oldest first. */
export function useStorefrontChanges() {
  return useQuery(storefrontChangesQueryOptions());
}

const decide = (slug: string, verdict: "approve" | "reject", body: object) =>
  api<Decision>(`/admin/storefront-changes/${encodeURIComponent(slug)}/${verdict}`, { method: "POST", body });

/** Approve or reject; the queue, storefronts and the catalogue (an approved name is every product's vendor) reload. */
export function useDecideStorefrontChange() {
  const queryClient = useQueryClient();
  const reload = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: storefrontChangesQueryOptions().queryKey }),
      queryClient.invalidateQueries({ queryKey: ["vendors"] }),
      invalidateProducts(queryClient),
    ]);
  return {
    approve: useMutation({ mutationFn: (slug: string) => decide(slug, "approve", {}), onSuccess: reload }),
    reject: useMutation({
      mutationFn: ({ slug, reason }: { slug: string; reason: string }) => decide(slug, "reject", { reason }),
      onSuccess: reload,
    }),
  };
}
