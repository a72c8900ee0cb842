import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { invalidateProducts } from "#web/features/manage-products/api/get-managed-products";
import { call } from "#web/lib/api";

export const storefrontChangesQueryOptions = () =>
  queryOptions({
    queryKey: ["admin", "storefront-changes"],
    queryFn: () => call("GET /admin/storefront-changes"),
  });

/** Storefront names and logos waiting for an admin, oldest first. */
export function useStorefrontChanges() {
  return useQuery(storefrontChangesQueryOptions());
}

const decide = (slug: string, verdict: "approve" | "reject", reason: string) =>
  verdict === "approve"
    ? call("POST /admin/storefront-changes/:slug/approve", { params: { slug } })
    : call("POST /admin/storefront-changes/:slug/reject", { params: { slug }, body: { reason } });

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
    approve: useMutation({ mutationFn: (slug: string) => decide(slug, "approve", ""), onSuccess: reload }),
    reject: useMutation({
      mutationFn: ({ slug, reason }: { slug: string; reason: string }) => decide(slug, "reject", reason),
      onSuccess: reload,
    }),
  };
}
