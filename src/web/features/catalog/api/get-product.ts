import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

export const productQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ["products", "detail", id],
    queryFn: () => call("GET /products/:id", { params: { id } }),
  });

export function useProduct(id: string) {
  return useQuery(productQueryOptions(id));
}
