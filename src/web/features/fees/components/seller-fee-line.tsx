import { applyRate } from "#domain/ledger";
import { formatRatePercent, formatUsd, toUnits } from "#domain/money";
import { LoadError } from "#web/components/ui/load-error";
import { useCategoryName } from "#web/features/catalog/api/get-categories";
import { useMyFees } from "#web/features/fees/api/fee-rules";

/** A price typed in the form, in units, or null while it is not a price. */
function priceUnits(price: string): number | null {
  if (!/^\d+(\.\d+)?$/.test(price.trim())) return null;
  try {
    return toUnits(price);
  } catch {
    return null;
  }
}

/**
 * Under a seller's price: the fee Stackbay keeps for the chosen category and what the seller receives,
 * worked out with the ledger's own rounding so the figure is the one the sale will book.
 */
export function SellerFeeLine({ category, price }: { category: string; price: string }) {
  const fees = useMyFees();
  const categoryName = useCategoryName(category);
  if (fees.isError) {
    return (
      <LoadError
        what="Stackbay fee"
        error={fees.error}
        onRetry={() => void fees.refetch()}
        className="sm:col-span-2"
      />
    );
  }
  let text: string;
  if (fees.isPending) text = "Loading your Stackbay fee…";
  else if (!category) text = "Choose a category to see the Stackbay fee on each sale.";
  else {
    const rate =
      fees.data.categories.find((c) => c.slug === category)?.rate ??
      fees.data.sellerRate ??
      fees.data.defaultRate;
    const units = priceUnits(price);
    const base = `Stackbay fee for ${categoryName}: ${formatRatePercent(rate)}`;
    text =
      units === null
        ? `${base}.`
        : `${base} — you receive ${formatUsd((units - applyRate(units, rate)) / 10_000)} of each sale before any reseller commission.`;
  }
  return (
    <p className="text-sm text-muted-foreground sm:col-span-2" aria-live="polite" data-testid="seller-fee">
      {text}
    </p>
  );
}
