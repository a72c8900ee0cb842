import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { FEATURED_COUNT } from "#domain/catalog";
import type { ProductList, ProductListQuery } from "#domain/catalog-schemas";
import { api } from "#web/lib/api";

export type ProductFilters = Pick<ProductListQuery, "search" | "category" | "discount" | "sort">;

export const getProducts = (query: Partial<ProductListQuery>) =>
  api<ProductList>("/products", {
    query: { ...query, discount: query.discount ? "true" : undefined },
  });

export const productsInfiniteQueryOptions = (filters: ProductFilters) =>
  infiniteQueryOptions({
    queryKey: ["products", "list", filters],
    queryFn: ({ pageParam }) => getProducts({ ...filters, page: pageParam }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.page * last.pageSize < last.total ? last.page + 1 : undefined),
  });

export function useProducts(filters: ProductFilters) {
  return useInfiniteQuery(productsInfiniteQueryOptions(filters));
}

/** Home's Featured Products: the first eight active products in the default order. */
export const featuredProductsQueryOptions = () =>
  queryOptions({
    queryKey: ["products", "featured"],
    queryFn: () => getProducts({ pageSize: FEATURED_COUNT }),
  });

export function useFeaturedProducts() {
  return useQuery(featuredProductsQueryOptions());
}
