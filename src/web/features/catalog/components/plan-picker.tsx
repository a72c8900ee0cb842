import { useId } from "react";
import type { CartPlan } from "#domain/cart";
import { addOnPlan } from "#domain/cart-lines";
import type { ProductDetail, ProductPlan } from "#domain/catalog-schemas";
import { listedPriceLabel } from "#domain/meter-units";
import { type Meter, meterUnitNames, payAsYouGoOf } from "#domain/metering";
import { planUnit } from "#domain/subscriptions";
import { cartActions, cartStore } from "#web/features/cart/cart-store";
import { useMoney } from "#web/features/currency/use-money";

type Seats = Pick<ProductPlan, "perSeat" | "minSeats" | "maxSeats">;

/** "1–99 seats", "5 seats": the seats a per-seat plan is bought in. */
export const seatsText = ({ minSeats, maxSeats }: Seats) =>
  `${minSeats === maxSeats ? minSeats : `${minSeats}–${maxSeats}`} seats`;

/** "Per seat, 1–99 seats": what a per-seat plan's quantity counts; null for a flat plan. */
export function seatRange(plan: Seats): string | null {
  return plan.perSeat ? `Per seat, ${seatsText(plan)}` : null;
}

/** What the cart keeps of a plan: everything but its price, which the line holds. */
const cartPlanOf = (plan: ProductPlan): CartPlan => ({
  id: plan.id,
  name: plan.name,
  interval: plan.interval,
  perSeat: plan.perSeat,
  minSeats: plan.minSeats,
  maxSeats: plan.maxSeats,
  trialDays: plan.trialDays,
});

/**
 * Adds a recurring product on the chosen plan, with its free trial when `trial`: the plan's price per
 * period is the line's price (the server checks it), its trial charged nothing now.
 */
export function addPlanToCart(
  product: Pick<ProductDetail, "id" | "name" | "vendor" | "imageUrl">,
  plan: ProductPlan,
  trial: boolean,
  viewCart?: () => void,
) {
  const input = {
    id: product.id,
    name: product.name,
    price: Number(plan.price),
    unit: planUnit(plan),
    vendor: product.vendor,
    image_url: product.imageUrl,
    plan: cartPlanOf(plan),
    trial,
    payAsYouGo: payAsYouGoOf(plan),
  };
  cartActions.add(input, viewCart, addOnPlan(cartStore.get(), input));
}

/**
 * A plan's price as the picker shows it: "$9 / month", "$29 / month + use", or for a plan priced by use
 * alone its unit price ("$0.004 / call, pay as you go", `listedPriceLabel`).
 */
function planPriceText(plan: ProductPlan, price: ReturnType<typeof useMoney>["price"]): string {
  const payg = payAsYouGoOf(plan);
  if (payg) return listedPriceLabel(payg, (usd) => price(Number(usd), { exact: true }));
  return `${price(Number(plan.price), { unit: planUnit(plan) })}${plan.meter ? " + use" : ""}`;
}

/**
 * A metered plan's tiers in a line, each unit price by `unitPrice`: "first 10,000 calls $0.002 each,
 * next 90,000 $0.0015, then $0.001"; with one tier, "$0.002 a call".
 */
export function meterTiersText(meter: Meter, unitPrice: (usd: string) => string): string {
  const names = meterUnitNames[meter.unit];
  const [first, ...rest] = meter.tiers;
  if (!first) return "";
  if (first.upTo === null) return `${unitPrice(first.unitPrice)} a ${names.one}`;
  const parts = [
    `first ${first.upTo.toLocaleString("en-US")} ${names.many} ${unitPrice(first.unitPrice)} each`,
  ];
  let from = first.upTo;
  for (const tier of rest) {
    if (tier.upTo === null) parts.push(`then ${unitPrice(tier.unitPrice)}`);
    else {
      parts.push(`next ${(tier.upTo - from).toLocaleString("en-US")} ${unitPrice(tier.unitPrice)}`);
      from = tier.upTo;
    }
  }
  return parts.join(", ");
}

