import { CalendarDays, Copy, Download, Repeat, TriangleAlert } from "lucide-react";
import { type ComponentType, createContext, type ReactNode, use, useId, useRef, useState } from "react";
import { Link } from "react-router";
import { formatDate } from "#domain/dates";
import { usageLabel } from "#domain/metering";
import { formatUsd, lineTotal, toUnits } from "#domain/money";
import { unitSuffix } from "#domain/pricing-units";
import {
  type CalendarRenewal,
  calendarByMonth,
  renewalCalendar,
  renewalTitle,
} from "#domain/renewal-calendar";
import { paths } from "#domain/routes";
import type { PendingChange, Subscription } from "#domain/subscription-schemas";
import { type BillingInterval, quantityLabel, type SubscriptionStatus } from "#domain/subscriptions";
import { ViewCard } from "#web/components/layout/view-card";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "#web/components/ui/alert-dialog";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { LoadError } from "#web/components/ui/load-error";
import { Table, TableFrame } from "#web/components/ui/table";
import { Amount } from "#web/features/currency/components/totals-list";
import { useMoney } from "#web/features/currency/use-money";
import { PayNow } from "#web/features/payments/components/pay-now";
import { useCancelSubscription } from "#web/features/subscriptions/api/cancel-subscription";
import {
  calendarCsvUrl,
  calendarIcsUrl,
  useSubscriptions,
} from "#web/features/subscriptions/api/get-subscriptions";
import { useResumeSubscription } from "#web/features/subscriptions/api/resume-subscription";
import { MeteredUsage } from "#web/features/subscriptions/components/metered-usage";
import { copyText } from "#web/lib/clipboard";
import { runMutation } from "#web/lib/mutation";
import { cn } from "#web/lib/utils";

const columns = ["Subscription", "Plan", "Status", "Next charge", "License keys", "Actions"];

const intervalLabel = { month: "Monthly", year: "Yearly" } as const satisfies Record<BillingInterval, string>;

const statusLabel = {
  trialing: "Trial",
  active: "Active",
  cancelling: "Cancelling",
  past_due: "Past due",
  ended: "Ended",
} as const satisfies Record<SubscriptionStatus, string>;

/** When a subscription that stops renewing stops: the end it was given, else the end of the paid period. */
const endOf = (subscription: Subscription) => subscription.endsAt ?? subscription.paidThrough;

/**
 * Whether it is still in its free trial (trialing, or cancelled during it): no period paid yet, so it is
 * "paid through" the trial's end.
 */
const inTrial = ({ trialEndsAt, paidThrough, status }: Subscription) =>
  trialEndsAt !== null &&
  status !== "ended" &&
  new Date(paidThrough).getTime() <= new Date(trialEndsAt).getTime();

/**
 * What the screen adds to each subscription from other features, which build on this feature's
 * list (so this one cannot import them): Change plan and Subscribe again, from `subscription-changes`, and
 * Change payment method, from `payment-methods`.
 */
export type SubscriptionAction = ComponentType<{ subscription: Subscription }>;
type DeskActions = {
  changePlan: SubscriptionAction | null;
  paymentMethod: SubscriptionAction | null;
  subscribeAgain: SubscriptionAction | null;
};
const DeskActionsContext = createContext<DeskActions>({
  changePlan: null,
  paymentMethod: null,
  subscribeAgain: null,
});

/**
 * The dashboard's Subscriptions view, the buyer's renewal desk: what each subscription costs, when it
 * renews and what it renews on. `changePlan` is the Change plan button (and its dialog) of an active or
 * trialing subscription, `paymentMethod` the Change payment method button (and its dialog) beside the
 * payment method of one not ended, and `subscribeAgain` the Subscribe again button of an ended one.
 */
