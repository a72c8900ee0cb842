import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useState } from "react";
import type { ProductPlan } from "#domain/catalog-schemas";
import { formatDate } from "#domain/dates";
import { formatUsd } from "#domain/money";
import type {
  Subscription,
  SubscriptionChangeInput,
  SubscriptionChangePreview,
} from "#domain/subscription-schemas";
import { type BillingInterval, quantityLabel } from "#domain/subscriptions";
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
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { LoadError } from "#web/components/ui/load-error";
import { productQueryOptions, useProduct } from "#web/features/catalog/api/get-product";
import { PlanPicker } from "#web/features/catalog/components/plan-picker";
import { Amount } from "#web/features/currency/components/totals-list";
import { useMoney } from "#web/features/currency/use-money";
import { useOpenPayment } from "#web/features/payments/components/pay-now";
import { useCommitChange } from "#web/features/subscription-changes/api/commit-change";
import { useChangePreview } from "#web/features/subscription-changes/api/preview-change";
import { subscriptionsKey } from "#web/features/subscriptions/api/get-subscriptions";
import { isApiError } from "#web/lib/api";
import { runMutation } from "#web/lib/mutation";
import { useDebounced } from "#web/lib/use-debounced";

/** How long the choice rests before its price is asked: a few clicks on the seats ask once. */
const PREVIEW_DELAY_MS = 300;

const intervalLabel = { month: "Monthly", year: "Yearly" } as const satisfies Record<BillingInterval, string>;

type SubscriptionMethod = Subscription["paymentMethod"];

const methodName = (method: SubscriptionMethod) => method?.label ?? "Your payment method";

/**
 * The saved method a change is charged to when confirmed: a card or PayPal account not refused for good
 * (a bank transfer is invoiced, and a declined method waits for the buyer).
 */
const chargeable = (method: SubscriptionMethod) =>
  method && method.kind !== "bank_transfer" && !method.declined ? method.label : null;

/**
 * Change plan on a subscription of the renewal desk: a dialog with the product's live plans, the seats
 * and the exact price of the change, fetched as the choice changes; Confirm change commits that price
 * and nothing else. A change with something to pay now is charged to the subscription's saved method
 * (the server does it as it commits); without one, or when it is declined, its order's payment page opens.
 */
export function ChangePlan({ subscription }: { subscription: Subscription }) {
  const [open, setOpen] = useState(false);
  const payment = useOpenPayment();
  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <AlertDialogTrigger asChild>
        <Button size="sm" variant="outline" disabled={payment.busy}>
          {payment.busy ? "Opening…" : "Change plan"}
          <span className="sr-only"> of {subscription.productName}</span>
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent className="max-w-lg" data-testid="change-plan-dialog">
        <ChangePlanBody
          subscription={subscription}
          onDone={(orderId) => {
            setOpen(false);
            if (orderId) void payment.open(orderId);
          }}
        />
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** The dialog's content, drawn afresh at each opening: the plans as they are now, the choice as held. */
function ChangePlanBody({
  subscription,
  onDone,
}: {
  subscription: Subscription;
  /** Committed: closes the dialog, and pays the change's order when it has one to pay. */
  onDone: (orderId: string | null) => void;
}) {
  const { productId, productName, planId, planName, interval, quantity } = subscription;
  const product = useProduct(productId ?? "");
  const plans = product.data?.plans ?? [];
  const current = plans.find((plan) => plan.id === planId);
  // The plan it is on may be sold no more: it is still named, by the name it was bought under.
  const currentName = planName ?? intervalLabel[interval];
  let body: ReactNode;
  if (product.isPending) body = <PlansSkeleton />;
  else if (product.isError)
    body = <LoadError what="plans" error={product.error} onRetry={() => void product.refetch()} />;
  else if (plans.length === 0)
    body = (
      <p
        className="rounded-lg border border-dashed border-border px-4 py-6 text-center text-sm text-muted-foreground"
        data-testid="change-no-plans"
      >
        {productName} has no plans on sale now, so its plan cannot be changed.
      </p>
    );
  else return <ChangeForm subscription={subscription} plans={plans} onDone={onDone} />;
  return (
    <>
      <Header subscription={subscription}>
        Your plan now: {currentName}
        {quantityPart(quantity, current?.perSeat ?? true, subscription.usage !== null)}.
      </Header>
      {body}
      <AlertDialogFooter>
        <AlertDialogCancel>Close</AlertDialogCancel>
      </AlertDialogFooter>
    </>
  );
}

function Header({ subscription, children }: { subscription: Subscription; children: ReactNode }) {
  return (
    <AlertDialogHeader>
      <AlertDialogTitle className="break-words">
        Change the plan of {subscription.productName}
      </AlertDialogTitle>
      <AlertDialogDescription>{children}</AlertDialogDescription>
    </AlertDialogHeader>
  );
}

function PlansSkeleton() {
  return (
    <div role="status" aria-label="Loading plans" className="grid gap-2" data-testid="change-plans-loading">
      {[0, 1].map((n) => (
        <div key={n} className="h-16 animate-pulse rounded-md bg-muted" aria-hidden />
      ))}
    </div>
  );
}

/** `value` as a whole number of seats within the plan's range, or why it is not one. */
function seatsOf(value: string, plan: ProductPlan | undefined): { seats: number } | { error: string } {
  const min = plan?.minSeats ?? 1;
  const max = plan?.maxSeats ?? 99;
  const what = plan?.perSeat === false ? "copies" : "seats";
  const seats = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isInteger(seats)) return { error: `Enter a whole number of ${what}` };
  if (seats < min || seats > max) return { error: `Choose ${min} to ${max} ${what}` };
  return { seats };
}