const hasNotes = (plan: ProductPlan) => plan.perSeat || plan.trialDays > 0 || plan.meter !== null;

/** A metered plan's use, tier by tier, in the display currency. */
function MeterNote({ meter }: { meter: Meter }) {
  const money = useMoney();
  if (!money.ready) return null;
  return (
    <span className="text-muted-foreground" data-testid="plan-meter">
      Use: {meterTiersText(meter, (usd) => money.price(Number(usd), { exact: true }))}
    </span>
  );
}

/** A plan's seat range, metered use and free trial, side by side. */
function PlanNotes({ plan }: { plan: ProductPlan }) {
  const seats = seatRange(plan);
  return (
    <span className="flex flex-wrap gap-x-3">
      {plan.meter && <MeterNote meter={plan.meter} />}
      {seats && <span className="text-muted-foreground">{seats}</span>}
      {plan.trialDays > 0 && (
        <span className="font-medium text-emerald-800 dark:text-emerald-400" data-testid="plan-trial">
          {plan.trialDays}-day free trial{plan.trialNeedsCard && ", card required"}
        </span>
      )}
    </span>
  );
}

/** The one plan of a product that offers no choice: its seats and trial, when it says something. */
export function PlanFacts({ plan }: { plan: ProductPlan }) {
  if (!hasNotes(plan)) return null;
  return (
    <p className="text-sm" data-testid="plan-facts">
      <PlanNotes plan={plan} />
    </p>
  );
}

/**
 * A recurring product's plans as a radio group (arrow keys move between them, as any radio group): each
 * its name, its price per period in the display currency, its seats and its free trial. The first plan
 * is chosen to begin with, on the server's page as in the browser. On the renewal desk's change of plan,
 * `current` marks the plan the subscription is on.
 */
export function PlanPicker({
  plans,
  chosen,
  onChoose,
  current,
}: {
  plans: ProductPlan[];
  chosen: number;
  onChoose: (index: number) => void;
  /** The id of the plan held now, marked "(current plan)". */
  current?: string | null;
}) {
  const money = useMoney();
  const name = useId();
  return (
    <fieldset className="pt-1" data-testid="plan-picker">
      <legend className="mb-2 text-sm font-medium">Choose a plan</legend>
      <div className="grid gap-2">
        {plans.map((plan, index) => (
          <label
            key={plan.id}
            className="flex cursor-pointer items-start gap-3 rounded-md border border-border p-3 text-sm has-checked:border-primary has-checked:bg-accent has-checked:text-accent-foreground has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-ring"
            data-testid="plan-option"
          >
            {/* Named by the plan's name alone; its price, seats and trial are its description. */}
            <input
              type="radio"
              name={name}
              value={plan.id}
              checked={index === chosen}
              onChange={() => onChoose(index)}
              aria-labelledby={`${name}-${index}`}
              aria-describedby={
                [money.ready && `${name}-${index}-price`, hasNotes(plan) && `${name}-${index}-notes`]
                  .filter(Boolean)
                  .join(" ") || undefined
              }
              className="mt-0.5 size-4 shrink-0 accent-primary"
            />
            <span className="flex min-w-0 flex-1 flex-col gap-0.5">
              <span className="flex flex-wrap items-baseline justify-between gap-x-3">
                <span id={`${name}-${index}`} className="font-semibold break-words">
                  {plan.name}
                  {plan.id === current && " "}
                  {plan.id === current && (
                    <span className="text-xs font-medium text-muted-foreground" data-testid="plan-current">
                      (current plan)
                    </span>
                  )}
                </span>
                {money.ready ? (
                  <span
                    id={`${name}-${index}-price`}
                    className="font-semibold tabular-nums"
                    data-testid="plan-price"
                  >
                    {planPriceText(plan, money.price)}
                  </span>
                ) : (
                  <span className="inline-block h-5 w-24 animate-pulse rounded bg-muted" aria-hidden />
                )}
              </span>
              {hasNotes(plan) && (
                <span id={`${name}-${index}-notes`} className="text-xs">
                  <PlanNotes plan={plan} />
                </span>
              )}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
