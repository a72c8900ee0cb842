import { currencies } from "#domain/currency";
import { NativeSelect } from "#web/components/ui/select";
import { chooseCurrency, useCurrency } from "#web/features/currency/currency-store";
import { cn } from "#web/lib/utils";

/**
 * The display-currency picker. A native select: it closes after a choice, works with every keyboard,
 * screen reader and phone, and keeps a menu library out of the first page load. Its options name the
 * currency by code, no flag: an option holds only text, and flag emoji are two boxed letters where the
 * device has no emoji font. It is as wide as its longest label (a select's own width), so no label is
 * ever cut; `compact` (the desktop header, where the search box needs the room) names each currency by
 * its code and symbol only.
 */
export function CurrencyPicker({
  className,
  id = "currency-picker",
  compact = false,
}: {
  className?: string;
  id?: string;
  compact?: boolean;
}) {
  const code = useCurrency();
  return (
    <div className={cn("w-full md:w-auto", className)}>
      <label htmlFor={id} className="sr-only">
        Display currency
      </label>
      <NativeSelect
        id={id}
        value={code}
        onChange={(event) => chooseCurrency(event.target.value)}
        className="[&_select]:h-9 [&_select]:border-transparent [&_select]:bg-transparent [&_select]:shadow-none [&_select]:hover:bg-accent"
        data-testid="currency-picker"
      >
        {currencies.map((c) => (
          <option key={c.code} value={c.code}>
            {optionLabel(c, compact)}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}

function optionLabel(currency: (typeof currencies)[number], compact: boolean) {
  const { code, name, symbol } = currency;
  // The dirham's symbol is its code: said once.
  const sign = symbol === code ? "" : ` (${symbol})`;
  return compact ? `${code}${sign}` : `${code} · ${name}${sign}`;
}
