import { zodResolver } from "@hookform/resolvers/zod";
import { PackageCheck } from "lucide-react";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import type { Me } from "#domain/accounts";
import { hasRole } from "#domain/accounts";
import { countryName } from "#domain/countries";
import { formatDate, formatDateTime } from "#domain/dates";
import {
  type MarkShippedInput,
  markShippedSchema,
  type Shipment,
  type ShipmentFilter,
  shippingStateLabel,
} from "#domain/shipping";
import { ViewCard } from "#web/components/layout/view-card";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { LoadError } from "#web/components/ui/load-error";
import { useMarkShipped, useShipments } from "#web/features/shipping/api/shipments";
import { runMutation } from "#web/lib/mutation";
import { cn } from "#web/lib/utils";

const filters: { value: ShipmentFilter; label: string; empty: string }[] = [
  { value: "to_ship", label: "To ship", empty: "Nothing to ship. Paid hardware orders appear here." },
  { value: "shipped", label: "Shipped", empty: "No items on their way." },
  { value: "delivered", label: "Delivered", empty: "No delivered items yet." },
];

/** The seller's "To ship" view: paid physical items to send, and those on their way or delivered. */
export function ToShipView({ me }: { me: Me }) {
  const [filter, setFilter] = useState<ShipmentFilter>("to_ship");
  return (
    <ViewCard
      title="To ship"
      description="Hardware buyers have paid for. Ship each item and enter its carrier and tracking number: the buyer is e-mailed, and the item counts as delivered when they confirm it (or automatically some days later)."
    >
      {hasRole(me.roles, "seller") ? (
        <div className="flex flex-col gap-4">
          <fieldset className="flex flex-wrap gap-2">
            <legend className="sr-only">Show</legend>
            {filters.map((f) => (
              <Button
                key={f.value}
                size="sm"
                variant={filter === f.value ? "default" : "outline"}
                aria-pressed={filter === f.value}
                onClick={() => setFilter(f.value)}
              >
                {f.label}
              </Button>
            ))}
          </fieldset>
          <ShipmentList filter={filter} />
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">Shipping is for sellers of hardware.</p>
      )}
    </ViewCard>
  );
}

function ShipmentList({ filter }: { filter: ShipmentFilter }) {
  const shipments = useShipments(filter);
  const empty = filters.find((f) => f.value === filter)?.empty ?? "";
  if (shipments.isPending) {
    return (
      <div role="status" aria-label="Loading items" className="flex flex-col gap-3">
        {[0, 1].map((row) => (
          <div key={row} className="h-28 animate-pulse rounded-lg bg-muted" aria-hidden />
        ))}
      </div>
    );
  }
  if (shipments.isError) {
    return <LoadError what="items" error={shipments.error} onRetry={() => void shipments.refetch()} />;
  }
  if (shipments.data.items.length === 0) {
    return (
      <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-border px-4 py-10 text-center">
        <PackageCheck className="size-10 text-muted-foreground" aria-hidden />
        <p className="text-sm text-muted-foreground">{empty}</p>
      </div>
    );
  }
  return (
    <ul
      className={cn("flex flex-col gap-3", shipments.isPlaceholderData && "opacity-60")}
      aria-busy={shipments.isFetching}
    >
      {shipments.data.items.map((shipment) => (
        <ShipmentCard key={shipment.orderItemId} shipment={shipment} />
      ))}
    </ul>
  );
}

function ShipmentCard({ shipment }: { shipment: Shipment }) {
  const headingId = useId();
  const { shipping, address } = shipment;
  return (
    <li
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-lg border border-border p-4"
      data-testid="shipment"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 id={headingId} className="font-medium break-words">
            {shipment.quantity > 1 ? `${shipment.quantity} × ` : ""}
            {shipment.productName}
          </h3>
          <p className="text-xs text-muted-foreground">
            Order <span className="font-mono">{shipment.orderId.slice(0, 8)}</span> ·{" "}
            <time dateTime={shipment.orderedAt}>{formatDate(shipment.orderedAt)}</time>
          </p>
        </div>
        <Badge variant={shipping.state === "delivered" ? "success" : "outline"}>
          {shipment.refunded ? "Refunded" : shippingStateLabel[shipping.state]}
        </Badge>
      </div>
      <div className="grid gap-3 text-sm sm:grid-cols-2">
        {address ? (
          <address className="not-italic text-muted-foreground" data-testid="shipment-address">
            <span className="font-medium text-foreground">{address.fullName}</span>
            <br />
            {address.line1}
            {address.line2 && (
              <>
                <br />
                {address.line2}
              </>
            )}
            <br />
            {address.postalCode} {address.city}
            <br />
            {countryName(address.country)}
            <br />
            {address.phone}
          </address>
        ) : (
          <p className="text-muted-foreground">No address was given for this order.</p>
        )}
        {shipping.state !== "awaiting_shipment" && (
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
            <dt className="text-muted-foreground">Carrier</dt>
            <dd className="break-words">{shipping.carrier}</dd>
            <dt className="text-muted-foreground">Tracking</dt>
            <dd className="font-mono break-all">{shipping.trackingNumber}</dd>
            {shipping.shippedAt && (
              <>
                <dt className="text-muted-foreground">Shipped</dt>
                <dd>
                  <time dateTime={shipping.shippedAt}>{formatDateTime(shipping.shippedAt)}</time>
                </dd>
              </>
            )}
            {shipping.deliveredAt && (
              <>
                <dt className="text-muted-foreground">Delivered</dt>
                <dd>
                  <time dateTime={shipping.deliveredAt}>{formatDateTime(shipping.deliveredAt)}</time>
                  {shipping.deliveredBy === "automatic" ? " (automatically)" : " (confirmed by the buyer)"}
                </dd>
              </>
            )}
          </dl>
        )}
      </div>
      {shipping.state === "awaiting_shipment" && !shipment.refunded && <ShipForm shipment={shipment} />}
    </li>
  );
}

function ShipForm({ shipment }: { shipment: Shipment }) {
  const markShipped = useMarkShipped();
  const form = useForm<MarkShippedInput>({
    resolver: zodResolver(markShippedSchema),
    defaultValues: { carrier: "", trackingNumber: "" },
  });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    await runMutation(markShipped.mutateAsync({ itemId: shipment.orderItemId, ...values }), {
      success: {
        title: "Marked as shipped",
        description: "The buyer has been e-mailed the tracking number.",
      },
      error: { title: "Not marked as shipped", show: "client" },
    });
  });
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label={`Ship ${shipment.productName}`}
      className="grid gap-3 border-t border-border pt-3 sm:grid-cols-[1fr_1fr_auto] sm:items-start"
    >
      <FormField label="Carrier" error={errors.carrier?.message}>
        <Input autoComplete="off" placeholder="e.g. DHL Express" {...form.register("carrier")} />
      </FormField>
      <FormField label="Tracking number" error={errors.trackingNumber?.message}>
        <Input autoComplete="off" spellCheck={false} {...form.register("trackingNumber")} />
      </FormField>
      <Button type="submit" disabled={isSubmitting} className="sm:mt-6">
        {isSubmitting ? "Saving…" : "Mark shipped"}
      </Button>
    </form>
  );
}
