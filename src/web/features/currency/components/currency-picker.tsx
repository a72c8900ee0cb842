import { currencies } from "#domain/currency";
import { NativeSelect } from "#web/components/ui/select";
import { chooseCurrency, useCurrency } from "#web/features/currency/currency-store";
import { cn } from "#web/lib/utils";

/**
 * The display-currency picker. A native select: it closes after a choice, works with every keyboard,
 * screen reader and phone, and keeps a menu library out of the first page load. Its options name the
 * currency by code, no flag: an option holds only text, and flag emoji are two boxed letters where the
 * device has no emoji font. The header gives it room for its longest label.
 */
export function CurrencyPicker({ className, id = "currency-picker" }: { className?: string; id?: string }) {
  const code = useCurrency();
  return (
    <div className={cn("w-full md:w-56", className)}>
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
            {c.symbol === c.code ? `${c.code} · ${c.name}` : `${c.code} · ${c.name} (${c.symbol})`}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}
