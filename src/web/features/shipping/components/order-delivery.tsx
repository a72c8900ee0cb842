import type { Order } from "#domain/checkout";
import { countryName } from "#domain/countries";
import { formatDateTime } from "#domain/dates";
import { shippingStateLabel } from "#domain/shipping";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { useConfirmDelivery } from "#web/features/shipping/api/shipments";
import { runMutation } from "#web/lib/mutation";

type Item = Order["items"][number];

/** Where a physical order goes, beside its billing address. */
export function ShippingAddressBlock({ order }: { order: Order }) {
  const address = order.shippingAddress;
  if (!address) return null;
  return (
    <div className="text-sm">
      <h4 className="font-medium">Shipping</h4>
      <address className="mt-1 not-italic text-muted-foreground" data-testid="order-shipping-address">
        {address.fullName}
        <br />
        {address.line1}
        {address.line2 && (
          <>
            <br />
            {address.line2}
          </>
        )}
        <br />
        {address.postalCode} {address.city}, {countryName(address.country)}
        <br />
        {address.phone}
      </address>
    </div>
  );
}

/** Each physical item's delivery: awaiting shipment, shipped (carrier, tracking) with "Confirm delivery", delivered. */
export function OrderDelivery({ order }: { order: Order }) {
  const physical = order.items.filter((item) => item.shipping && item.refundStatus !== "refunded");
  if (!order.isPaid || physical.length === 0) return null;
  return (
    <section className="text-sm" aria-label={`Delivery of order ${order.id.slice(0, 8)}`}>
      <h4 className="font-medium">Delivery</h4>
      <ul className="mt-2 flex flex-col gap-2">
        {physical.map((item) => (
          <li
            key={item.id}
            className="flex flex-col gap-2 rounded-md border border-border p-3 sm:flex-row sm:items-center sm:justify-between"
            data-testid="order-delivery"
          >
            <div className="flex min-w-0 flex-col gap-1">
              <span className="font-medium break-words">{item.productName}</span>
              <DeliveryFacts item={item} />
            </div>
            <div className="flex flex-wrap items-center gap-2">
              <Badge
                variant={item.shipping?.state === "delivered" ? "success" : "outline"}
                data-testid="delivery-state"
              >
                {item.shipping ? shippingStateLabel[item.shipping.state] : ""}
              </Badge>
              {item.shipping?.state === "shipped" && <ConfirmDeliveryButton orderId={order.id} item={item} />}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function DeliveryFacts({ item }: { item: Item }) {
  const shipping = item.shipping;
  if (!shipping) return null;
  if (shipping.state === "awaiting_shipment") {
    return <span className="text-xs text-muted-foreground">The seller has not shipped it yet.</span>;
  }
  return (
    <span className="text-xs text-muted-foreground">
      {shipping.carrier} · tracking <span className="font-mono break-all">{shipping.trackingNumber}</span>
      {shipping.shippedAt && <> · shipped {formatDateTime(shipping.shippedAt)}</>}
      {shipping.deliveredAt && (
        <>
          {" "}
          · delivered {formatDateTime(shipping.deliveredAt)}
          {shipping.deliveredBy === "automatic" && " (confirmed automatically)"}
        </>
      )}
    </span>
  );
}

function ConfirmDeliveryButton({ orderId, item }: { orderId: string; item: Item }) {
  const confirm = useConfirmDelivery();
  return (
    <Button
      size="sm"
      variant="outline"
      disabled={confirm.isPending}
      aria-label={`Confirm delivery of ${item.productName}`}
      onClick={() =>
        void runMutation(confirm.mutateAsync({ orderId, itemId: item.id }), {
          success: {
            title: "Delivery confirmed",
            description: `${item.productName} is marked as delivered.`,
          },
          error: { title: "Delivery not confirmed", show: "client" },
        })
      }
    >
      {confirm.isPending ? "Confirming…" : "Confirm delivery"}
    </Button>
  );
}
