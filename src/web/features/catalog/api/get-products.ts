import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { ProductListQuery } from "#domain/catalog-schemas";
import { call } from "#web/lib/api";

/** The products page's filters: everything in the URL but where in the list the page is. */
export type ProductFilters = Omit<ProductListQuery, "page" | "pageSize" | "after" | "facets">;
/** Which page: its number, and the keyset cursor that leads to it when the page before was seen. */
export type ProductPage = { page: number; after?: string };

export const getProducts = (query: Partial<ProductListQuery>) =>
  call("GET /products", {
    query: {
      ...query,
      discount: query.discount ? "true" : undefined,
      facets: query.facets ? "true" : undefined,
    },
  });

export const productPageQueryOptions = (filters: ProductFilters, at: ProductPage) =>
  queryOptions({
    queryKey: ["products", "list", filters, at],
    queryFn: () => getProducts({ ...filters, ...at, facets: true }),
  });

/** One page of the listing with its facets; the previous answer stays on screen while the next loads. */
export function useProductPage(filters: ProductFilters, at: ProductPage) {
  return useQuery({ ...productPageQueryOptions(filters, at), placeholderData: keepPreviousData });
}

/** Home's Featured Products: the admins' choice in their order, else the first eight active products. */
export const featuredProductsQueryOptions = () =>
  queryOptions({
    queryKey: ["products", "featured"],
    queryFn: () => call("GET /featured-products"),
  });

export function useFeaturedProducts() {
  return useQuery(featuredProductsQueryOptions());
}
