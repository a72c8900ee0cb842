import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { PlansInput } from "#domain/plan-schemas";
import {
  invalidateProducts,
  managedProductsKey,
} from "#web/features/manage-products/api/get-managed-products";
import { call } from "#web/lib/api";

export const getProductPlans = (id: string) =>
  call("GET /manage/products/:id/plans", { params: { id } }).then((r) => r.plans);

/** Under the managed products' key, so any change of a product reloads its plans too. */
export const productPlansQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...managedProductsKey, "plans", id],
    queryFn: () => getProductPlans(id),
  });

/** A recurring product's live plans, each with its live subscriptions (decision 0027). */
export function useProductPlans(id: string, enabled = true) {
  return useQuery({ ...productPlansQueryOptions(id), enabled });
}

export const saveProductPlans = ({ id, body }: { id: string; body: PlansInput }) =>
  call("PUT /manage/products/:id/plans", { params: { id }, body }).then((r) => r.plans);

/**
 * Replaces the product's plans. The product reloads with them: its listed price and pricing unit follow
 * the first plan, on the editor and on the marketplace.
 */
export function useSaveProductPlans() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveProductPlans,
    onSuccess: (plans, { id }) => {
      queryClient.setQueryData(productPlansQueryOptions(id).queryKey, plans);
      return invalidateProducts(queryClient);
    },
  });
}
