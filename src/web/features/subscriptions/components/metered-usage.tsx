import { Gauge, TriangleAlert } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { formatDate } from "#domain/dates";
import { CAP_ALERT_LEVELS, spendingCapInputSchema, type UsageSummary, usageLabel } from "#domain/metering";
import { formatUsd, toUnits } from "#domain/money";
import type { Subscription } from "#domain/subscription-schemas";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { Input } from "#web/components/ui/input";
import { meterTiersText } from "#web/features/catalog/components/plan-picker";
import { Amount } from "#web/features/currency/components/totals-list";
import { useMoney } from "#web/features/currency/use-money";
import { useSetSpendingCap } from "#web/features/subscriptions/api/set-spending-cap";
import { ApiError } from "#web/lib/api";
import { runMutation } from "#web/lib/mutation";
import { cn } from "#web/lib/utils";

type Metered = Subscription & { usage: UsageSummary };

const isMetered = (subscription: Subscription): subscription is Metered =>
  subscription.usage !== null && subscription.status !== "ended";

/**
 * The renewal desk's "Use this period": for each metered subscription not ended, its use so far, what it
 * costs, the estimated bill, and the spending cap with its alerts, as the server counts them (issue 33).
 */
export function MeteredUsage({ items }: { items: Subscription[] }) {
  const headingId = useId();
  const metered = items.filter(isMetered);
  if (metered.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4" data-testid="metered-usage">
      <div>
        <h3 id={headingId} className="text-lg font-semibold">
          Use this period
        </h3>
        <p className="mt-1 text-sm text-muted-foreground">
          What your metered subscriptions have used so far, as their sellers report it. Use is billed with the
          next renewal, before tax.
        </p>
      </div>
      <ul className="grid max-w-3xl gap-4">
        {metered.map((subscription) => (
          <UsageCard key={subscription.id} subscription={subscription} />
        ))}
      </ul>
    </section>
  );
}

function UsageCard({ subscription }: { subscription: Metered }) {
  const headingId = useId();
  const money = useMoney();
  const { usage, productName, planName } = subscription;
  return (
    <Card asChild flat className="flex flex-col gap-4 p-4">
      <li aria-labelledby={headingId} data-testid="usage-card">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
          <h4 id={headingId} className="font-semibold break-words">
            {productName}
            {planName && <span className="font-normal text-muted-foreground">: {planName}</span>}
          </h4>
          <span className="text-sm text-muted-foreground">
            <time dateTime={usage.periodStart}>{formatDate(usage.periodStart)}</time> –{" "}
            <time dateTime={usage.periodEnd}>{formatDate(usage.periodEnd)}</time>
          </span>
        </div>
        <CapAlert usage={usage} />
        <dl className="grid gap-3 text-sm sm:grid-cols-3">
          <div className="flex flex-col gap-0.5">
            <dt className="text-muted-foreground">Used so far</dt>
            <dd className="font-semibold tabular-nums" data-testid="usage-quantity">
              {usageLabel(usage.quantity, usage.unit)}
            </dd>
          </div>
          <div className="flex flex-col gap-0.5">
            <dt className="text-muted-foreground">Cost of use so far</dt>
            <dd className="font-semibold tabular-nums" data-testid="usage-amount">
              <Amount usd={usage.usageAmount} />
            </dd>
          </div>
          <div className="flex flex-col gap-0.5">
            <dt className="text-muted-foreground">Estimated bill, before tax</dt>
            <dd className="font-semibold tabular-nums" data-testid="usage-estimate">
              <Amount usd={usage.estimate} />
            </dd>
          </div>
        </dl>
        {money.ready && (
          <p className="text-xs text-muted-foreground" data-testid="usage-tiers">
            Use is priced: {meterTiersText(usage, (usd) => money.price(Number(usd), { exact: true }))}.
          </p>
        )}
        <CapBar usage={usage} />
        <CapForm subscription={subscription} />
      </li>
    </Card>
  );
}

/** The highest alert level reached of 80% and 100%, worded as the alert e-mail words it. */
function CapAlert({ usage }: { usage: UsageSummary }) {
  const level = Math.max(0, ...usage.alerts);
  if (usage.cap === null || level < 80) return null;
  const cap = formatUsd(usage.cap);
  const reached = usage.overCap || level >= 100;
  return (
    <div
      role="status"
      className={cn(
        "flex items-start gap-2 rounded-md border p-3 text-sm",
        reached
          ? "border-destructive/50 bg-destructive/10 text-destructive"
          : "border-amber-500/50 bg-amber-50 text-amber-900 dark:bg-amber-950/40 dark:text-amber-200",
      )}
      data-testid="usage-alert"
    >
      <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
      <p>
        {reached ? (
          <>
            <span className="font-semibold">You have reached your {cap} cap.</span> The seller has been told
            and may stop or slow the service until you raise the cap. Use already made is still billed.
          </>
        ) : (
          <>
            <span className="font-semibold">
              You have used {level}% of your {cap} cap.
            </span>{" "}
            Raise or remove the cap below if you need more.
          </>
        )}
      </p>
    </div>
  );
}