export function SubscriptionsView({
  changePlan = null,
  paymentMethod = null,
  subscribeAgain = null,
}: {
  changePlan?: SubscriptionAction | null;
  paymentMethod?: SubscriptionAction | null;
  subscribeAgain?: SubscriptionAction | null;
}) {
  const subscriptions = useSubscriptions();
  const money = useMoney();
  const description =
    money.currency.code === "USD"
      ? "Every subscription you hold, what it costs and when it renews."
      : `Every subscription you hold, what it costs and when it renews. Amounts are shown in ${money.currency.name}; renewals are charged in USD.`;
  return (
    <ViewCard title="Subscriptions" description={description}>
      {subscriptions.isPending ? (
        <SubscriptionsSkeleton />
      ) : subscriptions.isLoadingError ? (
        // Only a first load that failed: a refetch that fails (the 30 s one of metered use, or on focus)
        // keeps the desk as it was shown, and the next refetch tries again.
        <LoadError
          what="subscriptions"
          error={subscriptions.error}
          onRetry={() => void subscriptions.refetch()}
        />
      ) : subscriptions.data.items.length === 0 ? (
        <NoSubscriptions />
      ) : (
        <DeskActionsContext value={{ changePlan, paymentMethod, subscribeAgain }}>
          <div className="flex flex-col gap-10">
            <SubscriptionsTable items={subscriptions.data.items} />
            <MeteredUsage items={subscriptions.data.items} />
            <RenewalCalendar items={subscriptions.data.items} asOf={subscriptions.data.asOf} />
          </div>
        </DeskActionsContext>
      )}
    </ViewCard>
  );
}

