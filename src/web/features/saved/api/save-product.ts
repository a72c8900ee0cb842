import { useMutation, useQueryClient } from "@tanstack/react-query";
import { isSavedQueryOptions } from "#web/features/saved/api/get-is-saved";
import { savedProductsQueryOptions } from "#web/features/saved/api/get-saved-products";
import { call } from "#web/lib/api";

export const saveProduct = (productId: string) => call("PUT /saved/:productId", { params: { productId } });

export function useSaveProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveProduct,
    onSuccess: async (_answer, productId) => {
      queryClient.setQueryData(isSavedQueryOptions(productId).queryKey, true);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: savedProductsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: isSavedQueryOptions(productId).queryKey }),
      ]);
    },
  });
}
