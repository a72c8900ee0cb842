import { queryOptions, useQuery } from "@tanstack/react-query";
import type { OrderAnswer } from "#domain/checkout";
import { api } from "#web/lib/api";

export const getOrder = (id: string) =>
  api<OrderAnswer>(`/orders/${encodeURIComponent(id)}`).then((r) => r.order);

/** One order (the caller's, or any for admins); under ["orders"] so order mutations refresh it too. */
export const orderQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ["orders", "detail", id],
    queryFn: () => getOrder(id),
  });

export function useOrder(id: string) {
  return useQuery(orderQueryOptions(id));
}
