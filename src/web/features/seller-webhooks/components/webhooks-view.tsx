import { BookOpen, Send, Webhook } from "lucide-react";
import { useId, useState } from "react";
import { Link } from "react-router";
import { hasRole, type Me } from "#domain/accounts";
import { formatDateTime } from "#domain/dates";
import { paths } from "#domain/routes";
import {
  MAX_SELLER_WEBHOOK_ENDPOINTS,
  type SellerWebhookDelivery,
  type SellerWebhookEndpoint,
  WEBHOOK_RETRY_DAYS,
} from "#domain/seller-webhooks";
import { ViewCard } from "#web/components/layout/view-card";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { LoadError } from "#web/components/ui/load-error";
import { ScrollTable, TableCell, TableRow } from "#web/components/ui/table";
import { callStatusText } from "#web/features/seller-api/call-status";
import { useDeliveries } from "#web/features/seller-webhooks/api/get-deliveries";
import { useWebhooks } from "#web/features/seller-webhooks/api/get-webhooks";
import { useReplayDelivery } from "#web/features/seller-webhooks/api/replay-delivery";
import { useSendTestEvent } from "#web/features/seller-webhooks/api/send-test-event";
import { useUpdateWebhook } from "#web/features/seller-webhooks/api/update-webhook";
import {
  AddWebhookButton,
  DeleteWebhookButton,
  EditWebhookButton,
  RotateSecretButton,
} from "#web/features/seller-webhooks/components/webhook-dialogs";
import { Pager } from "#web/features/subscription-reports/components/report-parts";
import { runMutation } from "#web/lib/mutation";
import { cn } from "#web/lib/utils";

const TITLE = "Webhooks";

/**
 * The dashboard's Webhooks view, for sellers: the endpoints Stackbay posts their chosen events to, and
 * the log of each delivery with its payload, status and attempts, where a delivery can be replayed.
 */
export function WebhooksView({ me }: { me: Me }) {
  const seller = hasRole(me.roles, "seller");
  return (
    <ViewCard
      title={TITLE}
      description="Stackbay posts the events you choose to your own servers, signed, and retries for days when they fail."
      action={
        seller && (
          <Button asChild variant="outline" size="sm">
            <Link to={`${paths.developers()}#webhooks`}>
              <BookOpen aria-hidden /> How to receive webhooks
            </Link>
          </Button>
        )
      }
    >
      {seller ? (
        <div className="flex flex-col gap-10">
          <Endpoints />
          <Deliveries />
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">Webhooks are for sellers.</p>
      )}
    </ViewCard>
  );
}

function Endpoints() {
  const endpoints = useWebhooks();
  const id = useId();
  if (endpoints.isPending) return <Skeleton label="Loading webhook endpoints" />;
  if (endpoints.isError)
    return <LoadError what="webhook endpoints" error={endpoints.error} onRetry={() => endpoints.refetch()} />;
  const { items } = endpoints.data;
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h3 id={id} className="text-lg font-semibold">
            Endpoints
          </h3>
          <p className="mt-1 text-sm text-muted-foreground" data-testid="webhook-count">
            {`${items.length} of ${MAX_SELLER_WEBHOOK_ENDPOINTS} endpoints.`}
          </p>
        </div>
        <AddWebhookButton count={items.length} />
      </div>
      {items.length === 0 ? (
        <div
          className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-border px-4 py-12 text-center"
          data-testid="webhooks-empty"
        >
          <Webhook className="size-10 text-muted-foreground" aria-hidden />
          <p className="text-lg font-semibold">No endpoints yet</p>
          <p className="max-w-md text-sm text-muted-foreground">
            Add the URL of a receiver on your servers and choose what it hears about: paid orders,
            subscriptions starting and ending, refunds, reviews and questions.
          </p>
        </div>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Webhook endpoints">
          {items.map((endpoint) => (
            <EndpointCard key={endpoint.id} endpoint={endpoint} />
          ))}
        </ul>
      )}
    </section>
  );
}

