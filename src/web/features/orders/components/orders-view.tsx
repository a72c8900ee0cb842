import { ShoppingBag } from "lucide-react";
import { useEffect } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { type Order, orderStatusLabel, paymentMethods } from "#domain/checkout";
import { formatDate } from "#domain/dates";
import { ViewCard } from "#web/components/layout/view-card";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { useMoney } from "#web/features/currency/use-money";
import { useOrders } from "#web/features/orders/api/get-orders";
import { cn } from "#web/lib/utils";
import { paths } from "#web/paths";

const columns = ["Order ID", "Total Amount", "Payment Method", "Status", "Date", "Items"];

const methodLabel = (method: Order["paymentMethod"]) =>
  paymentMethods.find((m) => m.value === method)?.label ?? method;

const newestFirst = (a: Order, b: Order) => Date.parse(b.createdAt) - Date.parse(a.createdAt);

/** The dashboard's Order History; amounts are shown in the display currency, like every price on the site. */
export function OrdersView() {
  const orders = useOrders();
  const money = useMoney();

  useEffect(() => {
    if (!orders.isError) return;
    // A fixed id: StrictMode's second effect run and a remount replace the toast instead of stacking it.
    toast.error("Error loading orders", {
      id: "orders-load-error",
      description: "There was an error loading your orders. Please try again.",
    });
  }, [orders.isError]);

  const description =
    money.currency.code === "USD"
      ? "Your purchases and their status."
      : `Your purchases and their status. Amounts are shown in ${money.currency.name}; orders are charged in USD.`;

  return (
    <ViewCard title="Order History" description={description}>
      {orders.isPending ? (
        <OrdersSkeleton />
      ) : orders.isError ? (
        <p className="rounded-lg border border-dashed border-border px-4 py-8 text-center text-sm text-destructive">
          Failed to load orders
        </p>
      ) : orders.data.items.length === 0 ? (
        <NoOrders />
      ) : (
        <OrdersTable orders={[...orders.data.items].sort(newestFirst)} />
      )}
    </ViewCard>
  );
}

function OrdersTable({ orders }: { orders: Order[] }) {
  const money = useMoney();
  return (
    // Phones scroll the table sideways rather than squeezing six columns into 375 px.
    <section
      aria-label="Orders"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
      tabIndex={0}
      className="-mx-5 overflow-x-auto rounded-sm px-5 focus-visible:outline-2 focus-visible:outline-ring sm:mx-0 sm:px-0"
    >
      <table className="w-full min-w-[40rem] text-left text-sm" data-testid="orders-table">
        <thead className="border-b border-border text-muted-foreground">
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className="px-3 py-2 font-medium first:pl-0 last:pr-0">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {orders.map((order) => {
            const status = orderStatusLabel(order.paymentStatus, order.isPaid);
            const count = order.items.reduce((sum, item) => sum + item.quantity, 0);
            return (
              <tr key={order.id} data-testid="order-row">
                <td className="py-3 pr-3 font-mono text-xs">
                  <span title={order.id}>{order.id.slice(0, 8)}</span>
                </td>
                <td className="px-3 py-3 font-medium tabular-nums" data-testid="order-total">
                  {money.ready ? (
                    money.amount(order.totalAmount)
                  ) : (
                    <span className="inline-block h-4 w-16 animate-pulse rounded bg-muted align-middle" />
                  )}
                </td>
                <td className="px-3 py-3">{methodLabel(order.paymentMethod)}</td>
                <td className="px-3 py-3">
                  <Badge
                    variant={status === "Confirmed" ? "success" : "outline"}
                    className={cn(status === "Failed" && "border-destructive text-destructive")}
                    data-testid="order-status"
                  >
                    {status}
                  </Badge>
                </td>
                <td className="px-3 py-3 whitespace-nowrap">
                  <time dateTime={order.createdAt}>{formatDate(order.createdAt)}</time>
                </td>
                <td className="py-3 pl-3 tabular-nums">{count}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

function OrdersSkeleton() {
  return (
    <div
      role="status"
      aria-label="Loading orders"
      className="flex flex-col gap-3"
      data-testid="orders-loading"
    >
      {[0, 1, 2].map((row) => (
        <div key={row} className="h-10 animate-pulse rounded bg-muted" aria-hidden />
      ))}
    </div>
  );
}

function NoOrders() {
  return (
    <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-border px-4 py-12 text-center">
      <ShoppingBag className="size-10 text-muted-foreground" aria-hidden />
      <h3 className="text-lg font-semibold">No orders yet</h3>
      <p className="max-w-sm text-sm text-muted-foreground">
        When you buy something on Stackbay, your orders will appear here.
      </p>
      <Button asChild className="mt-2">
        <Link to={paths.products()}>Browse Products</Link>
      </Button>
    </div>
  );
}