/**
 * ", 3 seats", ", 2 copies": what a plan's quantity reads as after its name; nothing for a metered plan,
 * which is priced by use and taken once per subscriber (decision 0029).
 */
function quantityPart(n: number, perSeat: boolean, metered: boolean): string {
  return metered ? "" : `, ${quantityLabel(n, perSeat)}`;
}

const clamp = (n: number, plan: ProductPlan) => Math.min(plan.maxSeats, Math.max(plan.minSeats, n));

function ChangeForm({
  subscription,
  plans,
  onDone,
}: {
  subscription: Subscription;
  plans: ProductPlan[];
  onDone: (orderId: string | null) => void;
}) {
  const { id, productId, productName, planId, planName, interval, quantity, pendingChange, paymentMethod } =
    subscription;
  const queryClient = useQueryClient();
  const current = plans.find((plan) => plan.id === planId);
  // The plan it is on, when it is still sold; else none is chosen until the buyer picks one.
  const [chosenId, setChosenId] = useState<string | null>(current?.id ?? null);
  const [seatsText, setSeatsText] = useState(String(quantity));
  const [stale, setStale] = useState(false);
  const [declined, setDeclined] = useState<DeclinedCharge | null>(null);
  const plan = plans.find((one) => one.id === chosenId);
  const seats = seatsOf(seatsText, plan);
  const choice: SubscriptionChangeInput | null =
    plan && "seats" in seats ? { planId: plan.id, seats: seats.seats } : null;
  // The terms held now, with no change waiting to be undone, are no change: nothing to price.
  const unchanged =
    choice !== null && choice.planId === planId && choice.seats === quantity && pendingChange === null;

  // The price is asked of the choice once it rests; until then what shows is "working it out".
  const wanted = choice && !unchanged ? `${choice.planId} ${choice.seats}` : null;
  const settled = useDebounced(wanted, PREVIEW_DELAY_MS);
  const [askedPlan, askedSeats] = settled?.split(" ") ?? [];
  const asked = askedPlan && askedSeats ? { planId: askedPlan, seats: Number(askedSeats) } : null;
  const preview = useChangePreview(id, asked);
  const settling = wanted !== settled;
  const shown = !settling && !preview.isFetching && wanted !== null ? preview.data : undefined;
  const refused = !settling && !preview.isFetching && wanted !== null ? preview.error : null;

  // A refusal that says the desk or the plans moved on refreshes them, so what they show is true again.
  const refusedCode = isApiError(refused) ? refused.code : null;
  useEffect(() => {
    if (refusedCode === "PLAN_NOT_FOUND" && productId)
      void queryClient.invalidateQueries({ queryKey: productQueryOptions(productId).queryKey });
    if (
      refusedCode === "SUBSCRIPTION_ENDED" ||
      refusedCode === "SUBSCRIPTION_CANCELLING" ||
      refusedCode === "RENEWAL_INVOICED" ||
      refusedCode === "SUBSCRIPTION_NOT_FOUND"
    )
      void queryClient.invalidateQueries({ queryKey: subscriptionsKey });
  }, [refusedCode, productId, queryClient]);

  const commit = useCommitChange();
  const toastId = `subscription-change-${id}`;
  const onConfirm = async () => {
    if (!shown || commit.isPending) return;
    setStale(false);
    const result = await runMutation(
      commit.mutateAsync({
        id,
        planId: shown.planId,
        seats: shown.seats,
        pricedAt: shown.pricedAt,
        token: shown.token,
      }),
      {
        success: ({ change, subscription: changed }) => {
          const metered = plans.find((one) => one.id === shown.planId)?.meter != null;
          const terms = `${shown.planName}${quantityPart(shown.seats, shown.perSeat, metered)}`;
          // Charged to the saved method at once: paid, or refused (said below, then paid on the payment page).
          if (change.charged === "paid")
            return {
              id: toastId,
              title: `Paid with ${methodName(changed.paymentMethod ?? paymentMethod)}: your new plan is active`,
              description: `${productName} is now on ${terms}.`,
            };
          if (change.charged === "declined") return null;
          switch (change.status) {
            case "applied":
              return {
                id: toastId,
                title: "Plan changed",
                description: `${productName} is now on ${terms}.`,
              };
            case "scheduled":
              return {
                id: toastId,
                title: "Change scheduled",
                description: `${productName} changes to ${terms} on ${formatDate(shown.effectiveAt)}.`,
              };
            case "awaiting_payment":
              return {
                id: toastId,
                title: "Change saved",
                description: `Pay ${formatUsd(shown.dueTotal)} and ${productName} moves to ${terms}.`,
              };
          }
        },
        error: {
          id: toastId,
          title: "Could not change the plan",
          show: "api",
          fallback: "Please try again.",
        },
        on: (error) => {
          // Anything that moved since the price was shown: the new price is shown, never committed unseen.
          if (error.code !== "PREVIEW_STALE") return undefined;
          setStale(true);
          void preview.refetch();
          return null;
        },
      },
    );
    if (!result.ok) return;
    const { change, subscription: changed } = result.data;
    // The dialog stays open to say why, with Pay now for the change's order.
    if (change.charged === "declined" && change.orderId)
      return setDeclined({
        orderId: change.orderId,
        method: methodName(changed.paymentMethod ?? paymentMethod),
        reason: change.declineReason,
        planName: shown.planName,
      });
    onDone(change.status === "awaiting_payment" ? change.orderId : null);
  };
  if (declined) return <Declined subscription={subscription} declined={declined} onDone={onDone} />;

  const perSeat = plan?.perSeat ?? current?.perSeat ?? true;
  const metered = (plan ?? current)?.meter != null;
  const seatsError =
    "error" in seats ? seats.error : isApiError(refused, "SEATS_OUT_OF_RANGE") ? refused.message : undefined;
  const chosenIndex = plans.findIndex((one) => one.id === chosenId);
  // A free trial is for a first start: a change of plan offers none.
  const offered = plans.map((one) => ({ ...one, trialDays: 0 }));
  const currentName = planName ?? intervalLabel[interval];

  return (
    <form
      className="grid min-w-0 gap-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void onConfirm();
      }}
    >
      <Header subscription={subscription}>
        Your plan now: {currentName}
        {!current && planId !== null && " (no longer sold)"}
        {quantityPart(quantity, current?.perSeat ?? true, subscription.usage !== null)}. You see the exact
        price before anything changes.
      </Header>
      <PlanPicker
        plans={offered}
        chosen={chosenIndex}
        current={planId}
        onChoose={(index) => {
          const next = plans[index];
          if (!next) return;
          setChosenId(next.id);
          setStale(false);
          // Seats the new plan cannot take move to the nearest it can.
          const typed = Number(seatsText);
          if (/^\d+$/.test(seatsText.trim()) && clamp(typed, next) !== typed)
            setSeatsText(String(clamp(typed, next)));
        }}
      />
      {/* A metered plan is taken once: no quantity to choose. */}
      {!metered && (
        <FormField
          label={perSeat ? "Seats" : "Copies"}
          hint={
            plan
              ? plan.minSeats === plan.maxSeats
                ? quantityLabel(plan.minSeats, perSeat)
                : `${plan.minSeats} to ${plan.maxSeats} ${perSeat ? "seats" : "copies"}`
              : undefined
          }
          error={seatsError}
        >
          <Input
            type="number"
            inputMode="numeric"
            min={plan?.minSeats ?? 1}
            max={plan?.maxSeats ?? 99}
            step={1}
            value={seatsText}
            onChange={(event) => {
              setSeatsText(event.target.value);
              setStale(false);
            }}
            className="w-28"
            data-testid="change-seats"
          />
        </FormField>
      )}

      <section
        aria-label="Price of the change"
        aria-live="polite"
        aria-busy={settling || preview.isFetching}
        className="min-h-28 rounded-md border border-border bg-muted/40 p-4 text-sm"
        data-testid="change-preview"
      >
        {stale && (
          <p
            role="alert"
            className="mb-3 font-medium text-amber-800 dark:text-amber-300"
            data-testid="change-preview-stale"
          >
            The price changed. Review the new price and confirm again.
          </p>
        )}
        {!plan ? (
          <p className="text-muted-foreground">Choose a plan to see what the change costs.</p>
        ) : "error" in seats ? (
          <p className="text-muted-foreground">
            Enter a number of {perSeat ? "seats" : "copies"} to see what the change costs.
          </p>
        ) : unchanged ? (
          <p className="text-muted-foreground" data-testid="change-preview-unchanged">
            {metered
              ? "This is your plan now. Choose another plan to see the price."
              : `This is your plan and number of ${perSeat ? "seats" : "copies"} now. Choose another plan or number of ${perSeat ? "seats" : "copies"} to see the price.`}
          </p>
        ) : shown ? (
          <PreviewText
            preview={shown}
            replacing={pendingChange !== null}
            chargedTo={chargeable(paymentMethod)}
          />
        ) : refused ? (
          <Refusal error={refused} onRetry={() => void preview.refetch()} />
        ) : (
          <PricingSkeleton />
        )}
      </section>

      <AlertDialogFooter>
        <AlertDialogCancel type="button" disabled={commit.isPending}>
          Cancel
        </AlertDialogCancel>
        <Button type="submit" disabled={!shown || commit.isPending}>
          {commit.isPending ? "Confirming…" : "Confirm change"}
        </Button>
      </AlertDialogFooter>
    </form>
  );
}