function EndpointCard({ endpoint }: { endpoint: SellerWebhookEndpoint }) {
  const test = useSendTestEvent();
  const update = useUpdateWebhook();
  const off = endpoint.disabledAt !== null;
  const sendTest = () =>
    runMutation(test.mutateAsync(endpoint.id), {
      success: (delivery) => ({
        title: delivery.status === "succeeded" ? "Test event delivered" : "Test event not delivered",
        description: delivery.lastError ?? endpoint.url,
      }),
      error: { title: "Failed to send the test event", show: "client" },
    });
  const turn = (enabled: boolean) =>
    runMutation(update.mutateAsync({ id: endpoint.id, enabled }), {
      success: { title: enabled ? "Endpoint turned on" : "Endpoint turned off", description: endpoint.url },
      error: { title: "Failed to change the endpoint", show: "client" },
    });
  return (
    <li
      className="flex flex-col gap-3 rounded-lg border border-border p-4"
      data-testid="webhook-endpoint"
      data-state={off ? "off" : "on"}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <code className="block font-mono text-sm break-all">{endpoint.url}</code>
          {endpoint.description && <p className="text-sm text-muted-foreground">{endpoint.description}</p>}
        </div>
        {off ? (
          <Badge variant="outline" className="border-destructive/60 text-destructive">
            Turned off
          </Badge>
        ) : endpoint.failingSince ? (
          <Badge variant="outline" className="border-amber-600/60 text-amber-700 dark:text-amber-400">
            Failing
          </Badge>
        ) : (
          <Badge variant="success">On</Badge>
        )}
      </div>
      <ul className="flex flex-wrap gap-1" aria-label="Events">
        {endpoint.events.map((event) => (
          <li key={event}>
            <Badge variant="secondary" className="font-mono text-xs">
              {event}
            </Badge>
          </li>
        ))}
      </ul>
      {off && (
        <p className="text-sm text-destructive">
          {`Turned off on ${formatDateTime(endpoint.disabledAt ?? "")} after every delivery failed for ${WEBHOOK_RETRY_DAYS} days. Fix the receiver, turn it back on, then replay what it missed.`}
        </p>
      )}
      {!off && endpoint.failingSince && (
        <p className="text-sm text-muted-foreground">
          {`Deliveries have failed since ${formatDateTime(endpoint.failingSince)}. After ${WEBHOOK_RETRY_DAYS} days of failures the endpoint is turned off.`}
        </p>
      )}
      {endpoint.previousSecretUntil && (
        <p className="text-sm text-muted-foreground">
          {`The previous secret signs too until ${formatDateTime(endpoint.previousSecretUntil)}.`}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          onClick={sendTest}
          disabled={test.isPending}
          aria-label={`Send test event: ${endpoint.url}`}
        >
          <Send aria-hidden /> {test.isPending ? "Sending..." : "Send test event"}
        </Button>
        <EditWebhookButton endpoint={endpoint} />
        <RotateSecretButton endpoint={endpoint} />
        <Button size="sm" variant="outline" onClick={() => turn(off)} disabled={update.isPending}>
          {off ? "Turn on" : "Turn off"}
        </Button>
        <DeleteWebhookButton endpoint={endpoint} />
      </div>
    </li>
  );
}

const columns = ["Time", "Event", "Endpoint", "Status", "Attempts", "Payload", ""];

function Deliveries() {
  const id = useId();
  const [page, setPage] = useState(1);
  const deliveries = useDeliveries(page);
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <div>
        <h3 id={id} className="text-lg font-semibold">
          Deliveries
        </h3>
        <p className="mt-1 text-sm text-muted-foreground">
          {`Every event sent to your endpoints, newest first, with its last attempt. A failed attempt is retried with growing waits for ${WEBHOOK_RETRY_DAYS} days.`}
        </p>
      </div>
      {deliveries.isPending ? (
        <Skeleton label="Loading the deliveries" />
      ) : deliveries.isError ? (
        <LoadError what="deliveries" error={deliveries.error} onRetry={() => deliveries.refetch()} />
      ) : deliveries.data.total === 0 ? (
        <div
          className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-border px-4 py-8 text-center"
          data-testid="webhook-deliveries-empty"
        >
          <Send className="size-8 text-muted-foreground" aria-hidden />
          <p className="font-medium">No deliveries yet</p>
          <p className="max-w-md text-sm text-muted-foreground">
            Send a test event to an endpoint to see how a delivery looks.
          </p>
        </div>
      ) : (
        <div
          className={cn(
            "flex flex-col gap-3",
            deliveries.isPlaceholderData && "opacity-70 transition-opacity",
          )}
        >
          <ScrollTable
            label="Deliveries"
            columns={columns}
            minWidth="min-w-[56rem]"
            testId="webhook-delivery-table"
          >
            {deliveries.data.items.map((delivery) => (
              <DeliveryRow key={delivery.id} delivery={delivery} />
            ))}
          </ScrollTable>
          <Pager
            what="deliveries"
            total={deliveries.data.total}
            page={deliveries.data.page}
            pageSize={deliveries.data.pageSize}
            onPage={setPage}
          />
        </div>
      )}
    </section>
  );
}

const statusBadge: Record<SellerWebhookDelivery["status"], { label: string; className?: string }> = {
  succeeded: { label: "Delivered" },
  pending: { label: "Retrying", className: "border-amber-600/60 text-amber-700 dark:text-amber-400" },
  failed: { label: "Failed", className: "border-destructive/60 text-destructive" },
};

function DeliveryRow({ delivery }: { delivery: SellerWebhookDelivery }) {
  const replay = useReplayDelivery();
  const badge = statusBadge[delivery.status];
  const pendingFirst = delivery.status === "pending" && delivery.attempts === 0;
  const again = () =>
    runMutation(replay.mutateAsync(delivery.id), {
      success: (answer) => ({
        title: answer.status === "succeeded" ? "Delivery replayed" : "Replay not delivered",
        description: answer.lastError ?? answer.eventType,
      }),
      error: { title: "Failed to replay the delivery", show: "client" },
    });
  return (
    <TableRow className="[&>td]:align-top" data-testid="webhook-delivery-row" data-status={delivery.status}>
      <TableCell className="whitespace-nowrap">
        <time dateTime={delivery.createdAt}>{formatDateTime(delivery.createdAt)}</time>
      </TableCell>
      <TableCell>
        <code className="font-mono text-xs" data-testid="webhook-delivery-type">
          {delivery.eventType}
        </code>
        <code className="block font-mono text-[0.6875rem] break-all text-muted-foreground">
          {delivery.eventId}
        </code>
      </TableCell>
      <TableCell className="max-w-56">
        <code className="font-mono text-xs break-all">{delivery.endpointUrl}</code>
      </TableCell>
      <TableCell className="min-w-40">
        <Badge
          variant={delivery.status === "succeeded" ? "success" : "outline"}
          className={cn("whitespace-nowrap", badge.className)}
          data-testid="webhook-delivery-status"
        >
          {pendingFirst ? "Queued" : badge.label}
        </Badge>
        <span className="mt-1 block text-xs text-muted-foreground">
          {delivery.responseStatus !== null
            ? callStatusText(delivery.responseStatus)
            : (delivery.lastError ?? "")}
          {delivery.durationMs !== null && ` · ${delivery.durationMs} ms`}
        </span>
        {delivery.nextAttemptAt && delivery.attempts > 0 && (
          <span className="block text-xs text-muted-foreground">
            Next attempt{" "}
            <time dateTime={delivery.nextAttemptAt}>{formatDateTime(delivery.nextAttemptAt)}</time>
          </span>
        )}
      </TableCell>
      <TableCell className="tabular-nums">{delivery.attempts}</TableCell>
      <TableCell className="max-w-72">
        <details>
          <summary className="cursor-pointer text-sm">Show</summary>
          <pre
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a box that scrolls must be reachable by keyboard
            tabIndex={0}
            className="mt-2 max-h-64 overflow-auto rounded-md border border-border bg-muted p-2 font-mono text-xs"
          >
            {JSON.stringify(delivery.payload, null, 2)}
          </pre>
        </details>
      </TableCell>
      <TableCell>
        <Button size="sm" variant="outline" onClick={again} disabled={replay.isPending}>
          {replay.isPending ? "Replaying..." : "Replay"}
        </Button>
      </TableCell>
    </TableRow>
  );
}

function Skeleton({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label} className="flex flex-col gap-3">
      <div className="h-7 w-40 animate-pulse rounded bg-muted" aria-hidden />
      {[0, 1, 2].map((row) => (
        <div key={row} className="h-12 animate-pulse rounded bg-muted" aria-hidden />
      ))}
    </div>
  );
}
