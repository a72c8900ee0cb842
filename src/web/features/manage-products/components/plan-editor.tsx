import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { ArrowDown, ArrowUp, Plus, Trash2 } from "lucide-react";
import { useId, useRef } from "react";
import {
  Controller,
  type FieldPath,
  type UseFormReturn,
  useFieldArray,
  useForm,
  useWatch,
} from "react-hook-form";
import type { z } from "zod";
import { MAX_QUANTITY } from "#domain/checkout";
import { MAX_TIERS, type MeterInput, meterUnitLabels, meterUnitNames, meterUnits } from "#domain/metering";
import { formatUsd } from "#domain/money";
import {
  MAX_PLANS,
  type Plan,
  type PlanInput,
  type PlansInput,
  plansInputSchema,
} from "#domain/plan-schemas";
import { pricingUnitLabels, unitSuffix } from "#domain/pricing-units";
import type { EditableProduct } from "#domain/product-admin";
import {
  type BillingInterval,
  isPerSeatUnit,
  MAX_TRIAL_DAYS,
  planUnit,
  priceChangeNoticeDays,
  recurringIntervalOf,
} from "#domain/subscriptions";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { LoadError } from "#web/components/ui/load-error";
import { NativeSelect } from "#web/components/ui/select";
import { Spinner } from "#web/components/ui/spinner";
import { managedProductsKey } from "#web/features/manage-products/api/get-managed-products";
import { useProductPlans, useSaveProductPlans } from "#web/features/manage-products/api/product-plans";
import { Section } from "#web/features/manage-products/components/product-form";
import { ApiError } from "#web/lib/api";
import { runMutation } from "#web/lib/mutation";

type PlansValues = z.output<typeof plansInputSchema>;
type PlanForm = UseFormReturn<PlansInput, unknown, PlansValues>;

const recurringUnits = (["month", "year", "user_month", "user_year"] as const).map(
  (u) => pricingUnitLabels[u],
);
const intervalWord: Record<BillingInterval, string> = { month: "monthly", year: "yearly" };
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const inputOf = (plan: Plan): PlanInput => ({
  id: plan.id,
  name: plan.name,
  interval: plan.interval,
  price: Number(plan.price),
  perSeat: plan.perSeat,
  minSeats: plan.minSeats,
  maxSeats: plan.maxSeats,
  trialDays: plan.trialDays,
  trialNeedsCard: plan.trialNeedsCard,
  meter: plan.meter
    ? { unit: plan.meter.unit, tiers: plan.meter.tiers.map(({ upTo, unitPrice }) => ({ upTo, unitPrice })) }
    : null,
});

/** A plan not saved yet; the price starts empty (NaN, as a number field reads an empty box). */
const newPlan = (interval: BillingInterval = "month", perSeat = false, price = Number.NaN): PlanInput => ({
  name: "",
  interval,
  price,
  perSeat,
  minSeats: 1,
  maxSeats: MAX_QUANTITY,
  trialDays: 0,
  trialNeedsCard: false,
  meter: null,
});

/** What a plan made metered starts with: per call, one price for every unit, to fill in. */
const newMeter = (): MeterInput => ({ unit: "call", tiers: [{ upTo: null, unitPrice: "" }] });

/**
 * The plans the editor starts from: the saved ones, or for a recurring product saved without any (sold
 * at its listed price until now) a first plan made from that price, to be saved.
 */
function startingPlans(product: EditableProduct, saved: Plan[]): PlanInput[] {
  if (saved.length > 0) return saved.map(inputOf);
  const interval = recurringIntervalOf(product.pricingUnit) ?? "month";
  const first = newPlan(
    interval,
    isPerSeatUnit(product.pricingUnit),
    product.price > 0 ? product.price : Number.NaN,
  );
  return [{ ...first, name: interval === "year" ? "Yearly" : "Monthly" }];
}

/** Server paths like "plans.1.maxSeats" or "plans.0.meter.tiers.1.upTo" name the same field of the form. */
const planField =
  /^plans\.(\d+)\.(name|interval|price|perSeat|minSeats|maxSeats|trialDays|trialNeedsCard|meter(\.unit|\.tiers(\.\d+\.(upTo|unitPrice))?)?)$/;

/**
 * The plans of a recurring product (decision 0027), on its edit screen beside the product form: a form
 * of its own, saved by `PUT /manage/products/:id/plans`. Shown for the product's saved pricing unit: a
 * product sold once or by use has no plans.
 */