type DeclinedCharge = { orderId: string; method: string; reason: string | null; planName: string };

/**
 * The change is committed but its charge to the saved method was declined: the provider's reason, and
 * Pay now for its order on the payment page (the desk offers it too, until it is paid).
 */
function Declined({
  subscription,
  declined,
  onDone,
}: {
  subscription: Subscription;
  declined: DeclinedCharge;
  onDone: (orderId: string | null) => void;
}) {
  const reason = declined.reason?.trim().replace(/\.+$/, "");
  return (
    <div className="grid min-w-0 gap-4" data-testid="change-declined">
      <Header subscription={subscription}>
        Your change to {declined.planName} is saved and waits for payment.
      </Header>
      <p
        role="alert"
        className="rounded-md border border-destructive/40 p-4 text-sm font-medium text-destructive"
        data-testid="change-declined-reason"
      >
        {declined.method} was declined{reason ? `: ${reason}` : ""}. Pay on the payment page and{" "}
        {subscription.productName} moves to {declined.planName}.
      </p>
      <AlertDialogFooter>
        <Button type="button" variant="outline" onClick={() => onDone(null)}>
          Pay later
        </Button>
        <Button type="button" onClick={() => onDone(declined.orderId)}>
          Pay now
        </Button>
      </AlertDialogFooter>
    </div>
  );
}