function SubscriptionsTable({ items }: { items: Subscription[] }) {
  return (
    // Too narrow for six columns (a phone, a tablet), each subscription becomes a stacked card.
    <TableFrame aria-label="Your subscriptions" className="rounded-sm border-0">
      <Table className="min-w-[52rem]" data-testid="subscriptions-table">
        <thead className="border-b border-border text-muted-foreground">
          <tr>
            {columns.map((column) => (
              <th
                key={column}
                scope="col"
                className="px-3 py-2 font-medium whitespace-nowrap first:pl-0 last:pr-0"
              >
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {items.map((subscription) => (
            <SubscriptionRow key={subscription.id} subscription={subscription} />
          ))}
        </tbody>
      </Table>
    </TableFrame>
  );
}

function SubscriptionRow({ subscription }: { subscription: Subscription }) {
  const { productId, productName, planName, vendor, interval, quantity, startedAt, orderId } = subscription;
  const cell = "px-3 py-3 align-top";
  return (
    <tr data-testid="subscription-row">
      <td className="py-3 pr-3 align-top">
        <div className="flex min-w-0 flex-col gap-0.5">
          <span className="font-medium break-words" data-testid="subscription-product">
            {productId ? (
              <Link to={paths.product(productId)} className="hover:underline">
                {productName}
              </Link>
            ) : (
              productName
            )}
          </span>
          <span className="text-muted-foreground">{vendor ?? "Unknown Vendor"}</span>
          <span className="text-xs text-muted-foreground">
            Since <time dateTime={startedAt}>{formatDate(startedAt)}</time> ·{" "}
            <Link
              to={paths.invoice(orderId)}
              className="font-medium whitespace-nowrap text-primary hover:underline"
              data-testid="subscription-order"
            >
              Order {orderId.slice(0, 8)}
            </Link>
          </span>
        </div>
      </td>
      <td className={cell}>
        <div className="flex flex-col gap-0.5">
          {/* The plan's own name, unless it only says its interval ("Monthly", "Yearly"). */}
          {planName && planName !== intervalLabel[interval] && (
            <span className="font-medium break-words" data-testid="subscription-plan-name">
              {planName}
            </span>
          )}
          <span className="whitespace-nowrap" data-testid="subscription-plan">
            {intervalLabel[interval]}
            {quantity > 1 && <span className="text-muted-foreground tabular-nums"> × {quantity}</span>}
          </span>
          {subscription.usage && subscription.status !== "ended" && (
            <span className="text-xs text-muted-foreground" data-testid="subscription-metered">
              {paysForUseOnly(subscription) ? "Pay as you go" : "Plus use"}:{" "}
              {usageLabel(subscription.usage.quantity, subscription.usage.unit)} so far
            </span>
          )}
          {subscription.pendingChange && <PendingChangeLine change={subscription.pendingChange} />}
        </div>
      </td>
      <td className={cell}>
        <div className="flex flex-col items-start gap-1">
          <StatusBadge status={subscription.status} />
          <DateLine subscription={subscription} />
        </div>
      </td>
      <td className={cell}>
        <NextCharge subscription={subscription} />
      </td>
      <td className={cell}>
        <LicenseKeys subscription={subscription} />
      </td>
      <td className="py-3 pl-3 align-top">
        <SubscriptionActions subscription={subscription} />
      </td>
    </tr>
  );
}

/**
 * A change of plan or seats made and not yet in effect: when it starts, or that its order waits for
 * payment (Pay now is among the actions).
 */
function PendingChangeLine({ change }: { change: PendingChange }) {
  const name = change.planName ?? intervalLabel[change.interval];
  return (
    <span
      className="max-w-64 text-xs font-medium text-sky-800 dark:text-sky-300"
      data-testid="subscription-pending-change"
    >
      {change.status === "scheduled" ? (
        <>
          Changing to {name}, {quantityLabel(change.quantity, change.perSeat)} on{" "}
          <On date={change.effectiveAt} />
        </>
      ) : (
        <>Change to {name} awaits payment</>
      )}
    </span>
  );
}

/** A subscription's status as a badge (the renewal desk's, and the seller's and admin's lists). */
export function StatusBadge({ status }: { status: SubscriptionStatus }) {
  return (
    <Badge
      variant={
        status === "active"
          ? "success"
          : status === "trialing"
            ? "default"
            : status === "cancelling"
              ? "secondary"
              : "outline"
      }
      className={cn(
        status === "past_due" && "border-destructive text-destructive",
        status === "ended" && "text-muted-foreground",
      )}
      data-testid="subscription-status"
    >
      {statusLabel[status]}
    </Badge>
  );
}

const On = ({ date }: { date: string }) => (
  <time dateTime={date} className="whitespace-nowrap">
    {formatDate(date)}
  </time>
);

/**
 * What happens next, and when: its trial ends and it is first charged, it renews, it ends, it ended, or
 * its renewal waits for payment; and a new price announced for a coming renewal.
 */
function DateLine({ subscription }: { subscription: Subscription }) {
  const { status, due, paidThrough, endsAt, endReason, trialEndsAt, nextTotal } = subscription;
  let line: ReactNode;
  let note: ReactNode = null;
  switch (status) {
    case "trialing":
      line = (
        <>
          Trial ends <On date={trialEndsAt ?? paidThrough} />
          {nextTotal !== null && (
            <>
              , then{" "}
              <span className="tabular-nums">
                <Amount usd={nextTotal} />
              </span>
            </>
          )}
        </>
      );
      break;
    case "active":
      line = due ? (
        <>
          Payment due on <On date={due.dueAt} />
        </>
      ) : (
        <>
          Renews on <On date={paidThrough} />
        </>
      );
      break;
    case "cancelling":
      line = (
        <>
          Ends on <On date={endOf(subscription)} />
        </>
      );
      if (inTrial(subscription)) note = "Trial cancelled: nothing will be charged";
      break;
    case "past_due":
      line = (
        <>
          Payment due since <On date={due?.dueAt ?? paidThrough} />
        </>
      );
      if (endsAt)
        note = (
          <>
            Ends on <On date={endsAt} /> unless paid
          </>
        );
      break;
    case "ended":
      line = (
        <>
          Ended on <On date={endOf(subscription)} />
        </>
      );
      // A metered subscription's final bill of its last use, unpaid.
      if (due)
        note = (
          <>
            Bill for its last use due:{" "}
            <span className="tabular-nums">
              <Amount usd={due.total} />
            </span>
          </>
        );
      else if (endReason) note = endReason === "cancelled" ? "Cancelled" : "Renewal not paid";
      break;
  }
  return (
    <>
      <span className="text-sm" data-testid="subscription-date">
        {line}
      </span>
      {note && (
        <span className="text-xs text-muted-foreground" data-testid="subscription-date-note">
          {note}
        </span>
      )}
      <PriceChangeLine subscription={subscription} />
    </>
  );
}

/** A metered subscription without a fee (pay as you go, decision 0029): its renewals bill use alone. */
const paysForUseOnly = (subscription: Subscription) =>
  subscription.usage !== null && toUnits(subscription.unitPrice) === 0;

/**
 * A new price announced for a coming renewal: one period's price for its seats (before tax, as the
 * notice e-mail gives it) and the first renewal due at it.
 */
function PriceChangeLine({ subscription }: { subscription: Subscription }) {
  const { priceChange, quantity, interval } = subscription;
  if (!priceChange) return null;
  return (
    <span
      className="max-w-64 text-xs font-medium text-amber-800 dark:text-amber-300"
      data-testid="subscription-price-change"
    >
      Price changes to{" "}
      <span className="whitespace-nowrap tabular-nums">
        <Amount usd={lineTotal(priceChange.unitPrice, quantity)} />
        {unitSuffix(interval)}
      </span>{" "}
      before tax from <On date={priceChange.from} />
    </span>
  );
}

/**
 * The next renewal's total with tax, in the display currency, with the USD it is charged in; and, while
 * it renews, what it is charged to, with Change payment method (when the screen gives it).
 */
function NextCharge({ subscription }: { subscription: Subscription }) {
  const money = useMoney();
  // Priced by use alone, nothing is known of the next charge but this period's use so far (its estimate).
  const byUse = paysForUseOnly(subscription) && !subscription.due;
  const next = byUse
    ? (subscription.usage?.estimate ?? null)
    : (subscription.nextTotal ?? subscription.due?.total ?? null);
  const method = subscription.status === "ended" ? null : <PaymentMethodLine subscription={subscription} />;
  if (next === null)
    return (
      <div className="flex flex-col gap-0.5">
        <span className="text-muted-foreground">None</span>
        {method}
      </div>
    );
  return (
    <div className="flex flex-col gap-0.5">
      <span className="font-medium tabular-nums" data-testid="subscription-next">
        <Amount usd={next} />
      </span>
      {subscription.usage && subscription.status !== "ended" && (
        // A metered plan's renewal also bills the period's use, in arrears (its estimate is below the table).
        <span className="text-xs text-muted-foreground" data-testid="subscription-next-usage">
          {byUse ? "this period's use so far, before tax (no monthly fee)" : "+ this period's use"}
        </span>
      )}
      {money.currency.code !== "USD" && (
        // The display currency is an estimate; the USD figure is what the renewal charges.
        <span className="text-xs whitespace-nowrap text-muted-foreground tabular-nums">
          {formatUsd(next)} USD
        </span>
      )}
      {method}
    </div>
  );
}

/**
 * What its renewals are charged to: its own method, or the buyer's default (said so), or nothing saved
 * (each renewal is paid by hand from its invoice); and a method refused for good, which the buyer must
 * replace before renewals are charged again.
 */
function PaymentMethodLine({ subscription }: { subscription: Subscription }) {
  const method = subscription.paymentMethod;
  const { paymentMethod: ChangeMethod } = use(DeskActionsContext);
  const change = ChangeMethod && <ChangeMethod subscription={subscription} />;
  if (!method)
    return (
      <>
        <span
          className="mt-1 max-w-56 text-xs text-muted-foreground"
          data-testid="subscription-payment-method"
        >
          Paid by hand on each invoice
        </span>
        {change}
      </>
    );
  return (
    <>
      <span className="mt-1 max-w-56 text-xs break-words" data-testid="subscription-payment-method">
        <span className="text-muted-foreground">Payment method:</span>{" "}
        <span className="whitespace-nowrap">{method.label}</span>
        {!method.chosen && <span className="text-muted-foreground"> (default)</span>}
      </span>
      {method.declined && (
        <span
          className="flex max-w-56 items-start gap-1 text-xs font-medium text-amber-800 dark:text-amber-300"
          data-testid="subscription-payment-declined"
        >
          <TriangleAlert className="mt-px size-3.5 shrink-0" aria-hidden />
          Declined: choose another payment method or save it again.
        </span>
      )}
      {change}
    </>
  );
}

function LicenseKeys({ subscription }: { subscription: Subscription }) {
  const { licenseKeys, productName, status } = subscription;
  if (licenseKeys.length === 0) return <span className="text-muted-foreground">None</span>;
  const ended = status === "ended";
  return (
    <ul className="flex flex-col gap-1" aria-label={`License keys for ${productName}`}>
      {licenseKeys.map((key) => (
        <li key={key} className="flex items-center gap-1">
          <code
            className={cn(
              "min-w-0 rounded bg-muted px-2 py-1 font-mono text-xs tracking-wide whitespace-nowrap",
              ended && "text-muted-foreground line-through",
            )}
            data-testid="subscription-key"
          >
            {key}
          </code>
          {!ended && (
            <Button
              variant="ghost"
              size="icon"
              className="size-8"
              onClick={() => copyText(key, { title: "License key copied", description: productName }, "key")}
              aria-label={`Copy license key ${key} for ${productName}`}
              title="Copy license key"
            >
              <Copy aria-hidden />
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * Pay now for a renewal waiting for payment and for a change of plan waiting for it, Change plan for an
 * active or trialing subscription (when the screen gives it), Cancel renewal (asks first) for an active
 * subscription, Cancel trial (asks first, saying nothing will be charged) for one in its free trial, Keep
 * subscription for one that is cancelling, and Subscribe again for one that ended (when the screen gives
 * it). Cancel and Keep subscription are one button that changes its words, so the keyboard focus stays on
 * it from one to the other. (Change payment method sits with the payment method, under Next charge.)
 */
function SubscriptionActions({ subscription }: { subscription: Subscription }) {
  const { id, productName, status, due, productId, pendingChange } = subscription;
  const { changePlan: ChangePlan, subscribeAgain: SubscribeAgain } = use(DeskActionsContext);
  const cancel = useCancelSubscription();
  const resume = useResumeSubscription();
  const [confirming, setConfirming] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  // One toast per subscription: a second click's answer replaces the first's instead of stacking.
  const toastId = `subscription-${id}`;
  // The server words why a subscription cannot be changed (it ended, it is not there).
  const failure = (title: string) =>
    ({ id: toastId, title, show: "api", fallback: "Please try again." }) as const;
  const trial = inTrial(subscription);

  const onCancel = () =>
    runMutation(cancel.mutateAsync(id), {
      success: (changed) =>
        trial
          ? {
              id: toastId,
              title: "Trial cancelled",
              description: `${productName} ends on ${formatDate(endOf(changed))}. Nothing will be charged.`,
            }
          : {
              id: toastId,
              title: "Renewal cancelled",
              description: `${productName} ends on ${formatDate(endOf(changed))}.`,
            },
      error: failure(trial ? "Could not cancel the trial" : "Could not cancel the renewal"),
    });
  const onResume = () =>
    runMutation(resume.mutateAsync(id), {
      success: (changed) =>
        changed.status === "trialing"
          ? {
              id: toastId,
              title: "Trial continues",
              description: `${productName}'s trial ends on ${formatDate(changed.trialEndsAt ?? changed.paidThrough)}; its first charge is then.`,
            }
          : {
              id: toastId,
              title: "Subscription will renew",
              description: `${productName} renews on ${formatDate(changed.paidThrough)}.`,
            },
      error: failure("Could not keep the subscription"),
    });

  const changing = cancel.isPending || resume.isPending;
  const cancels = status === "active" || status === "trialing";
  const canToggle = cancels || status === "cancelling";
  const changeOrder = pendingChange?.status === "awaiting_payment" ? pendingChange.orderId : null;
  const restarts = status === "ended" && productId !== null && SubscribeAgain !== null;
  if (!due && !canToggle && !changeOrder && !restarts)
    return <span className="text-muted-foreground">None</span>;
  const cancelLabel = status === "trialing" ? "Cancel trial" : "Cancel renewal";
  return (
    <div className="flex flex-col items-start gap-2" data-testid="subscription-actions">
      {due && <PayNow orderId={due.orderId} what={`for ${productName}`} />}
      {changeOrder && <PayNow orderId={changeOrder} what={`for the change of plan of ${productName}`} />}
      {cancels && productId && ChangePlan && <ChangePlan subscription={subscription} />}
      {restarts && SubscribeAgain && <SubscribeAgain subscription={subscription} />}
      {canToggle && (
        <Button
          ref={toggle}
          size="sm"
          variant="outline"
          // Not `disabled` while it works: a disabled button loses the keyboard focus.
          aria-disabled={changing || undefined}
          onClick={() => {
            if (changing) return;
            if (cancels) setConfirming(true);
            else void onResume();
          }}
        >
          {cancels
            ? cancel.isPending
              ? "Cancelling…"
              : cancelLabel
            : resume.isPending
              ? "Saving…"
              : "Keep subscription"}
          <span className="sr-only">{cancels ? ` of ${productName}` : ` to ${productName}`}</span>
        </Button>
      )}
      <AlertDialog open={confirming} onOpenChange={setConfirming}>
        <AlertDialogContent
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            toggle.current?.focus();
          }}
        >
          {trial ? (
            <AlertDialogHeader>
              <AlertDialogTitle>Cancel the free trial of {productName}?</AlertDialogTitle>
              <AlertDialogDescription>
                Nothing will be charged. It ends with its free trial on{" "}
                {formatDate(subscription.trialEndsAt ?? subscription.paidThrough)}; until then you can keep
                using it{subscription.licenseKeys.length > 0 && " and its license keys"}, and undo this with
                Keep subscription.
              </AlertDialogDescription>
            </AlertDialogHeader>
          ) : (
            <AlertDialogHeader>
              <AlertDialogTitle>Cancel the renewal of {productName}?</AlertDialogTitle>
              <AlertDialogDescription>
                It will not renew. You can keep using it
                {subscription.licenseKeys.length > 0 && ", and its license keys keep working,"} until the
                period you paid for ends on {formatDate(subscription.paidThrough)}. Until then you can undo
                this with Keep subscription.
              </AlertDialogDescription>
            </AlertDialogHeader>
          )}
          <AlertDialogFooter>
            <AlertDialogCancel>Go back</AlertDialogCancel>
            <AlertDialogAction variant="destructive" onClick={() => void onCancel()}>
              {trial ? "Cancel trial" : "Cancel renewal"}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}

/**
 * The renewals due in the coming 12 months, by month (past-due ones first), as the .ics and .csv
 * downloads list them: the same `renewalCalendar`, counted from the server's now.
 */
function RenewalCalendar({ items, asOf }: { items: Subscription[]; asOf: string }) {
  const headingId = useId();
  const months = calendarByMonth(renewalCalendar(items, new Date(asOf)));
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4" data-testid="renewal-calendar">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h3 id={headingId} className="text-lg font-semibold">
            Renewal calendar
          </h3>
          <p className="mt-1 text-sm text-muted-foreground">
            Every renewal due in the next 12 months, with tax. Add it to your calendar or send it to
            procurement.
          </p>
        </div>
        {months.length > 0 && (
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline" size="sm">
              <a href={calendarIcsUrl} download data-testid="calendar-ics">
                <CalendarDays aria-hidden /> Download .ics
              </a>
            </Button>
            <Button asChild variant="outline" size="sm">
              <a href={calendarCsvUrl} download data-testid="calendar-csv">
                <Download aria-hidden /> Download .csv
              </a>
            </Button>
          </div>
        )}
      </div>
      {months.length === 0 ? (
        <p
          className="rounded-lg border border-dashed border-border px-4 py-6 text-center text-sm text-muted-foreground"
          data-testid="calendar-empty"
        >
          Nothing renews in the next 12 months.
        </p>
      ) : (
        <div className="flex max-w-3xl flex-col gap-5">
          {months.map((month) => (
            <CalendarMonth
              key={month.key}
              label={month.label}
              overdue={month.key === "overdue"}
              renewals={month.renewals}
            />
          ))}
        </div>
      )}
    </section>
  );
}

function CalendarMonth({
  label,
  overdue,
  renewals,
}: {
  label: string;
  overdue: boolean;
  renewals: CalendarRenewal[];
}) {
  const headingId = useId();
  return (
    <div data-testid="calendar-month">
      <h4
        id={headingId}
        className={cn(
          "border-b border-border pb-1 text-sm font-semibold",
          overdue ? "text-destructive" : "text-muted-foreground",
        )}
      >
        {label}
      </h4>
      <ul aria-labelledby={headingId} className="divide-y divide-border">
        {renewals.map((renewal) => (
          <li
            key={`${renewal.subscriptionId}-${renewal.periodIndex}`}
            // On a phone the date and amount share the first line and the product takes the second.
            className="grid grid-cols-[minmax(0,1fr)_auto] items-baseline gap-x-3 gap-y-0.5 py-2 text-sm sm:grid-cols-[7rem_minmax(0,1fr)_auto]"
            data-testid="calendar-renewal"
          >
            <time
              dateTime={renewal.dueAt}
              className={cn(
                "whitespace-nowrap tabular-nums",
                overdue ? "text-destructive" : "text-muted-foreground",
              )}
            >
              {formatDate(renewal.dueAt)}
            </time>
            <span className="order-last col-span-2 min-w-0 break-words sm:order-none sm:col-span-1">
              {renewalTitle(renewal)}
              {renewal.quantity > 1 && (
                <span className="text-muted-foreground tabular-nums"> × {renewal.quantity}</span>
              )}
            </span>
            <span className="text-right font-medium whitespace-nowrap tabular-nums">
              <Amount usd={renewal.total} />
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function SubscriptionsSkeleton() {
  return (
    <div
      role="status"
      aria-label="Loading subscriptions"
      className="flex flex-col gap-3"
      data-testid="subscriptions-loading"
    >
      {[0, 1, 2].map((row) => (
        <div key={row} className="h-14 animate-pulse rounded bg-muted" aria-hidden />
      ))}
    </div>
  );
}

function NoSubscriptions() {
  return (
    <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-border px-4 py-12 text-center">
      <Repeat className="size-10 text-muted-foreground" aria-hidden />
      <h3 className="text-lg font-semibold">No subscriptions yet</h3>
      <p className="max-w-sm text-sm text-muted-foreground">
        Products priced per month or per year renew as subscriptions; the ones you buy will appear here.
      </p>
      <Button asChild className="mt-2">
        <Link to={paths.products()}>Browse Products</Link>
      </Button>
    </div>
  );
}
