import { queryOptions, useQuery } from "@tanstack/react-query";
import type { SavedItem } from "#domain/catalog-schemas";
import { call } from "#web/lib/api";

export type SavedProduct = SavedItem;

export const getSavedProducts = () => call("GET /saved").then((r) => r.items);

/** The signed-in user's saved products, newest saved first. */
export const savedProductsQueryOptions = () =>
  queryOptions({ queryKey: ["saved", "list"], queryFn: getSavedProducts });

export function useSavedProducts() {
  return useQuery(savedProductsQueryOptions());
}
