import { ShoppingBag } from "lucide-react";
import { Fragment, useEffect, useState } from "react";
import { Link } from "react-router";
import { BANK_TRANSFER_METHOD } from "#domain/bank-transfer";
import {
  awaitsPayment,
  confirmedStatuses,
  type Order,
  orderStatusLabel,
  paymentMethods,
} from "#domain/checkout";
import { countryName } from "#domain/countries";
import { formatDate, formatDateTime } from "#domain/dates";
import { formatUsd, lineTotal } from "#domain/money";
import { paths } from "#domain/routes";
import { orderProgressLabel } from "#domain/shipping";
import { taxLineLabel } from "#domain/tax";
import { ViewCard } from "#web/components/layout/view-card";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { LoadError } from "#web/components/ui/load-error";
import { Table, TableFrame } from "#web/components/ui/table";
import { Amount, UnitPrice } from "#web/features/currency/components/totals-list";
import { useMoney } from "#web/features/currency/use-money";
import { useLicenses } from "#web/features/licenses/api/get-licenses";
import { useOrders } from "#web/features/orders/api/get-orders";
import { OrderPaymentActions } from "#web/features/orders/components/order-payment-actions";
import { useBankTransfer } from "#web/features/payments/api/bank-transfer";
import { OrderRefunds } from "#web/features/refunds/components/order-refunds";
import { OrderDelivery, ShippingAddressBlock } from "#web/features/shipping/components/order-delivery";
import { reportError } from "#web/lib/mutation";
import { cn } from "#web/lib/utils";

const columns = ["Order ID", "Total Amount", "Payment Method", "Status", "Date", "Items", "Details"];

/** What the buyer reads as an order's state: cancelled, paid, refunded, then how delivery goes. */
const statusOf = (order: Order) =>
  orderProgressLabel(orderStatusLabel(order.paymentStatus, order.isPaid, order.cancelledAt), order.items);

/** The products of an order by name, each with its quantity when more than one. */
function ItemNames({ order }: { order: Order }) {
  return (
    <ul className="flex min-w-32 flex-col gap-0.5">
      {order.items.map((item) => (
        <li key={item.id} className="break-words">
          {item.productName}
          {item.quantity > 1 && (
            <span className="text-muted-foreground tabular-nums"> × {item.quantity}</span>
          )}
        </li>
      ))}
    </ul>
  );
}

const methodLabel = (method: Order["paymentMethod"]) =>
  paymentMethods.find((m) => m.value === method)?.label ?? method;

const newestFirst = (a: Order, b: Order) => Date.parse(b.createdAt) - Date.parse(a.createdAt);

