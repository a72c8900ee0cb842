import { ChevronDown } from "lucide-react";
import { currencies, currencyByCode } from "#domain/currency";
import { Button } from "#web/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from "#web/components/ui/dropdown-menu";
import { chooseCurrency, useCurrency } from "#web/features/currency/currency-store";

export function CurrencyPicker({ className }: { className?: string }) {
  const code = useCurrency();
  const current = currencyByCode(code);
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size="sm"
          className={className}
          aria-label={`Display currency: ${current.name}`}
        >
          <span aria-hidden>{current.flag}</span>
          {current.code}
          <ChevronDown aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>Display currency</DropdownMenuLabel>
        <DropdownMenuRadioGroup value={code} onValueChange={chooseCurrency}>
          {currencies.map((c) => (
            <DropdownMenuRadioItem key={c.code} value={c.code}>
              <span aria-hidden>{c.flag}</span>
              <span className="w-9 font-medium">{c.code}</span>
              <span className="text-muted-foreground">
                {c.name} ({c.symbol})
              </span>
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
