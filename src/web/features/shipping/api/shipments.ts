import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { MarkShippedInput, ShipmentFilter } from "#domain/shipping";
import { call } from "#web/lib/api";

/** The prefix of every shipment list's key, for reloading them all after a change. */
export const shipmentsKey = ["shipments"] as const;

export const shipmentsQueryOptions = (state: ShipmentFilter) =>
  queryOptions({
    queryKey: [...shipmentsKey, state],
    queryFn: () => call("GET /seller/shipments", { query: { state } }),
    placeholderData: keepPreviousData,
  });

/** The seller's physical items of paid orders in one state. */
export function useShipments(state: ShipmentFilter) {
  return useQuery(shipmentsQueryOptions(state));
}

/** The seller marks an item shipped; every list reloads (it moves from To ship to Shipped). */
export function useMarkShipped() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ itemId, ...body }: MarkShippedInput & { itemId: string }) =>
      call("POST /shipments/:itemId/ship", { params: { itemId }, body }).then((r) => r.shipment),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shipmentsKey }),
  });
}

/** The buyer confirms an item arrived; their orders reload to show it delivered. */
export function useConfirmDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, itemId }: { orderId: string; itemId: string }) =>
      call("POST /orders/:orderId/items/:itemId/confirm-delivery", { params: { orderId, itemId } }).then(
        (r) => r.shipment,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["orders"] }),
  });
}
