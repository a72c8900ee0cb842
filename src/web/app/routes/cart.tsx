import { Minus, Package, Plus, ShoppingCart, Trash2 } from "lucide-react";
import { useRef, useState } from "react";
import { Link } from "react-router";
import { type CartItem, cartCount } from "#domain/cart";
import { priceNow, setQuantity } from "#domain/cart-lines";
import { MAX_QUANTITY } from "#domain/checkout";
import { computeTotals, lineTotal } from "#domain/money";
import { paths } from "#domain/routes";
import { PageHeader } from "#web/components/layout/page-header";
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
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { cartActions, cartStore, useCart } from "#web/features/cart/cart-store";
import { seatsText } from "#web/features/catalog/components/plan-picker";
import { Price } from "#web/features/currency/components/price";
import { Amount, TotalsList, UnitPrice } from "#web/features/currency/components/totals-list";
import { useMoney } from "#web/features/currency/use-money";

const ITEMS_HEADING = "cart-items-heading";
const EMPTY_HEADING = "cart-empty-heading";

type Confirmation = { kind: "remove"; item: CartItem } | { kind: "clear" };

export function Component() {
  const items = useCart();
  const [confirming, setConfirming] = useState<Confirmation | null>(null);
  // Radix returns focus only to a Trigger; these dialogs open from many buttons, so the page does it.
  const opener = useRef<HTMLElement | null>(null);
  // Set when the user confirms: the row (or the whole list) is gone, so focus moves to a heading instead.
  const confirmed = useRef(false);
  const ask = (confirmation: Confirmation) => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    confirmed.current = false;
    setConfirming(confirmation);
  };

  // Another tab may remove the item while its dialog is open; the dialog then has nothing left to ask.
  const open =
    confirming !== null &&
    (confirming.kind === "clear" ? items.length > 0 : items.some((item) => item.id === confirming.item.id));

  if (confirming && !open) setConfirming(null);

  const confirm = () => {
    if (!confirming) return;
    confirmed.current = true;
    if (confirming.kind === "clear") cartActions.clear();
    else cartStore.set(setQuantity(cartStore.get(), confirming.item.id, 0));
  };

  return (
    <>
      <PageHeader title="Shopping Cart" subtitle="Review your items before checkout" />
      {items.length === 0 ? (
        <EmptyCart />
      ) : (
        <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 sm:px-6 lg:grid-cols-3 lg:items-start">
          <CartItems
            items={items}
            onRemove={(item) => ask({ kind: "remove", item })}
            onClear={() => ask({ kind: "clear" })}
          />
          <OrderSummary items={items} />
        </div>
      )}

      <AlertDialog
        open={open}
        onOpenChange={(next) => {
          if (!next) setConfirming(null);
        }}
      >
        {confirming && (
          <AlertDialogContent
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              const target =
                confirmed.current || !opener.current?.isConnected
                  ? (document.getElementById(ITEMS_HEADING) ?? document.getElementById(EMPTY_HEADING))
                  : opener.current;
              confirmed.current = false;
              opener.current = null;
              target?.focus();
            }}
          >
            <AlertDialogHeader>
              <AlertDialogTitle>
                {confirming.kind === "clear" ? "Clear your cart?" : "Remove item?"}
              </AlertDialogTitle>
              <AlertDialogDescription>
                {confirming.kind === "clear"
                  ? "This removes every item from your cart."
                  : `Remove "${confirming.item.name}" from your cart?`}
              </AlertDialogDescription>
            </AlertDialogHeader>
            <AlertDialogFooter>
              <AlertDialogCancel>Cancel</AlertDialogCancel>
              <AlertDialogAction variant="destructive" onClick={confirm}>
                {confirming.kind === "clear" ? "Clear cart" : "Remove"}
              </AlertDialogAction>
            </AlertDialogFooter>
          </AlertDialogContent>
        )}
      </AlertDialog>
    </>
  );
}

