import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { BANK_TRANSFER_METHOD, type BankTransfer } from "#domain/bank-transfer";
import type { Order } from "#domain/checkout";
import { formatDate } from "#domain/dates";
import { lineTotal } from "#domain/money";
import { paymentProblem } from "#domain/payments";
import { paths } from "#domain/routes";
import { PageHeader } from "#web/components/layout/page-header";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { LoadError } from "#web/components/ui/load-error";
import { OutcomeCard } from "#web/components/ui/outcome-card";
import { Spinner } from "#web/components/ui/spinner";
import { RequireUser } from "#web/features/auth/components/guards";
import { cartActions } from "#web/features/cart/cart-store";
import { Amount } from "#web/features/currency/components/totals-list";
import { useLicenses } from "#web/features/licenses/api/get-licenses";
import { useOrder } from "#web/features/orders/api/get-order";
import { useBankTransfer } from "#web/features/payments/api/bank-transfer";
import {
  useCompletePayment,
  useOrderPayment,
  useRetryPayment,
} from "#web/features/payments/api/order-payment";
import { BankTransferInstructions } from "#web/features/payments/components/bank-transfer-instructions";
import { ApiError } from "#web/lib/api";

/** How often the page asks again while the payment's answer is on its way. */
const POLL_MS = 2_000;
/** A bank transfer takes days; an admin records it, so asking now and then is enough. */
const TRANSFER_POLL_MS = 15_000;

/** `routePatterns.checkoutComplete`: where the payment provider sends the buyer back, `?order=<id>`. */
export function Component() {
  const [params] = useSearchParams();
  const orderId = params.get("order") ?? "";
  return (
    <>
      <PageHeader title="Your payment" subtitle="The result of your payment and your order." />
      <RequireUser>{orderId ? <PaymentResult orderId={orderId} /> : <NotFoundCard />}</RequireUser>
    </>
  );
}

/** A centred card for the page's own state (no order): heading, text, one action. */
function Notice({
  title,
  text,
  action,
  ...attributes
}: {
  title: string;
  text: string;
  action: ReactNode;
  "data-testid"?: string;
}) {
  return (
    <Card flat className="mx-auto my-12 max-w-lg p-8 text-center" {...attributes}>
      <h2 className="text-xl font-semibold">{title}</h2>
      <p className="mt-2 text-muted-foreground">{text}</p>
      {action}
    </Card>
  );
}

function NotFoundCard() {
  return (
    <Notice
      data-testid="payment-not-found"
      title="Order not found"
      text="This order does not exist or is not yours."
      action={
        <Button asChild variant="outline" className="mt-6">
          <Link to={paths.dashboard()}>Go to your orders</Link>
        </Button>
      }
    />
  );
}

function PaymentResult({ orderId }: { orderId: string }) {
  const [params] = useSearchParams();
  const complete = useCompletePayment(orderId);
  const asked = useRef(false);
  // Ask the provider once on arrival, with what it added to the address (PayPal's token).
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    const query = Object.fromEntries([...params].filter(([name]) => name !== "order"));
    complete.mutate(query);
  }, [complete, params]);

  const pending = (order?: Order) => !order || order.paymentStatus === "pending";
  const order = useOrder(orderId, { pollWhilePendingMs: POLL_MS });

  if (order.isError) {
    if (order.error instanceof ApiError && order.error.status === 404) return <NotFoundCard />;
    return (
      <LoadError
        page
        title="Could not load your order"
        text="Please check your connection; we keep trying."
        error={order.error}
        onRetry={() => void order.refetch()}
      />
    );
  }
  if (order.data?.cancelledAt && order.data.paymentStatus === "failed") return <OrderCancelled />;
  if (order.data?.paymentMethod === BANK_TRANSFER_METHOD) return <BankTransferResult order={order.data} />;
  if (order.isPending || pending(order.data)) {
    return (
      <div className="mx-auto max-w-lg px-4 py-16 text-center" data-testid="payment-waiting">
        <Spinner className="py-6" label="Waiting for your payment" />
        <p className="text-lg font-medium">Waiting for your payment to be confirmed…</p>
        <p className="mt-2 text-sm text-muted-foreground">
          This usually takes a few seconds. You can leave this page; we e-mail you once it is confirmed.
        </p>
      </div>
    );
  }
  if (order.data.paymentStatus === "failed") return <PaymentFailed orderId={orderId} />;
  return <Confirmed order={order.data} />;
}

