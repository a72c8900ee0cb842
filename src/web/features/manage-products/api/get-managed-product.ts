import { queryOptions, useQuery } from "@tanstack/react-query";
import { managedProductsKey } from "#web/features/manage-products/api/get-managed-products";
import { ApiError, call } from "#web/lib/api";

export const getManagedProduct = (id: string) =>
  call("GET /manage/products/:id", { params: { id } }).then((r) => r.product);

export const managedProductQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...managedProductsKey, "detail", id],
    queryFn: () => getManagedProduct(id),
    // A missing (or someone else's) product will not appear by asking again.
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });

/** One product with everything its owner may edit. */
export function useManagedProduct(id: string) {
  return useQuery(managedProductQueryOptions(id));
}
