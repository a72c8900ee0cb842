import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Order, OrderStatus } from "#domain/checkout";
import { adminOrdersKey } from "#web/features/orders/api/get-admin-orders";
import { api } from "#web/lib/api";

export type OrderStatusUpdate = { id: string; paymentStatus: OrderStatus; isPaid: boolean };

export const updateOrderStatus = ({ id, paymentStatus, isPaid }: OrderStatusUpdate) =>
  api<{ order: Order }>(`/admin/orders/${encodeURIComponent(id)}`, {
    method: "PATCH",
    body: { paymentStatus, isPaid },
  }).then((r) => r.order);

/** Admins change an order's payment status; the buyer's list and the admin list reload afterwards. */
export function useUpdateOrderStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateOrderStatus,
    // Awaited, so the caller's controls only let go of the new values once the reloaded list has them.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ["orders"] }),
        queryClient.invalidateQueries({ queryKey: adminOrdersKey }),
      ]),
  });
}