/** A bank-transfer order: how to pay it while it awaits the money, expired, or confirmed. */
function BankTransferResult({ order }: { order: Order }) {
  const transfer = useBankTransfer(order.id, { pollMs: TRANSFER_POLL_MS });
  const awaiting = transfer.data?.paymentStatus === "processing";
  // The order is placed and its instructions given: the cart that made it is done with.
  useEffect(() => {
    if (awaiting) cartActions.clear();
  }, [awaiting]);
  if (transfer.isPending) return <Spinner className="py-16" label="Loading the payment instructions" />;
  if (transfer.isError) {
    return (
      <LoadError
        page
        title="Could not load the payment instructions"
        text="Please check your connection and try again."
        error={transfer.error}
        onRetry={() => void transfer.refetch()}
      />
    );
  }
  const status = transfer.data.paymentStatus;
  if (status === "failed") return <TransferExpired transfer={transfer.data} />;
  if (status === "processing") {
    return (
      <section className="mx-auto max-w-2xl px-4 py-10" data-testid="payment-awaiting-transfer">
        <BankTransferInstructions transfer={transfer.data} />
        <div className="mt-6 flex flex-col gap-3 sm:flex-row">
          <DashboardLink />
        </div>
      </section>
    );
  }
  const { standing } = transfer.data;
  return <Confirmed order={order} note={standing.status === "overpaid" ? standing.explanation : null} />;
}

function TransferExpired({ transfer }: { transfer: BankTransfer }) {
  const retry = useRetryPayment(transfer.orderId);
  const queryClient = useQueryClient();
  const onRetry = async () => {
    await retry.mutateAsync();
    await queryClient.invalidateQueries({ queryKey: ["orders"] });
  };
  return (
    <OutcomeCard
      outcome="failure"
      title="Order expired"
      testId="payment-failed"
      error={retryError(retry, "Could not place the order again. Please try again.")}
      actions={
        <>
          <Button disabled={retry.isPending} onClick={() => void onRetry().catch(() => undefined)}>
            {retry.isPending ? "Placing the order again…" : "Place the order again"}
          </Button>
          <BackToCart />
        </>
      }
    >
      <p className="mt-1 text-muted-foreground" data-testid="payment-reason">
        The full amount had not arrived by {formatDate(transfer.dueAt)}, so the order expired.
      </p>
      {transfer.standing.status !== "awaiting" && (
        <p className="mt-2 text-sm font-medium">{transfer.standing.explanation}</p>
      )}
      <p className="mt-2 text-sm text-muted-foreground">
        Place it again to get a new due date; the reference and anything already received stay the same.
      </p>
    </OutcomeCard>
  );
}

function Confirmed({ order, note = null }: { order: Order; note?: string | null }) {
  // The order is paid: the cart that made it is done with.
  useEffect(() => cartActions.clear(), []);
  return (
    <OutcomeCard
      outcome="success"
      title="Thank you, your order is confirmed"
      testId="payment-confirmed"
      wide
      details={<OrderSummary order={order} />}
      actions={
        <>
          <Button asChild>
            <Link to={paths.invoice(order.id)}>View invoice</Link>
          </Button>
          <DashboardLink />
        </>
      }
    >
      <p className="mt-1 text-sm text-muted-foreground">
        Order {order.id.slice(0, 8)} · a confirmation e-mail is on its way.
      </p>
      {note && (
        <p className="mt-2 text-sm font-medium" data-testid="transfer-standing">
          {note}
        </p>
      )}
    </OutcomeCard>
  );
}

