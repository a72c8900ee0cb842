import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { orderStatusUpdateSchema } from "#domain/checkout";
import { adminOrdersKey } from "#web/features/orders/api/get-admin-orders";
import { call } from "#web/lib/api";

export type OrderStatusUpdate = { id: string } & z.input<typeof orderStatusUpdateSchema>;

export const updateOrderStatus = ({ id, paymentStatus }: OrderStatusUpdate) =>
  call("PATCH /admin/orders/:id", { params: { id }, body: { paymentStatus } }).then((r) => r.order);

/** Admins move an order to another payment status; the buyer's list and the admin list reload afterwards. */
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
