import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

export const getIsSaved = (productId: string) =>
  call("GET /saved/:productId", { params: { productId } }).then((r) => r.saved);

export const isSavedQueryOptions = (productId: string) =>
  queryOptions({ queryKey: ["saved", "check", productId], queryFn: () => getIsSaved(productId) });

/** Whether the signed-in user saved this product; asks only when `signedIn`, else answers not saved. */
export function useIsSaved(productId: string, signedIn: boolean) {
  const query = useQuery({ ...isSavedQueryOptions(productId), enabled: signedIn && productId !== "" });
  return { ...query, saved: signedIn && query.data === true };
}
