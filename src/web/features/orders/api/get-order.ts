import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

export const getOrder = (id: string) => call("GET /orders/:id", { params: { id } }).then((r) => r.order);

/** One order (the caller's, or any for admins); under ["orders"] so order mutations refresh it too. */
export const orderQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ["orders", "detail", id],
    queryFn: () => getOrder(id),
  });

/** `pollWhilePendingMs`: ask again at that interval while the order waits for its payment. */
export function useOrder(id: string, options: { pollWhilePendingMs?: number } = {}) {
  const { pollWhilePendingMs } = options;
  return useQuery({
    ...orderQueryOptions(id),
    refetchInterval: (query) =>
      pollWhilePendingMs && (query.state.data?.paymentStatus ?? "pending") === "pending"
        ? pollWhilePendingMs
        : false,
  });
}
