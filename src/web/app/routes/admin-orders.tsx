import { Search, X } from "lucide-react";
import { type FormEvent, useState } from "react";
import { BANK_TRANSFER_METHOD, transferReferenceQuerySchema } from "#domain/bank-transfer";
import {
  type AdminOrderList,
  type OrderStatus,
  orderStatusLabel,
  type PaymentStatus,
  paymentMethods,
  paymentStatuses,
} from "#domain/checkout";
import { formatDate } from "#domain/dates";
import { formatUnitPrice, formatUsd } from "#domain/money";
import { adminChoices, fixedStatusReason, paymentStatusNames as statusNames } from "#domain/order-states";
import { shippingStateLabel } from "#domain/shipping";
import { PageHeader } from "#web/components/layout/page-header";
import { PagedList } from "#web/components/layout/paged-list";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { NativeSelect } from "#web/components/ui/select";
import { ScrollTable, TableCell, TableRow } from "#web/components/ui/table";
import { RequireAdmin } from "#web/features/auth/components/guards";
import { findOrderByReference } from "#web/features/orders/api/admin-bank-transfers";
import { useAdminOrders } from "#web/features/orders/api/get-admin-orders";
import { useUpdateOrderStatus } from "#web/features/orders/api/update-order-status";
import { RecordTransferDialog } from "#web/features/orders/components/record-transfer-dialog";
import { runMutation } from "#web/lib/mutation";
import { useSearchState } from "#web/lib/use-search-state";
import { cn } from "#web/lib/utils";

type AdminOrder = AdminOrderList["items"][number];

const isStatus = (value: string | null): value is PaymentStatus =>
  paymentStatuses.includes(value as PaymentStatus);

const methodLabel = (method: AdminOrder["paymentMethod"]) =>
  paymentMethods.find((m) => m.value === method)?.label ?? method;

const columns = ["Order ID", "Buyer", "Items", "Total", "Payment Method", "Status", "Paid", "Date", "Update"];

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
  const q = params.get("q")?.trim() || undefined;
  // The bank-transfer order whose "Record transfer" dialog is open.
  const [recording, setRecording] = useState<string | null>(null);

  return (
    <>
      <PageHeader title="Orders" subtitle="Every order on Stackbay; amounts are in USD, as charged." />
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        {/* Keyed by the URL's search, so going back or following a link shows that search in the box. */}
        <OrderSearch key={q ?? ""} q={q} onSearch={(next) => go({ q: next, page: undefined })} />
        <div className="mb-4 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
          <FormField label="Show" className="max-w-xs sm:w-64">
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
          <FindTransfer onFound={setRecording} />
        </div>
        <OrdersList
          page={page}
          status={status}
          q={q}
          onPage={(p) => go({ page: String(p) })}
          onRecord={setRecording}
        />
        <RecordTransferDialog orderId={recording} onClose={() => setRecording(null)} />
      </div>
    </>
  );
}

/** Searches orders by id (full or short), buyer e-mail or name; the search lives in the URL (`?q=`). */
function OrderSearch({ q, onSearch }: { q?: string; onSearch: (q: string | undefined) => void }) {
  const [text, setText] = useState(q ?? "");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(text.trim() || undefined);
  };
  return (
    <search className="mb-4">
      <form onSubmit={submit} className="flex items-end gap-2">
        <FormField label="Search orders" className="min-w-0 flex-1 sm:max-w-md">
          <Input
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="ID, e-mail or name"
            maxLength={200}
            autoComplete="off"
            spellCheck={false}
          />
        </FormField>
        <Button type="submit">
          <Search aria-hidden />
          Search
        </Button>
        {q && (
          <Button
            type="button"
            variant="ghost"
            onClick={() => onSearch(undefined)}
            aria-label="Clear the search"
          >
            <X aria-hidden />
            <span className="hidden sm:inline">Clear</span>
          </Button>
        )}
      </form>
    </search>
  );
}

/** Finds the order a transfer reference on a bank statement names, and opens its record dialog. */
function FindTransfer({ onFound }: { onFound: (orderId: string) => void }) {
  const [text, setText] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = transferReferenceQuerySchema.safeParse({ reference: text });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setBusy(true);
    setError(undefined);
    const result = await runMutation(findOrderByReference(parsed.data.reference), {
      error: { title: "Could not search right now", description: "Please try again." },
      // A reference that fails its check or names no order: the server's words, on the field.
      on: (caught) => {
        switch (caught.code) {
          case "VALIDATION_ERROR":
          case "TRANSFER_REFERENCE_NOT_FOUND":
            setError(caught.message);
            return null;
          default:
            return undefined;
        }
      },
    });
    setBusy(false);
    if (result.ok) onFound(result.data.orderId);
  };
  return (
    <form onSubmit={submit} noValidate className="flex items-start gap-2" aria-label="Find a bank transfer">
      <FormField label="Transfer reference" error={error} className="w-full sm:w-72">
        <Input
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="SB-7K3M9QX2Z"
          autoComplete="off"
          spellCheck={false}
        />
      </FormField>
      <Button type="submit" variant="outline" className="mt-7" disabled={busy}>
        <Search aria-hidden />
        Find
      </Button>
    </form>
  );
}