export function PlanEditor({ product }: { product: EditableProduct }) {
  const recurring = recurringIntervalOf(product.pricingUnit) !== null;
  const plans = useProductPlans(product.id, recurring);
  return (
    <Section
      title="Plans"
      description={
        recurring
          ? `Buyers choose one of these, in this order; the first is the product's listed price. Up to ${MAX_PLANS} plans.`
          : undefined
      }
    >
      <div className="grid gap-4 sm:col-span-2" data-testid="plan-editor">
        {!recurring ? (
          <p className="text-sm text-muted-foreground" data-testid="plans-not-recurring">
            Plans come with a monthly or yearly pricing unit ({recurringUnits.join(", ")}). Choose one under
            Price and save the product to offer plans and free trials.
          </p>
        ) : plans.isPending ? (
          <Spinner label="Loading plans" />
        ) : plans.isError ? (
          <LoadError what="plans" error={plans.error} onRetry={() => plans.refetch()} />
        ) : (
          <PlanListForm product={product} saved={plans.data} />
        )}
      </div>
    </Section>
  );
}

function PlanListForm({ product, saved }: { product: EditableProduct; saved: Plan[] }) {
  const queryClient = useQueryClient();
  const save = useSaveProductPlans();
  const form: PlanForm = useForm<PlansInput, unknown, PlansValues>({
    resolver: zodResolver(plansInputSchema),
    defaultValues: { plans: startingPlans(product, saved) },
  });
  const { errors, isSubmitting, isDirty } = form.formState;
  const plans = useFieldArray({ control: form.control, name: "plans", keyName: "key" });
  const current = useWatch({ control: form.control, name: "plans" });
  const savedById = new Map(saved.map((plan) => [plan.id, plan]));
  const addButton = useRef<HTMLButtonElement>(null);
  const moveButtons = useRef(new Map<string, HTMLButtonElement>());

  /** Saved plans left out: archived on save, their subscribers keeping them. */
  const leaving = saved.filter((plan) => !current.some((p) => p.id === plan.id));

  function move(index: number, by: -1 | 1) {
    const key = plans.fields[index]?.key;
    plans.move(index, index + by);
    // The keyboard stays on the plan that moved: the same arrow, or the other one at the end of the list.
    requestAnimationFrame(() => {
      const same = moveButtons.current.get(`${key}:${by}`);
      const other = moveButtons.current.get(`${key}:${-by}`);
      (same && !same.disabled ? same : other)?.focus();
    });
  }

  function remove(index: number) {
    plans.remove(index);
    requestAnimationFrame(() => addButton.current?.focus());
  }

  /** Subscribers e-mailed a new price by this save: those of plans repriced within their interval. */
  const notified = (values: PlansValues) =>
    values.plans.reduce((sum, plan) => {
      const before = plan.id ? savedById.get(plan.id) : undefined;
      const repriced =
        before && before.interval === plan.interval && Number(before.price) !== Number(plan.price.toFixed(2));
      return sum + (repriced ? before.subscribers : 0);
    }, 0);

  const onSubmit = form.handleSubmit(async (values) => {
    const told = notified(values);
    const result = await runMutation(save.mutateAsync({ id: product.id, body: values }), {
      success: {
        title: "Plans saved",
        description:
          told > 0
            ? `${plural(told, "subscriber")} will be e-mailed the new price. The first plan is the listed price.`
            : "The first plan is the product's listed price.",
      },
      error: { title: "Failed to save plans", show: "client" },
      on: (error) => {
        switch (error.code) {
          case "VALIDATION_ERROR":
            return { title: "Failed to save plans", description: "Check the fields marked in red." };
          case "PRODUCT_NOT_RECURRING":
          case "PLAN_NOT_FOUND":
            // Changed elsewhere meanwhile: the product and its plans as they are now.
            void queryClient.invalidateQueries({ queryKey: managedProductsKey });
            return undefined;
          default:
            return undefined;
        }
      },
    });
    if (result.ok) form.reset({ plans: result.data.map(inputOf) });
    else showServerDetails(result.error);
  });

  function showServerDetails(error: unknown) {
    if (!(error instanceof ApiError) || !Array.isArray(error.details)) return;
    for (const detail of error.details as { path?: string; message?: string }[]) {
      if (!detail.message) continue;
      const path = detail.path ?? "";
      if (planField.test(path))
        form.setError(path as FieldPath<PlansInput>, { message: detail.message }, { shouldFocus: true });
      else form.setError("root.server", { message: detail.message });
    }
  }

  const listError = errors.plans?.root?.message ?? errors.plans?.message ?? errors.root?.server?.message;

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-busy={isSubmitting}>
      <ol className="grid gap-4" data-testid="plan-list">
        {plans.fields.map((field, index) => (
          <PlanItem
            key={field.key}
            form={form}
            index={index}
            plan={current[index] ?? field}
            count={plans.fields.length}
            saved={field.id ? savedById.get(field.id) : undefined}
            moveRef={(by, button) => {
              const name = `${field.key}:${by}`;
              if (button) moveButtons.current.set(name, button);
              else moveButtons.current.delete(name);
            }}
            onMove={(by) => move(index, by)}
            onRemove={() => remove(index)}
          />
        ))}
      </ol>
      {leaving.length > 0 && (
        <ul
          className="grid gap-1 rounded-md border border-border bg-muted p-3 text-sm"
          data-testid="plans-leaving"
        >
          {leaving.map((plan) => (
            <li key={plan.id}>
              <span className="font-medium">{plan.name}</span> stops being offered when you save
              {plan.subscribers > 0
                ? `: its ${plural(plan.subscribers, "current subscriber")} keep${plan.subscribers === 1 ? "s" : ""} it.`
                : "."}
            </li>
          ))}
        </ul>
      )}
      {listError && (
        <p className="text-sm text-destructive" role="alert">
          {listError}
        </p>
      )}
      <div className="flex flex-wrap gap-3">
        <Button
          ref={addButton}
          type="button"
          variant="outline"
          disabled={plans.fields.length >= MAX_PLANS || isSubmitting}
          onClick={() => plans.append(newPlan(current[0]?.interval ?? "month"))}
        >
          <Plus aria-hidden />
          Add plan
        </Button>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? "Saving..." : "Save plans"}
        </Button>
        <Button
          type="button"
          variant="ghost"
          disabled={!isDirty || isSubmitting}
          onClick={() => form.reset()}
        >
          Undo changes
        </Button>
      </div>
      {plans.fields.length >= MAX_PLANS && (
        <p className="text-xs text-muted-foreground">A product offers at most {MAX_PLANS} plans.</p>
      )}
    </form>
  );
}