function EmptyCart() {
  return (
    <section className="mx-auto max-w-7xl px-4 py-12 sm:px-6 sm:py-16" data-testid="cart-empty">
      <Card flat className="mx-auto flex max-w-lg flex-col items-center border-dashed px-6 py-12 text-center">
        <span className="flex size-16 items-center justify-center rounded-full bg-muted">
          <ShoppingCart className="size-8 text-muted-foreground" aria-hidden />
        </span>
        <h2 id={EMPTY_HEADING} tabIndex={-1} className="mt-6 text-xl font-semibold outline-none">
          Your cart is empty
        </h2>
        <p className="mt-2 text-muted-foreground">Start shopping to add products to your cart</p>
        <Button asChild className="mt-6">
          <Link to={paths.products()}>Browse Products</Link>
        </Button>
      </Card>
    </section>
  );
}

function CartItems({
  items,
  onRemove,
  onClear,
}: {
  items: CartItem[];
  onRemove: (item: CartItem) => void;
  onClear: () => void;
}) {
  return (
    <Card asChild className="min-w-0 lg:col-span-2">
      <section aria-labelledby={ITEMS_HEADING}>
        <div className="flex flex-wrap items-center justify-between gap-2 border-b border-border px-4 py-4 sm:px-6">
          <h2 id={ITEMS_HEADING} tabIndex={-1} className="text-lg font-semibold outline-none">
            Cart Items ({cartCount(items)})
          </h2>
          <Button
            variant="ghost"
            size="sm"
            className="text-muted-foreground hover:text-destructive"
            onClick={onClear}
          >
            <Trash2 aria-hidden />
            Clear cart
          </Button>
        </div>
        <ul className="divide-y divide-border">
          {items.map((item) => (
            <CartRow key={item.id} item={item} onRemove={() => onRemove(item)} />
          ))}
        </ul>
      </section>
    </Card>
  );
}

function CartRow({ item, onRemove }: { item: CartItem; onRemove: () => void }) {
  return (
    // Phones: picture and details side by side, the controls on a row of their own beneath them.
    <li
      className="flex flex-wrap gap-x-4 gap-y-3 px-4 py-5 sm:flex-nowrap sm:gap-6 sm:px-6"
      data-testid="cart-item"
    >
      <Thumbnail item={item} />
      <div className="min-w-0 flex-1">
        <h3 className="font-semibold break-words">
          <Link
            to={paths.product(item.id)}
            className="rounded-sm hover:text-primary hover:underline"
            data-testid="cart-item-name"
          >
            {item.name}
          </Link>
        </h3>
        <p className="mt-0.5 text-sm break-words text-muted-foreground">by {item.vendor}</p>
        {item.plan && (
          <p className="mt-1 text-sm break-words" data-testid="cart-item-plan">
            <span className="font-medium">{item.plan.name} plan</span>
            {item.plan.perSeat && <span className="text-muted-foreground"> · {seatsText(item.plan)}</span>}
          </p>
        )}
        {item.trial && item.plan ? (
          <TrialTerms item={item} trialDays={item.plan.trialDays} />
        ) : (
          <Price
            amount={item.price}
            productName={item.name}
            unit={item.unit}
            payAsYouGo={item.payAsYouGo}
            exact
            className="mt-2"
          />
        )}
        {item.quantity > 1 && !item.trial && (
          <p className="mt-1 text-sm text-muted-foreground">
            Line total{" "}
            <span className="font-semibold text-foreground tabular-nums" data-testid="cart-item-total">
              <Amount usd={lineTotal(item.price, item.quantity)} />
            </span>
          </p>
        )}
      </div>
      <div className="flex w-full items-center justify-between gap-4 sm:w-auto sm:flex-col sm:items-end sm:justify-start sm:gap-2">
        <QuantityControl item={item} />
        <Button
          variant="ghost"
          size="sm"
          className="-mr-3 text-muted-foreground hover:text-destructive"
          aria-label={`Remove ${item.name}`}
          onClick={onRemove}
        >
          <Trash2 aria-hidden />
          Remove
        </Button>
      </div>
    </li>
  );
}

