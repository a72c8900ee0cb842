import { queryOptions, useQuery } from "@tanstack/react-query";
import type { SavedItem } from "#domain/catalog-schemas";
import { api } from "#web/lib/api";

export type SavedProduct = SavedItem;

export const getSavedProducts = () => api<{ items: SavedProduct[] }>("/saved").then((r) => r.items);

/** The signed-in user's saved products, newest saved first. */
export const savedProductsQueryOptions = () =>
  queryOptions({ queryKey: ["saved", "list"], queryFn: getSavedProducts });

export function useSavedProducts() {
  return useQuery(savedProductsQueryOptions());
}