/** The cost of use against the cap, with marks where the alerts are sent (50, 80 and 100%). */
function CapBar({ usage }: { usage: UsageSummary }) {
  const labelId = useId();
  if (usage.cap === null)
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground" data-testid="usage-no-cap">
        <Gauge className="size-4" aria-hidden />
        No spending cap: use is not limited. Set one to be alerted at 50%, 80% and 100% of it.
      </p>
    );
  const share = Math.min(100, (toUnits(usage.usageAmount) / toUnits(usage.cap)) * 100);
  const rounded = Math.floor(share);
  return (
    <div className="flex flex-col gap-1.5">
      <p id={labelId} className="flex flex-wrap justify-between gap-x-3 text-sm">
        <span>
          <span className="font-medium">Spending cap</span> {formatUsd(usage.cap)} a period
        </span>
        <span className="text-muted-foreground tabular-nums" data-testid="usage-cap-share">
          {rounded}% used
        </span>
      </p>
      <div
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={rounded}
        aria-valuetext={`${rounded}% of the ${formatUsd(usage.cap)} cap used`}
        className="relative h-2.5 rounded-full bg-muted"
        data-testid="usage-cap-bar"
      >
        <div
          className={cn(
            "h-full rounded-full",
            share >= 100 ? "bg-destructive" : share >= 80 ? "bg-amber-500" : "bg-primary",
          )}
          style={{ width: `${share}%` }}
        />
        {CAP_ALERT_LEVELS.filter((level) => level < 100).map((level) => (
          <span
            key={level}
            className="absolute inset-y-0 w-px bg-foreground/40"
            style={{ left: `${level}%` }}
            aria-hidden
          />
        ))}
      </div>
      <div className="relative h-4 text-xs text-muted-foreground" aria-hidden>
        {CAP_ALERT_LEVELS.map((level) => (
          <span
            key={level}
            className={cn("absolute", level === 100 ? "right-0" : "-translate-x-1/2")}
            style={level === 100 ? undefined : { left: `${level}%` }}
          >
            {level}%
          </span>
        ))}
      </div>
    </div>
  );
}

/**
 * Sets, changes or removes the cap, at once. Checked here as the server checks it (at least $1, at most
 * two decimals); the server's refusals show under the field too.
 */
function CapForm({ subscription }: { subscription: Metered }) {
  const { id, productName, usage } = subscription;
  const setCap = useSetSpendingCap();
  const fieldId = useId();
  const [value, setValue] = useState(usage.cap === null ? "" : String(Number(usage.cap)));
  const [error, setError] = useState<string | null>(null);
  const toastId = `spending-cap-${id}`;

  async function save(cap: string | null) {
    setError(null);
    const result = await runMutation(setCap.mutateAsync({ id, cap }), {
      success: {
        id: toastId,
        title: cap === null ? "Spending cap removed" : "Spending cap saved",
        description:
          cap === null
            ? `${productName}'s use is no longer capped.`
            : `${productName}'s use is capped at ${formatUsd(cap)} a period.`,
      },
      error: { id: toastId, title: "Could not save the spending cap", show: "api" },
      // Refusals the buyer can act on show under the field instead of in a toast.
      on: () => null,
    });
    if (result.ok) {
      setValue(cap === null ? "" : String(Number(cap)));
      return;
    }
    // A network fault has had its toast; the server's refusals show under the field.
    if (result.error instanceof ApiError) setError(capErrorText(result.error));
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (setCap.isPending) return;
    const parsed = spendingCapInputSchema.shape.cap.safeParse(value);
    if (!parsed.success || parsed.data === null) {
      setError(parsed.error?.issues[0]?.message ?? "Enter the cap in dollars");
      return;
    }
    void save(parsed.data);
  }

  const errorId = `${fieldId}-error`;
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-1.5" aria-busy={setCap.isPending}>
      <label htmlFor={fieldId} className="text-sm font-medium">
        {usage.cap === null ? "Set a spending cap (USD)" : "Change the spending cap (USD)"}
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <div className="relative w-36">
          <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-sm text-muted-foreground">
            $
          </span>
          <Input
            id={fieldId}
            inputMode="decimal"
            autoComplete="off"
            className="pl-6 tabular-nums"
            value={value}
            onChange={(event) => setValue(event.target.value)}
            aria-invalid={Boolean(error)}
            aria-describedby={error ? errorId : undefined}
            data-testid="usage-cap-input"
          />
        </div>
        <Button type="submit" size="sm" aria-disabled={setCap.isPending || undefined}>
          {setCap.isPending ? "Saving…" : usage.cap === null ? "Set cap" : "Save cap"}
          <span className="sr-only"> for {productName}</span>
        </Button>
        {usage.cap !== null && (
          <Button
            type="button"
            size="sm"
            variant="ghost"
            aria-disabled={setCap.isPending || undefined}
            onClick={() => {
              if (!setCap.isPending) void save(null);
            }}
          >
            Remove cap<span className="sr-only"> of {productName}</span>
          </Button>
        )}
      </div>
      {error && (
        <p id={errorId} className="text-sm text-destructive" role="alert" data-testid="usage-cap-error">
          {error}
        </p>
      )}
    </form>
  );
}

/** The server's words for a refused cap: the field's own message for a validation error. */
function capErrorText(error: ApiError): string {
  if (error.code === "VALIDATION_ERROR" && Array.isArray(error.details)) {
    const detail = (error.details as { message?: string }[]).find((d) => d.message);
    if (detail?.message) return detail.message;
  }
  return error.message;
}
