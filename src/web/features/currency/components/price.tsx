import { cva } from "class-variance-authority";
import { listedPriceParts, type PayAsYouGo } from "#domain/meter-units";
import { priceSuffix } from "#domain/money";
import type { PricingUnit } from "#domain/pricing-units";
import { Tooltip } from "#web/components/ui/tooltip";
import { useMoney } from "#web/features/currency/use-money";
import { cn } from "#web/lib/utils";

const priceVariants = cva("font-bold tabular-nums", {
  variants: {
    size: { sm: "text-sm", md: "text-lg", lg: "text-2xl", xl: "text-4xl" },
  },
  defaultVariants: { size: "md" },
});
const originalVariants = cva("text-muted-foreground line-through tabular-nums", {
  variants: { size: { sm: "text-xs", md: "text-sm", lg: "text-base", xl: "text-lg" } },
  defaultVariants: { size: "md" },
});

type PriceProps = {
  amount: number;
  originalAmount?: number | null;
  productName?: string;
  /** What the price buys ("/ month"); without one the spec's "/transaction" rule applies. */
  unit?: PricingUnit | null;
  /** A price the buyer owes (cart, checkout, orders): exact to the cent rather than rounded. */
  exact?: boolean;
  size?: "sm" | "md" | "lg" | "xl";
  /**
   * Cards: the struck-through original price leaves out a pricing unit, which the price beside it
   * already shows, so the line fits a narrow card ("$0.006 / minute $0.008"). The spec's
   * "/transaction" fallback stays on both, as the spec says.
   */
  compact?: boolean;
  /**
   * A product priced by use alone (decision 0029): its unit price and meter are shown, as
   * `listedPriceParts` words them, instead of its $0 monthly fee.
   */
  payAsYouGo?: PayAsYouGo | null;
  className?: string;
};

/** A USD price shown in the chosen currency, the original struck through, and the USD figure on hover. */
export function Price({
  amount,
  originalAmount,
  productName = "",
  unit = null,
  exact = false,
  size = "md",
  compact = false,
  payAsYouGo = null,
  className,
}: PriceProps) {
  const money = useMoney();
  if (!money.ready) {
    return (
      <span className={cn("inline-block h-6 w-20 animate-pulse rounded bg-muted", className)} aria-hidden />
    );
  }
  // The amount and what it buys, as `formatPrice` joins them; the unit in lighter type beside the figure.
  const payg = payAsYouGo
    ? listedPriceParts(payAsYouGo, (usd) => money.price(Number(usd), { exact: true }))
    : null;
  const figure = payg ? payg.figure : money.price(amount, { exact });
  const suffix = payg ? payg.suffix : priceSuffix(unit, productName, amount);
  const text = (
    <>
      {payg?.prefix && <span className="text-[0.7em] font-medium text-muted-foreground">{payg.prefix}</span>}
      {figure}
      {suffix && <span className="text-[0.7em] font-medium text-muted-foreground">{suffix}</span>}
    </>
  );
  const showOriginal = !payAsYouGo && originalAmount != null && originalAmount > amount;
  const main =
    money.currency.code === "USD" ? (
      <span className={priceVariants({ size })} data-testid="price">
        {text}
      </span>
    ) : (
      <Tooltip content={`Original price: ${money.usd(payAsYouGo?.unitPrice ?? amount)} USD`}>
        {(describedBy) => (
          <span
            // biome-ignore lint/a11y/noNoninteractiveTabindex: focusable so keyboard users can reach the USD hint
            tabIndex={0}
            aria-describedby={describedBy}
            className={cn(
              priceVariants({ size }),
              "cursor-help underline decoration-dotted underline-offset-4",
            )}
            data-testid="price"
          >
            {text}
          </span>
        )}
      </Tooltip>
    );
  return (
    <span className={cn("inline-flex flex-wrap items-baseline gap-2", className)}>
      {main}
      {showOriginal && (
        <span className={originalVariants({ size })} data-testid="original-price">
          <span className="sr-only">Was </span>
          {compact && unit
            ? money.price(originalAmount, { exact })
            : money.price(originalAmount, { productName, unit, exact })}
        </span>
      )}
    </span>
  );
}