function OrdersList({
  page,
  status,
  q,
  onPage,
  onRecord,
}: {
  page: number;
  status?: PaymentStatus;
  q?: string;
  onPage: (page: number) => void;
  onRecord: (orderId: string) => void;
}) {
  const empty = q ? `No orders match “${q}”.` : status ? "No orders with this status." : "No orders yet.";
  return (
    <PagedList query={useAdminOrders({ page, status, q })} what="orders" empty={empty} onPage={onPage}>
      {(items) => (
        <ScrollTable label="Orders" columns={columns} minWidth="min-w-[72rem]" testId="admin-orders-table">
          {items.map((order) => (
            <OrderRow key={order.id} order={order} onRecord={onRecord} />
          ))}
        </ScrollTable>
      )}
    </PagedList>
  );
}

function OrderRow({ order, onRecord }: { order: AdminOrder; onRecord: (orderId: string) => void }) {
  const update = useUpdateOrderStatus();
  // What the admin just chose, shown until the reloaded list has it; dropped on failure so the select
  // returns to the saved status.
  const [draft, setDraft] = useState<OrderStatus | null>(null);
  const choices = adminChoices(order.paymentStatus);
  const shown = draft ?? order.paymentStatus;
  const shortId = order.id.slice(0, 8);
  const label = orderStatusLabel(order.paymentStatus, order.isPaid, order.cancelledAt);

  const change = async (next: OrderStatus) => {
    setDraft(next);
    await runMutation(update.mutateAsync({ id: order.id, paymentStatus: next }), {
      success: { title: "Order updated", description: `Order ${shortId} is ${statusNames[next]}.` },
      // A move the server refuses (the order changed meanwhile) says why; anything else is the spec's text.
      error: {
        title: "Error updating order",
        show: ["INVALID_ORDER_TRANSITION"],
        fallback: "Failed to update order status.",
      },
    });
    setDraft(null);
  };

  return (
    <TableRow data-testid="admin-order-row" className="[&>td]:align-top">
      <TableCell className="font-mono text-xs">
        <span title={order.id}>{shortId}</span>
      </TableCell>
      <TableCell>
        {order.accountName && <span className="block font-medium">{order.accountName}</span>}
        <span className="block text-sm text-muted-foreground" data-testid="admin-order-buyer-email">
          {order.accountEmail}
        </span>
      </TableCell>
      <TableCell>
        <OrderItems items={order.items} />
      </TableCell>
      <TableCell className="tabular-nums">{formatUsd(order.totalAmount)}</TableCell>
      <TableCell>{methodLabel(order.paymentMethod)}</TableCell>
      <TableCell>
        <Badge
          variant={label === "Confirmed" ? "success" : "outline"}
          className={cn(
            (label === "Failed" || label === "Cancelled") && "border-destructive text-destructive",
          )}
          data-testid="admin-order-status"
        >
          {label}
        </Badge>
      </TableCell>
      <TableCell data-testid="admin-order-paid">{order.isPaid ? "Yes" : "No"}</TableCell>
      <TableCell className="whitespace-nowrap">
        <time dateTime={order.createdAt}>{formatDate(order.createdAt)}</time>
      </TableCell>
      <TableCell className="py-2">
        <div className="flex flex-wrap items-center gap-2">
          {order.paymentMethod === BANK_TRANSFER_METHOD &&
            (order.paymentStatus === "processing" || order.paymentStatus === "failed") && (
              <Button
                size="sm"
                onClick={() => onRecord(order.id)}
                aria-label={`Record transfer for order ${shortId}`}
              >
                Record transfer
              </Button>
            )}
          {choices.length > 0 ? (
            <NativeSelect
              aria-label={`Status of order ${shortId}`}
              className="w-36"
              value={shown}
              disabled={update.isPending}
              onChange={(e) => change(e.target.value as OrderStatus)}
            >
              {choices.map((s) => (
                <option key={s} value={s}>
                  {statusNames[s]}
                </option>
              ))}
            </NativeSelect>
          ) : (
            <span className="text-sm text-muted-foreground" data-testid="admin-order-fixed">
              {fixedStatusReason(order.paymentStatus, order.cancelledAt)}
            </span>
          )}
        </div>
      </TableCell>
    </TableRow>
  );
}

/** The order's lines as the admin needs them without opening it: what, how many, at what price, shipped or not. */
function OrderItems({ items }: { items: AdminOrder["items"] }) {
  return (
    <ul className="flex min-w-64 flex-col gap-1 text-sm" data-testid="admin-order-items">
      {items.map((item) => (
        <li key={item.id}>
          <span className="font-medium">{item.productName}</span>{" "}
          <span className="whitespace-nowrap text-muted-foreground tabular-nums">
            × {item.quantity} at {formatUnitPrice(item.price)}
          </span>
          {item.shipping && (
            <Badge variant="outline" className="ml-2">
              {shippingStateLabel[item.shipping.state]}
            </Badge>
          )}
        </li>
      ))}
    </ul>
  );
}