/** The confirmed order's lines, its total and the license keys it brought. */
function OrderSummary({ order }: { order: Order }) {
  const licenses = useLicenses();
  const keys = licenses.data?.items.filter((l) => l.orderId === order.id) ?? [];
  return (
    <>
      <ul className="mt-6 divide-y divide-border border-y border-border">
        {order.items.map((item) => (
          <li key={item.id} className="flex justify-between gap-4 py-3 text-sm">
            <span className="min-w-0 break-words">
              {item.productName} × {item.quantity}
            </span>
            <span className="shrink-0 tabular-nums">
              <Amount usd={lineTotal(item.price, item.quantity)} />
            </span>
          </li>
        ))}
      </ul>
      <p className="mt-4 flex justify-between text-base font-semibold">
        <span>Total</span>
        <span className="tabular-nums" data-testid="confirmed-total">
          <Amount usd={order.totalAmount} />
        </span>
      </p>
      {licenses.isPending ? (
        <Spinner className="py-6" label="Loading license keys" />
      ) : keys.length > 0 ? (
        <div className="mt-6">
          <h3 className="font-medium">Your license keys</h3>
          <ul className="mt-2 space-y-2" data-testid="confirmed-keys">
            {keys.map((license) => (
              <li key={license.id} className="rounded-md bg-muted px-3 py-2 text-sm">
                <span className="block text-muted-foreground">{license.productName}</span>
                <code className="break-all font-mono">{license.key}</code>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  );
}

/** The buyer cancelled the order while it awaited payment: it is not paid again. */
function OrderCancelled() {
  return (
    <OutcomeCard
      outcome="neutral"
      title="Order cancelled"
      testId="order-cancelled"
      actions={
        <>
          <Button asChild>
            <Link to={paths.cart()}>Back to cart</Link>
          </Button>
          <DashboardLink />
        </>
      }
    >
      <p className="mt-1 text-muted-foreground">
        You cancelled this order, so nothing was charged. To buy these items, place a new order.
      </p>
    </OutcomeCard>
  );
}

function PaymentFailed({ orderId }: { orderId: string }) {
  const payment = useOrderPayment(orderId, true);
  const retry = useRetryPayment(orderId);
  const [leaving, setLeaving] = useState(false);
  const onRetry = async () => {
    const { redirectUrl } = await retry.mutateAsync();
    setLeaving(true);
    // Scroll restoration keys a freshly loaded page by the same key: leave at the top, arrive at the top.
    window.scrollTo(0, 0);
    window.location.assign(redirectUrl);
  };
  const title = payment.data?.payment?.state === "cancelled" ? "Payment cancelled" : "Payment not completed";
  return (
    <OutcomeCard
      outcome="failure"
      title={title}
      testId="payment-failed"
      error={retryError(retry, "Could not start the payment. Please try again.")}
      actions={
        <>
          <Button disabled={retry.isPending || leaving} onClick={() => void onRetry().catch(() => undefined)}>
            {retry.isPending || leaving ? "Opening the payment page…" : "Try again"}
          </Button>
          <BackToCart />
        </>
      }
    >
      <p className="mt-1 text-muted-foreground" data-testid="payment-reason">
        {payment.isPending ? "Loading the reason…" : paymentProblem(payment.data ?? null)}
      </p>
      <p className="mt-2 text-sm text-muted-foreground">Nothing was charged. Your cart is kept.</p>
    </OutcomeCard>
  );
}

/** What a failed retry says: the server's message, else `fallback`; nothing while it has not failed. */
function retryError(retry: { isError: boolean; error: unknown }, fallback: string) {
  if (!retry.isError) return null;
  return retry.error instanceof ApiError ? retry.error.message : fallback;
}

/** The secondary way back to the cart, beside a failed payment's retry. */
function BackToCart() {
  return (
    <Button asChild variant="outline">
      <Link to={paths.cart()}>Back to cart</Link>
    </Button>
  );
}

/** The secondary way on to the buyer's dashboard. */
function DashboardLink() {
  return (
    <Button asChild variant="outline">
      <Link to={paths.dashboard()}>Go to your dashboard</Link>
    </Button>
  );
}