/** A free trial's line: what it costs after the trial, and nothing now. */
function TrialTerms({ item, trialDays }: { item: CartItem; trialDays: number }) {
  return (
    <div className="mt-2 text-sm">
      <p className="font-medium" data-testid="cart-item-trial">
        Free for {trialDays} days, then{" "}
        <span className="whitespace-nowrap tabular-nums">
          <UnitPrice usd={item.price} productName={item.name} unit={item.unit} />
        </span>
      </p>
      <p className="mt-1 text-muted-foreground">
        Due today{" "}
        <span className="font-semibold text-foreground tabular-nums" data-testid="cart-item-total">
          <Amount usd={priceNow(item)} />
        </span>
      </p>
    </div>
  );
}

function Thumbnail({ item }: { item: CartItem }) {
  const [broken, setBroken] = useState(false);
  // Product images are 4:3 (800 × 600), so the thumbnail keeps that shape rather than cropping to a square.
  const box = "h-18 w-24 shrink-0 rounded-md border border-border bg-muted sm:h-24 sm:w-32";
  if (!item.image_url || broken) {
    return (
      <div role="img" aria-label={item.name} className={`${box} flex items-center justify-center`}>
        <Package className="size-8 text-muted-foreground" aria-hidden />
      </div>
    );
  }
  return (
    <img
      src={item.image_url}
      alt={item.name}
      width={128}
      height={96}
      loading="lazy"
      decoding="async"
      className={`${box} object-cover`}
      onError={() => setBroken(true)}
    />
  );
}

/** Copies, or a per-seat plan's seats within its range (the plan's least is as low as it goes). */
function QuantityControl({ item }: { item: CartItem }) {
  const change = (quantity: number) => cartStore.set(setQuantity(cartStore.get(), item.id, quantity));
  const least = item.plan?.minSeats ?? 1;
  const most = Math.min(item.plan?.maxSeats ?? MAX_QUANTITY, MAX_QUANTITY);
  return (
    <fieldset className="flex items-center rounded-md border border-input bg-card">
      <legend className="sr-only">Quantity of {item.name}</legend>
      <Button
        variant="ghost"
        size="icon"
        className="rounded-r-none"
        aria-label={`Decrease quantity of ${item.name}`}
        disabled={item.quantity <= least}
        onClick={() => change(item.quantity - 1)}
      >
        <Minus aria-hidden />
      </Button>
      <span
        className="min-w-10 px-1 text-center text-sm font-semibold tabular-nums"
        aria-live="polite"
        aria-atomic="true"
        data-testid="cart-item-quantity"
      >
        {item.quantity}
      </span>
      <Button
        variant="ghost"
        size="icon"
        className="rounded-l-none"
        aria-label={`Increase quantity of ${item.name}`}
        disabled={item.quantity >= most}
        onClick={() => change(item.quantity + 1)}
      >
        <Plus aria-hidden />
      </Button>
    </fieldset>
  );
}

function OrderSummary({ items }: { items: CartItem[] }) {
  const money = useMoney();
  // The tax depends on the buyer's country and tax ID, asked at checkout: the cart shows none yet.
  const totals = computeTotals(
    items.map((item) => ({ price: String(priceNow(item)), quantity: item.quantity })),
    "0",
  );
  const trials = items.some((item) => item.trial);
  return (
    <Card asChild className="p-6 lg:sticky lg:top-24">
      <section aria-labelledby="order-summary-heading" data-testid="order-summary">
        <h2 id="order-summary-heading" className="text-lg font-semibold">
          Order Summary
        </h2>
        <TotalsList totals={totals} taxLine={null} testId="cart" className="mt-6" />
        {trials && (
          <p className="mt-4 text-xs text-muted-foreground" data-testid="cart-trial-note">
            Free trials are charged nothing today. Their first charge is on the day the trial ends, unless you
            cancel before then.
          </p>
        )}
        {money.currency.code !== "USD" && (
          <p
            className="mt-4 rounded-md bg-muted p-3 text-xs text-muted-foreground"
            data-testid="currency-note"
          >
            {`All prices shown in ${money.currency.name} are approximate and may vary at your payment provider's end.`}
          </p>
        )}
        <div className="mt-6 flex flex-col gap-3">
          <Button asChild size="lg" className="w-full">
            <Link to={paths.checkout()}>Proceed to Checkout</Link>
          </Button>
          <Button asChild variant="outline" className="w-full">
            <Link to={paths.products()}>Continue Shopping</Link>
          </Button>
        </div>
      </section>
    </Card>
  );
}
