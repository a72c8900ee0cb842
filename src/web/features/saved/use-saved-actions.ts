import { useSaveProduct } from "#web/features/saved/api/save-product";
import { useUnsaveProduct } from "#web/features/saved/api/unsave-product";
import { runMutation } from "#web/lib/mutation";

/** Save and remove with the spec's toasts, shared by the product page and the dashboard. */
export function useSavedActions() {
  const saveMutation = useSaveProduct();
  const unsaveMutation = useUnsaveProduct();

  const save = (productId: string) =>
    void runMutation(saveMutation.mutateAsync(productId), {
      success: { title: "Product saved!", description: "Product has been added to your saved items." },
      error: { title: "Error", description: "Failed to save product. Please try again." },
    });

  const remove = (productId: string) =>
    void runMutation(unsaveMutation.mutateAsync(productId), {
      success: { title: "Product removed", description: "Product has been removed from your saved items." },
      error: { title: "Error", description: "Failed to remove product. Please try again." },
    });

  return {
    save,
    remove,
    pending: saveMutation.isPending || unsaveMutation.isPending,
    /** The product being removed, so a list can mark just that one as busy. */
    removing: unsaveMutation.isPending ? unsaveMutation.variables : undefined,
  };
}
