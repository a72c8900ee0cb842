import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { confirmedStatuses, type Order } from "#domain/checkout";
import { formatDateTime } from "#domain/dates";
import { nextRefundStatus, type RefundRequestInput, refundRequestSchema } from "#domain/refunds";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "#web/components/ui/alert-dialog";
import { Button } from "#web/components/ui/button";
import { FormField, Textarea } from "#web/components/ui/form-field";
import { useRequestRefund } from "#web/features/refunds/api/request-refund";
import { BuyerPayoutLine } from "#web/features/refunds/components/payout-status";
import { RefundDecisionButton } from "#web/features/refunds/components/refund-decision";
import { RefundStatusBadge, SellerDeadline } from "#web/features/refunds/components/refund-status";
import { runMutation } from "#web/lib/mutation";

type Item = Order["items"][number];

/**
 * Refunds of a confirmed order, item by item: ask for one, follow it, take it to Stackbay when the
 * seller declines or does not answer. The window's end comes from the server, which decides each request.
 */
export function OrderRefunds({ order }: { order: Order }) {
  if (!confirmedStatuses.includes(order.paymentStatus)) return null;
  const windowOpen = Date.now() <= Date.parse(order.refundableUntil);
  return (
    <section className="text-sm" aria-label={`Refunds for order ${order.id.slice(0, 8)}`}>
      <h4 className="font-medium">Refunds</h4>
      <ul className="mt-2 flex flex-col gap-2">
        {order.items.map((item) => (
          <li
            key={item.id}
            className="flex flex-col gap-2 rounded-md border border-border p-3 sm:flex-row sm:items-center sm:justify-between"
            data-testid="order-refund"
          >
            <span className="font-medium">{item.productName}</span>
            <ItemRefund order={order} item={item} windowOpen={itemWindowOpen(item)} />
          </li>
        ))}
      </ul>
      <p className="mt-2 text-xs text-muted-foreground">
        {order.items.some((item) => !item.shipping) &&
          `${
            windowOpen
              ? `Refunds can be requested until ${formatDateTime(order.refundableUntil)}.`
              : `The refund window closed on ${formatDateTime(order.refundableUntil)}.`
          } `}
        {order.items.some((item) => item.shipping) && <HardwareWindow items={order.items} />}
        The seller has 3 business days to answer; approved refunds are paid to the original payment method
        within 5–10 business days.
      </p>
    </section>
  );
}

/** Hardware's window counts from its delivery: the dates of the delivered items, or that it starts then. */
function HardwareWindow({ items }: { items: Item[] }) {
  const hardware = items.filter((item) => item.shipping);
  const until = hardware
    .filter((item) => item.shipping?.state === "delivered" && item.refundableUntil)
    .map((item) => `${item.productName} until ${formatDateTime(item.refundableUntil ?? "")}`);
  const onItsWay = hardware.some((item) => item.shipping?.state !== "delivered");
  return (
    <>
      {until.length > 0 && `Delivered hardware can be refunded: ${until.join("; ")}. `}
      {onItsWay &&
        "Hardware not yet delivered can be refunded until the refund window after its delivery ends. "}
    </>
  );
}

/** A physical item's window counts from its delivery (open while it is on its way); the server decides. */
function itemWindowOpen(item: Item): boolean {
  return item.refundableUntil === null || Date.now() <= Date.parse(item.refundableUntil);
}

function ItemRefund({ order, item, windowOpen }: { order: Order; item: Item; windowOpen: boolean }) {
  const { refund } = item;
  if (!refund) {
    if (item.refundStatus === "refunded") return <span className="text-muted-foreground">Refunded</span>;
    return windowOpen ? (
      <RequestRefundButton orderId={order.id} item={item} />
    ) : (
      <span className="text-muted-foreground">Refund window closed</span>
    );
  }
  const canEscalate =
    "status" in
    nextRefundStatus(
      { status: refund.status, sellerDueAt: new Date(refund.sellerDueAt) },
      "buyer",
      "escalate",
      new Date(),
    );
  return (
    <div className="flex flex-col items-start gap-1 sm:items-end">
      <div className="flex flex-wrap items-center gap-2">
        <RefundStatusBadge status={refund.status} />
        {canEscalate && (
          <RefundDecisionButton id={refund.id} decision="escalate" subject={item.productName} />
        )}
      </div>
      <SellerDeadline status={refund.status} dueAt={refund.sellerDueAt} />
      {refund.payout && <BuyerPayoutLine payout={refund.payout} />}
      {refund.sellerNote && (
        <span className="text-xs text-muted-foreground">Seller: {refund.sellerNote}</span>
      )}
      {refund.platformNote && (
        <span className="text-xs text-muted-foreground">Stackbay: {refund.platformNote}</span>
      )}
    </div>
  );
}

function RequestRefundButton({ orderId, item }: { orderId: string; item: Item }) {
  const [open, setOpen] = useState(false);
  const request = useRequestRefund();
  const form = useForm<RefundRequestInput>({
    resolver: zodResolver(refundRequestSchema),
    defaultValues: { reason: "" },
  });
  const onSubmit = form.handleSubmit(async ({ reason }) => {
    const result = await runMutation(request.mutateAsync({ orderId, itemId: item.id, reason }), {
      success: (refund) => ({
        title: "Refund requested",
        description: `The seller has until ${formatDateTime(refund.sellerDueAt)} to answer.`,
      }),
      error: { title: "Refund not requested" },
    });
    if (!result.ok) return;
    setOpen(false);
    form.reset();
  });
  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <AlertDialogTrigger asChild>
        <Button size="sm" variant="outline" aria-label={`Request a refund for ${item.productName}`}>
          Request refund
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <AlertDialogHeader>
            <AlertDialogTitle>Request a refund</AlertDialogTitle>
            <AlertDialogDescription>
              {item.productName}. Tell the seller what went wrong; they have 3 business days to answer.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <FormField label="Reason" error={form.formState.errors.reason?.message}>
            <Textarea rows={4} maxLength={2000} {...form.register("reason")} />
          </FormField>
          <AlertDialogFooter>
            <AlertDialogCancel type="button" disabled={request.isPending}>
              Cancel
            </AlertDialogCancel>
            <Button type="submit" disabled={request.isPending}>
              {request.isPending ? "Sending..." : "Request refund"}
            </Button>
          </AlertDialogFooter>
        </form>
      </AlertDialogContent>
    </AlertDialog>
  );
}