function PlanItem({
  form,
  index,
  plan,
  count,
  saved,
  moveRef,
  onMove,
  onRemove,
}: {
  form: PlanForm;
  index: number;
  /** The plan as the form holds it now. */
  plan: PlanInput;
  count: number;
  /** The plan as saved, with its subscribers; undefined for a new one. */
  saved: Plan | undefined;
  moveRef: (by: -1 | 1, button: HTMLButtonElement | null) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const headingId = useId();
  const errors = form.formState.errors.plans?.[index];
  const number = index + 1;
  const price = Number.isFinite(plan.price) ? plan.price : null;
  const metered = Boolean(plan.meter);

  return (
    <Card asChild flat className="p-3 sm:p-4">
      <li aria-labelledby={headingId} data-testid="plan-item">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <h3 id={headingId} className="min-w-40 flex-1 font-semibold [overflow-wrap:anywhere]">
            Plan {number}
            {plan.name.trim() && (
              <span className="font-normal text-muted-foreground">: {plan.name.trim()}</span>
            )}
          </h3>
          <div className="ml-auto flex items-center gap-1">
            {index === 0 && <Badge variant="secondary">Listed price</Badge>}
            {!saved && <Badge variant="outline">New</Badge>}
            <Button
              ref={(button) => moveRef(-1, button)}
              type="button"
              variant="ghost"
              size="icon"
              disabled={index === 0}
              aria-label={`Move plan ${number} up`}
              onClick={() => onMove(-1)}
            >
              <ArrowUp aria-hidden />
            </Button>
            <Button
              ref={(button) => moveRef(1, button)}
              type="button"
              variant="ghost"
              size="icon"
              disabled={index === count - 1}
              aria-label={`Move plan ${number} down`}
              onClick={() => onMove(1)}
            >
              <ArrowDown aria-hidden />
            </Button>
            <Button
              type="button"
              variant="ghost"
              size="icon"
              disabled={count <= 1}
              aria-label={`Remove plan ${number}`}
              onClick={onRemove}
            >
              <Trash2 aria-hidden />
            </Button>
          </div>
        </div>
        {saved && saved.subscribers > 0 && (
          <p className="mt-1 text-xs text-muted-foreground">
            {plural(saved.subscribers, "current subscriber")}: removing the plan stops new sales, and they
            keep it.
          </p>
        )}
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <FormField label="Plan name" error={errors?.name?.message}>
            <Input
              autoComplete="off"
              maxLength={40}
              placeholder="Team, Yearly, Pro…"
              {...form.register(`plans.${index}.name`)}
            />
          </FormField>
          <MeteredSwitch form={form} index={index} metered={metered} />
          {metered ? (
            <div className="flex flex-col gap-1.5" data-testid="plan-interval-fixed">
              <span className="text-sm font-medium">Billed</span>
              <span className="flex h-10 items-center rounded-md border border-input bg-muted px-3 text-sm">
                Monthly
              </span>
              <p className={errors?.interval ? "text-sm text-destructive" : "text-xs text-muted-foreground"}>
                {errors?.interval?.message ??
                  "A metered plan is billed monthly: each renewal charges the fee and the month before's use."}
              </p>
            </div>
          ) : (
            <FormField label="Billed" error={errors?.interval?.message}>
              <NativeSelect {...form.register(`plans.${index}.interval`)}>
                <option value="month">Monthly</option>
                <option value="year">Yearly</option>
              </NativeSelect>
            </FormField>
          )}
          <FormField
            label={metered ? "Fixed monthly fee (USD)" : "Plan price (USD)"}
            error={errors?.price?.message}
            hint={priceHint(plan, saved, price)}
          >
            <Input
              type="number"
              inputMode="decimal"
              min={metered ? 0 : 0.01}
              step={0.01}
              {...form.register(`plans.${index}.price`, { valueAsNumber: true })}
            />
          </FormField>
          {metered ? (
            <MeterFields form={form} index={index} />
          ) : (
            <Controller
              control={form.control}
              name={`plans.${index}.perSeat`}
              render={({ field }) => (
                <FormField
                  label="Charged"
                  error={errors?.perSeat?.message}
                  hint={
                    field.value
                      ? "Per seat, within the range below."
                      : `Flat: buyers take 1 to ${MAX_QUANTITY} copies.`
                  }
                >
                  <NativeSelect
                    ref={field.ref}
                    name={field.name}
                    value={field.value ? "seat" : "flat"}
                    onBlur={field.onBlur}
                    onChange={(event) => {
                      const perSeat = event.target.value === "seat";
                      field.onChange(perSeat);
                      // A flat plan's range is 1 to the cart's limit: the server would make it so anyway.
                      if (!perSeat) {
                        form.setValue(`plans.${index}.minSeats`, 1);
                        form.setValue(`plans.${index}.maxSeats`, MAX_QUANTITY);
                        form.clearErrors([`plans.${index}.minSeats`, `plans.${index}.maxSeats`]);
                      }
                    }}
                  >
                    <option value="flat">Flat price</option>
                    <option value="seat">Per seat</option>
                  </NativeSelect>
                </FormField>
              )}
            />
          )}
          {!metered && plan.perSeat && (
            <>
              <FormField label="Minimum seats" error={errors?.minSeats?.message}>
                <Input
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={MAX_QUANTITY}
                  step={1}
                  {...form.register(`plans.${index}.minSeats`, { valueAsNumber: true })}
                />
              </FormField>
              <FormField label="Maximum seats" error={errors?.maxSeats?.message}>
                <Input
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={MAX_QUANTITY}
                  step={1}
                  {...form.register(`plans.${index}.maxSeats`, { valueAsNumber: true })}
                />
              </FormField>
            </>
          )}
          {!metered && (
            <FormField
              label="Free trial (days)"
              error={errors?.trialDays?.message}
              hint={`Days before the first charge, up to ${MAX_TRIAL_DAYS}; 0 for no trial.`}
            >
              <Input
                type="number"
                inputMode="numeric"
                min={0}
                max={MAX_TRIAL_DAYS}
                step={1}
                {...form.register(`plans.${index}.trialDays`, { valueAsNumber: true })}
              />
            </FormField>
          )}
          {!metered && <TrialNeedsCard form={form} index={index} trialDays={plan.trialDays} />}
        </div>
      </li>
    </Card>
  );
}

/**
 * "Metered (billed for use)": a metered plan is monthly, one per subscriber and without a trial
 * (`planInputSchema` makes it so on the server too), so turning it on sets those fields; turning it off
 * leaves them as they are, for the seller to choose.
 */
function MeteredSwitch({ form, index, metered }: { form: PlanForm; index: number; metered: boolean }) {
  const hintId = useId();
  const error = form.formState.errors.plans?.[index]?.meter;
  const message = error?.message ?? error?.root?.message;
  return (
    <div className="flex flex-col gap-1.5 sm:col-span-2">
      <label className="flex items-center gap-3 text-sm font-medium">
        <input
          type="checkbox"
          className="size-4 accent-primary"
          checked={metered}
          aria-describedby={hintId}
          aria-invalid={Boolean(message)}
          data-testid="plan-metered"
          onChange={(event) => {
            const on = event.target.checked;
            const field = <K extends string>(name: K) => `plans.${index}.${name}` as const;
            form.setValue(field("meter"), on ? newMeter() : null, { shouldDirty: true });
            if (on) {
              form.setValue(field("interval"), "month", { shouldDirty: true });
              form.setValue(field("perSeat"), false, { shouldDirty: true });
              form.setValue(field("minSeats"), 1);
              form.setValue(field("maxSeats"), MAX_QUANTITY);
              form.setValue(field("trialDays"), 0, { shouldDirty: true });
              form.setValue(field("trialNeedsCard"), false, { shouldDirty: true });
              form.clearErrors([field("interval"), field("trialDays"), field("minSeats"), field("maxSeats")]);
            }
          }}
        />
        Metered (billed for use)
      </label>
      <p id={hintId} className={message ? "text-sm text-destructive" : "text-xs text-muted-foreground"}>
        {message ??
          (metered
            ? "You report each subscriber's use through the seller API (a key with usage:write); each monthly renewal charges the fee and the month before's use by the tiers below. A fee of 0 sells it by use alone (pay as you go). One per subscriber, no seats, no trial."
            : "Charge for use on top of a monthly fee, by tiers of unit prices.")}
      </p>
    </div>
  );
}

/**
 * A metered plan's unit and its 1 to 5 graduated tiers: each row's units (up to a limit; the last "and
 * above") at its unit price.
 */
function MeterFields({ form, index }: { form: PlanForm; index: number }) {
  const tiers = useFieldArray({ control: form.control, name: `plans.${index}.meter.tiers`, keyName: "key" });
  const unit = useWatch({ control: form.control, name: `plans.${index}.meter.unit` }) ?? "call";
  const errors = form.formState.errors.plans?.[index]?.meter;
  const tiersError = errors?.tiers?.message ?? errors?.tiers?.root?.message;
  const many = meterUnitNames[unit].many;
  const addButton = useRef<HTMLButtonElement>(null);

  function add() {
    const last = tiers.fields.length - 1;
    // The last tier gets a limit to fill in; the new one is "and above".
    form.setValue(`plans.${index}.meter.tiers.${last}.upTo`, Number.NaN);
    tiers.append({ upTo: null, unitPrice: "" });
  }
  function remove(row: number) {
    tiers.remove(row);
    const last = tiers.fields.length - 2;
    if (row > last) form.setValue(`plans.${index}.meter.tiers.${last}.upTo`, null);
    requestAnimationFrame(() => addButton.current?.focus());
  }

  return (
    <div className="flex flex-col gap-3 sm:col-span-2" data-testid="plan-meter-fields">
      <FormField label="Charged for" error={errors?.unit?.message} className="sm:max-w-xs">
        <NativeSelect {...form.register(`plans.${index}.meter.unit`)}>
          {meterUnits.map((u) => (
            <option key={u} value={u}>
              {meterUnitLabels[u]}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium">Price tiers</legend>
        <p className="text-xs text-muted-foreground">
          Each tier prices the {many} above the tier before it, up to its limit; the last prices everything
          above. Prices in USD, up to four decimals (0.004). Up to {MAX_TIERS} tiers.
        </p>
        <ol className="flex flex-col gap-2">
          {tiers.fields.map((tier, row) => {
            const last = row === tiers.fields.length - 1;
            const tierErrors = errors?.tiers?.[row];
            return (
              <li
                key={tier.key}
                className="grid grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] items-start gap-2"
                data-testid="plan-tier"
              >
                {last ? (
                  <div className="flex flex-col gap-1.5">
                    <span className="text-sm font-medium">{row === 0 ? "Units" : "Above that"}</span>
                    <span className="flex h-10 items-center text-sm text-muted-foreground">
                      {row === 0 ? `every ${meterUnitNames[unit].one}` : "and above"}
                    </span>
                  </div>
                ) : (
                  <FormField label={`Up to (${many})`} error={tierErrors?.upTo?.message}>
                    <Input
                      type="number"
                      inputMode="numeric"
                      min={1}
                      step={1}
                      {...form.register(`plans.${index}.meter.tiers.${row}.upTo`, { valueAsNumber: true })}
                    />
                  </FormField>
                )}
                <FormField label="Price each" error={tierErrors?.unitPrice?.message}>
                  <Input
                    inputMode="decimal"
                    autoComplete="off"
                    placeholder="0.004"
                    {...form.register(`plans.${index}.meter.tiers.${row}.unitPrice`)}
                  />
                </FormField>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  className="mt-7"
                  disabled={tiers.fields.length <= 1}
                  aria-label={`Remove tier ${row + 1}`}
                  onClick={() => remove(row)}
                >
                  <Trash2 aria-hidden />
                </Button>
              </li>
            );
          })}
        </ol>
        {tiersError && (
          <p className="text-sm text-destructive" role="alert">
            {tiersError}
          </p>
        )}
        <div>
          <Button
            ref={addButton}
            type="button"
            variant="outline"
            size="sm"
            disabled={tiers.fields.length >= MAX_TIERS}
            onClick={add}
          >
            <Plus aria-hidden />
            Add tier
          </Button>
        </div>
      </fieldset>
    </div>
  );
}

/**
 * "Trial needs a card": the trial starts only with a saved card, charged when it ends (and one card gets
 * one trial). Offered only with a free trial; without one it is saved as false.
 */
function TrialNeedsCard({ form, index, trialDays }: { form: PlanForm; index: number; trialDays?: number }) {
  const hintId = useId();
  const hasTrial = Number.isFinite(trialDays) && (trialDays ?? 0) > 0;
  const error = form.formState.errors.plans?.[index]?.trialNeedsCard?.message;
  return (
    <Controller
      control={form.control}
      name={`plans.${index}.trialNeedsCard`}
      render={({ field }) => (
        <div className="flex flex-col gap-1.5 sm:col-span-2">
          <label className="flex items-center gap-3 text-sm font-medium has-disabled:text-muted-foreground">
            <input
              ref={field.ref}
              type="checkbox"
              name={field.name}
              className="size-4 accent-primary"
              checked={hasTrial && Boolean(field.value)}
              disabled={!hasTrial}
              onBlur={field.onBlur}
              onChange={(event) => field.onChange(event.target.checked)}
              aria-describedby={hintId}
              aria-invalid={Boolean(error)}
            />
            Trial needs a card
          </label>
          <p id={hintId} className={error ? "text-sm text-destructive" : "text-xs text-muted-foreground"}>
            {error ??
              (hasTrial
                ? "Buyers save a card to start the trial; it is charged only when the trial ends, and one card gets one trial."
                : "Give the plan a free trial to ask for a card.")}
          </p>
        </div>
      )}
    />
  );
}

/**
 * Under a plan's price: what its subscribers are told if it changes (decision 0027), before the seller
 * saves; else how buyers will read it.
 */
function priceHint(plan: PlanInput, saved: Plan | undefined, price: number | null): string {
  // A metered plan without a fee is priced by use alone (decision 0029).
  if (plan.meter && price === 0 && (!saved || saved.subscribers === 0))
    return "Fee $0: buyers pay only for use, charged each month for the month before.";
  const shown =
    price === null
      ? null
      : `${formatUsd(price)}${unitSuffix(planUnit({ interval: plan.interval, perSeat: plan.perSeat ?? false }))}${plan.meter ? " + use" : ""}`;
  if (!saved || saved.subscribers === 0) return shown ? `Buyers see ${shown}.` : "";
  const who = plural(saved.subscribers, "subscriber");
  if (plan.interval !== saved.interval)
    return `${who} keep${saved.subscribers === 1 ? "s" : ""} their ${intervalWord[saved.interval]} price; the new interval is for new subscribers.`;
  const days = priceChangeNoticeDays(saved.interval);
  if (price !== null && Number(saved.price) !== Number(price.toFixed(2)))
    return `${who} will be told; their price changes from their first renewal at least ${days} days from now.`;
  return `${who}: a new price is e-mailed to them and applies from their first renewal at least ${days} days later.`;
}
