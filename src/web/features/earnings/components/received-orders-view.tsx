import { useState } from "react";
import { Link } from "react-router";
import type { Me } from "#domain/accounts";
import { hasRole } from "#domain/accounts";
import { formatDate } from "#domain/dates";
import { type ReceivedOrder, receivedOrderStatus, receivedShippingLabel } from "#domain/earnings";
import { formatUnitPrice, priceSuffix } from "#domain/money";
import { paths } from "#domain/routes";
import { PagedList } from "#web/components/layout/paged-list";
import { ViewCard } from "#web/components/layout/view-card";
import { Badge } from "#web/components/ui/badge";
import { ScrollTable, TableCell, TableRow } from "#web/components/ui/table";
import { useReceivedOrders } from "#web/features/earnings/api/get-received-orders";
import { usd } from "#web/features/earnings/format";

const columns = ["Order", "Date", "Buyer", "Your items", "Your amount", "Status", "Shipping"];

/**
 * The orders a seller received, newest first, with only their own items and amount (USD, before fees,
 * as their earnings are). `preview`: on the dashboard's first screen, with a link to the view of its own.
 */
export function ReceivedOrdersView({ me, preview = false }: { me: Me; preview?: boolean }) {
  const seller = hasRole(me.roles, "seller");
  const [page, setPage] = useState(1);
  const query = useReceivedOrders(page, seller);
  const showAll = preview && (query.data?.total ?? 0) > 0;
  return (
    <ViewCard
      title="Orders received"
      description="Orders buyers placed for your products: only your items, and your amount before fees."
      action={
        showAll ? (
          <Link to={paths.dashboard("sales")} className="text-sm font-medium text-primary hover:underline">
            All orders received
          </Link>
        ) : undefined
      }
    >
      {seller ? (
        <PagedList
          query={query}
          what="orders received"
          empty="No orders yet. When a buyer orders one of your products, it appears here."
          onPage={setPage}
        >
          {(items) => (
            <ScrollTable
              label="Orders received, newest first"
              columns={columns}
              minWidth="min-w-[52rem]"
              testId="received-orders-table"
            >
              {items.map((order) => (
                <ReceivedOrderRow key={order.orderId} order={order} />
              ))}
            </ScrollTable>
          )}
        </PagedList>
      ) : (
        <p className="text-sm text-muted-foreground">Orders received are for sellers.</p>
      )}
    </ViewCard>
  );
}

function ReceivedOrderRow({ order }: { order: ReceivedOrder }) {
  const status = receivedOrderStatus(order.items);
  return (
    <TableRow data-testid="received-order-row" className="[&>td]:align-top">
      <TableCell className="font-mono text-xs">
        <span title={order.orderId}>{order.orderId.slice(0, 8)}</span>
      </TableCell>
      <TableCell className="whitespace-nowrap">
        <time dateTime={order.placedAt}>{formatDate(order.placedAt)}</time>
      </TableCell>
      <TableCell className="break-words" data-testid="received-order-buyer">
        {order.buyer}
      </TableCell>
      <TableCell>
        <ul className="flex min-w-48 flex-col gap-1 text-sm" data-testid="received-order-items">
          {order.items.map((item) => (
            <li key={item.id}>
              <span className="font-medium">{item.productName}</span>{" "}
              <span className="whitespace-nowrap text-muted-foreground tabular-nums">
                × {item.quantity} at {formatUnitPrice(item.price)}
                {priceSuffix(item.pricingUnit, item.productName, item.price)}
              </span>
            </li>
          ))}
        </ul>
      </TableCell>
      <TableCell className="tabular-nums" data-testid="received-order-amount">
        {usd(order.amount)}
      </TableCell>
      <TableCell>
        <Badge variant={status === "Paid" ? "success" : "outline"}>{status}</Badge>
      </TableCell>
      <TableCell className="whitespace-nowrap" data-testid="received-order-shipping">
        {receivedShippingLabel(order.items)}
      </TableCell>
    </TableRow>
  );
}
