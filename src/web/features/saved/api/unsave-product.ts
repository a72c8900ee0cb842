import { useMutation, useQueryClient } from "@tanstack/react-query";
import { isSavedQueryOptions } from "#web/features/saved/api/get-is-saved";
import { savedProductsQueryOptions } from "#web/features/saved/api/get-saved-products";
import { call } from "#web/lib/api";

export const unsaveProduct = (productId: string) =>
  call("DELETE /saved/:productId", { params: { productId } });

export function useUnsaveProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unsaveProduct,
    onSuccess: async (_answer, productId) => {
      queryClient.setQueryData(isSavedQueryOptions(productId).queryKey, false);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: savedProductsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: isSavedQueryOptions(productId).queryKey }),
      ]);
    },
  });
}
