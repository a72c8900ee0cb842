import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type { ProductList, ProductListQuery } from "#domain/catalog-schemas";
import type { FeaturedHome } from "#domain/moderation";
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

/** Home's Featured Products: the admins' choice in their order, else the first eight active products. */
export const featuredProductsQueryOptions = () =>
  queryOptions({
    queryKey: ["products", "featured"],
    queryFn: () => api<FeaturedHome>("/featured-products"),
  });

export function useFeaturedProducts() {
  return useQuery(featuredProductsQueryOptions());
}