function PricingSkeleton() {
  return (
    <div role="status" className="grid gap-2" data-testid="change-preview-loading">
      <span className="sr-only">Working out the price…</span>
      <span className="h-5 w-48 animate-pulse rounded bg-muted" aria-hidden />
      <span className="h-4 w-full animate-pulse rounded bg-muted" aria-hidden />
      <span className="h-4 w-2/3 animate-pulse rounded bg-muted" aria-hidden />
    </div>
  );
}

/**
 * Why the change cannot be priced, in the server's words: a refusal of this change (the seats, the plan,
 * the subscription's state) as it says it, or any other failure with Try again.
 */
function Refusal({ error, onRetry }: { error: Error; onRetry: () => void }) {
  if (!isApiError(error))
    return <LoadError title="The price could not be worked out." error={error} onRetry={onRetry} />;
  switch (error.code) {
    // The field shows it.
    case "SEATS_OUT_OF_RANGE":
      return (
        <p className="text-muted-foreground">Choose a number the plan takes to see what the change costs.</p>
      );
    case "NO_CHANGE":
      return (
        <p className="text-muted-foreground" data-testid="change-preview-unchanged">
          {error.message}
        </p>
      );
    case "PLAN_NOT_FOUND":
    case "SUBSCRIPTION_ENDED":
    case "SUBSCRIPTION_CANCELLING":
    case "RENEWAL_INVOICED":
    case "SUBSCRIPTION_NOT_FOUND":
      return (
        <p role="alert" className="font-medium text-destructive" data-testid="change-preview-refused">
          {error.message}
        </p>
      );
    default:
      return <LoadError title="The price could not be worked out." error={error} onRetry={onRetry} />;
  }
}

const On = ({ date }: { date: string }) => (
  <time dateTime={date} className="whitespace-nowrap">
    {formatDate(date)}
  </time>
);

/**
 * Whole cents in dollars, exact to the cent once `formatOwed` rounds it (not `centsAmount`: that would
 * bring it into the money chunk every page loads, for this dialog alone).
 */
