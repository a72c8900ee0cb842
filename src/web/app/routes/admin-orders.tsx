import { useState } from "react";
import { toast } from "sonner";
import {
  type AdminOrderList,
  type OrderStatus,
  orderStatuses,
  orderStatusLabel,
  type PaymentStatus,
  paymentMethods,
  paymentStatuses,
} from "#domain/checkout";
import { formatDate } from "#domain/dates";
import { formatUsd } from "#domain/money";
import { PageHeader } from "#web/components/layout/page-header";
import { PagedList } from "#web/components/layout/paged-list";
import { ScrollTable } from "#web/components/layout/scroll-table";
import { Badge } from "#web/components/ui/badge";
import { FormField } from "#web/components/ui/form-field";
import { NativeSelect } from "#web/components/ui/select";
import { RequireAdmin } from "#web/features/auth/components/guards";
import { useAdminOrders } from "#web/features/orders/api/get-admin-orders";
import { useUpdateOrderStatus } from "#web/features/orders/api/update-order-status";
import { useSearchState } from "#web/lib/use-search-state";
import { cn } from "#web/lib/utils";

type AdminOrder = AdminOrderList["items"][number];

/** The stored values, named as the spec shows them ('mock_confirmed' reads 'Confirmed'). */
const statusNames: Record<PaymentStatus, string> = {
  pending: "Pending",
  processing: "Processing",
  failed: "Failed",
  mock_confirmed: "Confirmed",
  partially_refunded: "Partially refunded",
  refunded: "Refunded",
};

const isStatus = (value: string | null): value is PaymentStatus =>
  paymentStatuses.includes(value as PaymentStatus);

/** Refunds move an order's status through the refund process; it is not set by hand. */
const isSettable = (status: PaymentStatus): status is OrderStatus =>
  orderStatuses.includes(status as OrderStatus);

const methodLabel = (method: AdminOrder["paymentMethod"]) =>
  paymentMethods.find((m) => m.value === method)?.label ?? method;

const columns = ["Order ID", "Buyer", "Total", "Payment Method", "Status", "Paid", "Date", "Update"];

export function Component() {
  return (
    <RequireAdmin>
      <OrdersScreen />
    </RequireAdmin>
  );
}

function OrdersScreen() {
  const { params, page, go } = useSearchState();
  const raw = params.get("status");
  const status = isStatus(raw) ? raw : undefined;

  return (
    <>
      <PageHeader title="Orders" subtitle="Every order on Stackbay; amounts are in USD, as charged." />
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        <FormField label="Show" className="mb-4 max-w-xs">
          <NativeSelect
            value={status ?? ""}
            onChange={(e) => go({ status: e.target.value, page: undefined })}
          >
            <option value="">All</option>
            {paymentStatuses.map((s) => (
              <option key={s} value={s}>
                {statusNames[s]}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <OrdersList page={page} status={status} onPage={(p) => go({ page: String(p) })} />
      </div>
    </>
  );
}

function OrdersList({
  page,
  status,
  onPage,
}: {
  page: number;
  status?: PaymentStatus;
  onPage: (page: number) => void;
}) {
  return (
    <PagedList query={useAdminOrders(page, status)} what="orders" empty="No orders yet." onPage={onPage}>
      {(items) => (
        <ScrollTable label="Orders" columns={columns} minWidth="min-w-[56rem]" testId="admin-orders-table">
          {items.map((order) => (
            <OrderRow key={order.id} order={order} />
          ))}
        </ScrollTable>
      )}
    </PagedList>
  );
}

type Draft = { paymentStatus: OrderStatus; isPaid: boolean };

function OrderRow({ order }: { order: AdminOrder }) {
  const update = useUpdateOrderStatus();
  // What the admin just chose, shown until the reloaded list has it; dropped on failure so the controls
  // return to the saved values.
  const [draft, setDraft] = useState<Draft | null>(null);
  const settable = isSettable(order.paymentStatus);
  const shown: Draft = draft ?? {
    paymentStatus: isSettable(order.paymentStatus) ? order.paymentStatus : "mock_confirmed",
    isPaid: order.isPaid,
  };
  const shortId = order.id.slice(0, 8);
  const label = orderStatusLabel(order.paymentStatus, order.isPaid);

  const change = async (next: Draft) => {
    setDraft(next);
    try {
      await update.mutateAsync({ id: order.id, ...next });
      toast.success("Order updated", {
        description: `Order ${shortId} is ${orderStatusLabel(next.paymentStatus, next.isPaid)}.`,
      });
    } catch {
      toast.error("Error updating order", { description: "Failed to update order status." });
    } finally {
      setDraft(null);
    }
  };

  return (
    <tr className="border-t border-border" data-testid="admin-order-row">
      <td className="px-4 py-3 font-mono text-xs">
        <span title={order.id}>{shortId}</span>
      </td>
      <td className="px-4 py-3">{order.accountEmail}</td>
      <td className="px-4 py-3 tabular-nums">{formatUsd(order.totalAmount)}</td>
      <td className="px-4 py-3">{methodLabel(order.paymentMethod)}</td>
      <td className="px-4 py-3">
        <Badge
          variant={label === "Confirmed" ? "success" : "outline"}
          className={cn(label === "Failed" && "border-destructive text-destructive")}
          data-testid="admin-order-status"
        >
          {label}
        </Badge>
      </td>
      <td className="px-4 py-3" data-testid="admin-order-paid">
        {order.isPaid ? "Yes" : "No"}
      </td>
      <td className="px-4 py-3 whitespace-nowrap">
        <time dateTime={order.createdAt}>{formatDate(order.createdAt)}</time>
      </td>
      <td className="px-4 py-2">
        {settable ? (
          <div className="flex items-center gap-4">
            <NativeSelect
              aria-label={`Status of order ${shortId}`}
              className="w-36"
              value={shown.paymentStatus}
              disabled={update.isPending}
              onChange={(e) => change({ ...shown, paymentStatus: e.target.value as OrderStatus })}
            >
              {orderStatuses.map((s) => (
                <option key={s} value={s}>
                  {statusNames[s]}
                </option>
              ))}
            </NativeSelect>
            <label className="flex items-center gap-2 whitespace-nowrap">
              <input
                type="checkbox"
                className="size-4 accent-primary"
                checked={shown.isPaid}
                disabled={update.isPending}
                onChange={(e) => change({ ...shown, isPaid: e.target.checked })}
              />
              Paid<span className="sr-only"> (order {shortId})</span>
            </label>
          </div>
        ) : (
          <span className="text-sm text-muted-foreground">Changed by the refund process</span>
        )}
      </td>
    </tr>
  );
}