/** The dashboard's Order History; amounts are shown in the display currency, like every price on the site. */
export function OrdersView({ title = "Order History" }: { title?: string }) {
  const orders = useOrders();
  const money = useMoney();

  const failure = orders.error;
  useEffect(() => {
    if (!failure) return;
    // A fixed id: StrictMode's second effect run and a remount replace the toast instead of stacking it.
    reportError(failure, {
      id: "orders-load-error",
      title: "Error loading orders",
      description: "There was an error loading your orders. Please try again.",
    });
  }, [failure]);

  const description =
    money.currency.code === "USD"
      ? "Your purchases and their status."
      : `Your purchases and their status. Amounts are shown in ${money.currency.name}; orders are charged in USD.`;

  return (
    <ViewCard title={title} description={description}>
      {orders.isPending ? (
        <OrdersSkeleton />
      ) : orders.isError ? (
        <LoadError title="Failed to load orders" error={orders.error} onRetry={() => void orders.refetch()} />
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
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    // Too narrow for seven columns, each order becomes a stacked card, its detail opening below it.
    <TableFrame aria-label="Orders" className="rounded-sm border-0">
      <Table className="min-w-[40rem]" data-testid="orders-table">
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
            const open = expanded.has(order.id);
            const detailId = `order-detail-${order.id}`;
            const status = statusOf(order);
            return (
              <Fragment key={order.id}>
                <tr data-testid="order-row">
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
                      variant={status === "Confirmed" || status === "Delivered" ? "success" : "outline"}
                      className={cn(
                        (status === "Failed" || status === "Cancelled") &&
                          "border-destructive text-destructive",
                      )}
                      data-testid="order-status"
                    >
                      {status}
                    </Badge>
                  </td>
                  <td className="px-3 py-3 whitespace-nowrap">
                    <time dateTime={order.createdAt}>{formatDate(order.createdAt)}</time>
                  </td>
                  <td className="px-3 py-3" data-testid="order-products">
                    <ItemNames order={order} />
                  </td>
                  <td className="py-2 pl-3">
                    {awaitsPayment(order) && <OrderPaymentActions order={order} className="mb-2" />}
                    <Button
                      variant="outline"
                      size="sm"
                      aria-expanded={open}
                      aria-controls={detailId}
                      onClick={() => toggle(order.id)}
                    >
                      {open ? "Hide" : "View"}
                      <span className="sr-only"> order {order.id.slice(0, 8)}</span>
                    </Button>
                  </td>
                </tr>
                {open && (
                  <tr id={detailId} data-testid="order-detail">
                    <td colSpan={columns.length} className="bg-muted/30 px-0 pt-1 pb-4 sm:px-3">
                      <OrderDetail order={order} />
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </Table>
    </TableFrame>
  );
}

/** A bank-transfer order's standing: what has arrived, what is still to pay, and where the instructions are. */
function TransferNote({ order }: { order: Order }) {
  const transfer = useBankTransfer(order.id);
  if (transfer.isPending)
    return <p className="text-sm text-muted-foreground">Loading the transfer status…</p>;
  if (transfer.isError) return null;
  const { standing, paymentStatus, reference } = transfer.data;
  const paid = standing.status === "paid" || standing.status === "overpaid";
  return (
    <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm" data-testid="order-transfer-standing">
      <span>
        Bank transfer <span className="font-mono">{reference}</span>: {standing.explanation}
      </span>
      {!paid && (
        <Link to={paths.checkoutComplete(order.id)} className="font-medium text-primary hover:underline">
          {paymentStatus === "failed" ? "Expired · place it again" : "How to pay"}
        </Link>
      )}
    </p>
  );
}

function OrderDetail({ order }: { order: Order }) {
  const headingId = `order-detail-heading-${order.id}`;
  const { customerInfo: billing } = order;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4 rounded-md py-3">
      <h3 id={headingId} className="font-semibold">
        Order <span className="font-mono text-sm">{order.id.slice(0, 8)}</span>
      </h3>
      {order.paymentMethod === BANK_TRANSFER_METHOD && !order.cancelledAt && <TransferNote order={order} />}
      {awaitsPayment(order) && (
        <div className="flex flex-col gap-2 rounded-md border border-border p-3 text-sm sm:flex-row sm:items-center sm:justify-between">
          <p>This order is awaiting payment. Pay for it now, or cancel it.</p>
          <OrderPaymentActions order={order} />
        </div>
      )}
      {order.cancelledAt && order.paymentStatus === "failed" && (
        <p className="text-sm text-muted-foreground" data-testid="order-cancelled-note">
          You cancelled this order on{" "}
          <time dateTime={order.cancelledAt}>{formatDateTime(order.cancelledAt)}</time>. Nothing was charged.
        </p>
      )}
      <table className="w-full text-left text-sm" data-testid="order-items">
        <caption className="sr-only">Items of order {order.id.slice(0, 8)}</caption>
        <thead className="text-muted-foreground">
          <tr>
            <th scope="col" className="py-1 pr-3 font-medium">
              Product
            </th>
            <th scope="col" className="hidden px-3 py-1 font-medium sm:table-cell">
              Vendor
            </th>
            <th scope="col" className="px-3 py-1 text-right font-medium">
              Quantity
            </th>
            <th scope="col" className="hidden px-3 py-1 text-right font-medium sm:table-cell">
              Unit price
            </th>
            <th scope="col" className="py-1 pl-3 text-right font-medium">
              Line total
            </th>
          </tr>
        </thead>
        <tbody>
          {order.items.map((item, index) => (
            // Lines keep their product's name after the product is gone, so the index keeps keys unique.
            // biome-ignore lint/suspicious/noArrayIndexKey: order lines never move
            <tr key={index} data-testid="order-line">
              <td className="py-1 pr-3">
                {item.productName}
                {/* Phones fold the vendor and unit price under the name, so the table fits. */}
                <span className="block text-xs text-muted-foreground sm:hidden">
                  {item.vendor ?? "Unknown Vendor"} ·{" "}
                  <UnitPrice usd={item.price} productName={item.productName} unit={item.pricingUnit} />
                </span>
              </td>
              <td className="hidden px-3 py-1 text-muted-foreground sm:table-cell">
                {item.vendor ?? "Unknown Vendor"}
              </td>
              <td className="px-3 py-1 text-right tabular-nums">{item.quantity}</td>
              <td className="hidden px-3 py-1 text-right tabular-nums sm:table-cell">
                <UnitPrice usd={item.price} productName={item.productName} unit={item.pricingUnit} />
              </td>
              <td className="py-1 pl-3 text-right tabular-nums">
                <Amount usd={Number(lineTotal(item.price, item.quantity))} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="grid gap-4 sm:grid-cols-2">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted-foreground">Subtotal</dt>
          <dd className="text-right tabular-nums" data-testid="order-detail-subtotal">
            <Amount usd={order.subtotal} />
          </dd>
          <dt className="text-muted-foreground">
            {taxLineLabel({ label: order.taxLabel, rate: order.taxRate, reverseCharge: order.reverseCharge })}
          </dt>
          <dd className="text-right tabular-nums" data-testid="order-detail-tax">
            <Amount usd={order.tax} />
          </dd>
          {order.taxNote && (
            <dd className="col-span-2 text-xs text-muted-foreground" data-testid="order-detail-tax-note">
              {order.taxNote}
            </dd>
          )}
          <dt className="font-semibold">Total</dt>
          <dd className="text-right font-semibold tabular-nums" data-testid="order-detail-total">
            <Amount usd={order.totalAmount} />
          </dd>
          <dd
            className="col-span-2 text-right text-xs text-muted-foreground"
            data-testid="order-detail-charged"
          >
            Charged: {formatUsd(order.totalAmount)} USD
          </dd>
        </dl>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted-foreground">Payment method</dt>
          <dd>{methodLabel(order.paymentMethod)}</dd>
          <dt className="text-muted-foreground">Status</dt>
          <dd>{statusOf(order)}</dd>
          <dt className="text-muted-foreground">Placed</dt>
          <dd>
            <time dateTime={order.createdAt}>{formatDateTime(order.createdAt)}</time>
          </dd>
        </dl>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="text-sm">
          <h4 className="font-medium">Billing</h4>
          <address className="mt-1 not-italic text-muted-foreground" data-testid="order-billing">
            {billing.fullName}
            <br />
            {billing.address}
            <br />
            {billing.city}, {countryName(billing.country)}
            <br />
            {billing.email}
          </address>
        </div>
        <ShippingAddressBlock order={order} />
      </div>
      {confirmedStatuses.includes(order.paymentStatus) && <OrderLicenses orderId={order.id} />}
      <OrderDelivery order={order} />
      <OrderRefunds order={order} />
      {confirmedStatuses.includes(order.paymentStatus) && (
        <Button asChild variant="outline" size="sm" className="self-start">
          <Link to={paths.invoice(order.id)}>
            Invoice<span className="sr-only"> of order {order.id.slice(0, 8)}</span>
          </Link>
        </Button>
      )}
    </section>
  );
}

/** The licence keys the buyer owns from this order, as the Licenses view shows them; nothing when none. */
function OrderLicenses({ orderId }: { orderId: string }) {
  const licenses = useLicenses();
  if (licenses.isPending) return <p className="text-sm text-muted-foreground">Loading license keys…</p>;
  if (licenses.isError) {
    return (
      <LoadError what="license keys" error={licenses.error} onRetry={() => void licenses.refetch()}>
        <Link to={paths.dashboard("licenses")} className="text-sm font-medium underline">
          See your licenses
        </Link>
      </LoadError>
    );
  }
  const keys = licenses.data.items.filter((license) => license.orderId === orderId);
  if (keys.length === 0) return null;
  return (
    <div className="text-sm">
      <h4 className="font-medium">License keys</h4>
      <ul className="mt-1 flex flex-col gap-2" data-testid="order-license-keys">
        {keys.map((license) => (
          <li key={license.id} className="rounded-md bg-muted px-3 py-2">
            <span className="block text-muted-foreground">
              {license.productName}
              {license.status !== "active" && ` · ${license.status}`}
            </span>
            <code
              className={cn(
                "font-mono break-all",
                license.status === "revoked" && "text-muted-foreground line-through",
              )}
            >
              {license.key}
            </code>
          </li>
        ))}
      </ul>
    </div>
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