const dollars = (cents: number) => cents / 100;

/** A row of the change's sum: what it is, and the amount (before tax) at the right. */
function Line({ label, children, testId }: { label: string; children: ReactNode; testId: string }) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-x-4" data-testid={testId}>
      <dt className="min-w-0 text-muted-foreground">{label}</dt>
      <dd className="ml-auto font-medium whitespace-nowrap tabular-nums">{children}</dd>
    </div>
  );
}

/**
 * The preview in plain words: what is charged now with its tax, the credit for the unused time and the
 * new plan's charge, and the next renewal; or, for a change at the period's end, nothing now and what
 * each period costs from then. USD amounts in the display currency, with the USD charged beside them.
 */
function PreviewText({
  preview,
  replacing,
  chargedTo,
}: {
  preview: SubscriptionChangePreview;
  replacing: boolean;
  /** The saved method confirming charges at once, if any. */
  chargedTo: string | null;
}) {
  const money = useMoney();
  const { kind, interval } = preview;
  const inUsd = money.currency.code !== "USD";
  const strong = "text-base font-semibold text-foreground";
  let said: ReactNode;
  if (kind === "at_period_end") {
    said = (
      <p data-testid="change-preview-summary">
        <strong className={strong}>Nothing is charged now.</strong> From <On date={preview.effectiveAt} /> you
        pay{" "}
        <span className="font-medium whitespace-nowrap tabular-nums">
          <Amount usd={preview.nextTotal} />
        </span>{" "}
        per {interval}.
      </p>
    );
  } else if (preview.chargeCents === 0 && preview.creditCents === 0) {
    // A free trial: nothing is paid for yet, so the new terms start at once for nothing.
    said = (
      <p data-testid="change-preview-summary">
        <strong className={strong}>Nothing is charged now.</strong> The new plan starts today. Then{" "}
        <span className="font-medium whitespace-nowrap tabular-nums">
          <Amount usd={preview.nextTotal} />
        </span>{" "}
        on <On date={preview.nextChargeAt} />.
      </p>
    );
  } else {
    const taxed = Number(preview.dueTax) !== 0;
    said = (
      <>
        <p className={strong} data-testid="change-preview-summary">
          Charged now:{" "}
          <span className="whitespace-nowrap tabular-nums">
            <Amount usd={preview.dueTotal} />
          </span>
          {taxed && (
            <span className="text-sm font-normal whitespace-nowrap text-muted-foreground">
              {" "}
              (incl.{" "}
              <span className="whitespace-nowrap tabular-nums">
                <Amount usd={preview.dueTax} />
              </span>{" "}
              tax)
            </span>
          )}
        </p>
        {kind === "restart" && <p className="mt-1">Your yearly period starts today.</p>}
        <dl className="mt-3 grid gap-1.5">
          <Line label="Credit for unused time on your current plan" testId="change-preview-credit">
            −<Amount usd={dollars(preview.creditCents)} />
          </Line>
          <Line
            label={
              kind === "restart" ? "New plan for a year from today" : "New plan for the rest of this period"
            }
            testId="change-preview-charge"
          >
            <Amount usd={dollars(preview.chargeCents)} />
          </Line>
        </dl>
        <p className="mt-3" data-testid="change-preview-next">
          Then{" "}
          <span className="font-medium whitespace-nowrap tabular-nums">
            <Amount usd={preview.nextTotal} />
          </span>{" "}
          on <On date={preview.nextChargeAt} />.
        </p>
      </>
    );
  }
  const paysNow = kind !== "at_period_end" && preview.dueCents > 0;
  const notes = [
    inUsd && (
      <p key="usd" data-testid="change-preview-usd">
        Charged in USD:{" "}
        {kind === "at_period_end"
          ? `${formatUsd(preview.nextTotal)} per ${interval}`
          : `${formatUsd(preview.dueTotal)} now, then ${formatUsd(preview.nextTotal)}`}
        .
      </p>
    ),
    paysNow &&
      (chargedTo ? (
        <p key="pay">
          Confirming charges {chargedTo} and the change applies at once. If it is declined, you pay on the
          payment page.
        </p>
      ) : (
        <p key="pay">Confirming takes you to the payment page; the change applies once it is paid.</p>
      )),
    replacing && <p key="replaces">Confirming replaces the change you made before.</p>,
  ].filter(Boolean);
  return (
    <div className="grid gap-1" data-kind={kind}>
      {said}
      {notes.length > 0 && <div className="mt-2 grid gap-1 text-xs text-muted-foreground">{notes}</div>}
    </div>
  );
}
