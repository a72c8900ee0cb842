import { zodResolver } from "@hookform/resolvers/zod";
import { useQueries, useQueryClient } from "@tanstack/react-query";
import { Apple, CreditCard, Landmark, type LucideIcon, ShoppingCart, Wallet } from "lucide-react";
import { type FormEvent, type ReactNode, useId, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { Link } from "react-router";
import type { Me } from "#domain/accounts";
import type { CartItem } from "#domain/cart";
import { dropTrials, priceNow, setPrices } from "#domain/cart-lines";
import {
  type BillingInput,
  billingFormSchema,
  buyerOf,
  type PaymentMethod,
  type PriceChange,
  paymentMethods,
  priceChangedDetailsSchema,
  productUnavailableDetailsSchema,
  trialUsedDetailsSchema,
} from "#domain/checkout";
import { countries, countryCodeOf, countryName, isCountryCode } from "#domain/countries";
import { formatDate } from "#domain/dates";
import { computeTotals, lineTotal } from "#domain/money";
import { paths } from "#domain/routes";
import {
  SHIPPING_ADDRESS_REQUIRED,
  type ShippingAddressInput,
  shippingAddressSchema,
} from "#domain/shipping";
import { trialEndsAt } from "#domain/subscriptions";
import { decideTax, taxLineLabel, vatRegisterFor } from "#domain/tax";
import { taxIdFieldFor } from "#domain/tax-ids";
import { PageHeader } from "#web/components/layout/page-header";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { NativeSelect } from "#web/components/ui/select";
import { Spinner } from "#web/components/ui/spinner";
import { meQueryOptions, useMe } from "#web/features/auth/api/get-me";
import { RequireUser } from "#web/features/auth/components/guards";
import { cartStore, useCart } from "#web/features/cart/cart-store";
import { productQueryOptions } from "#web/features/catalog/api/get-product";
import { Amount, TotalsList, UnitPrice } from "#web/features/currency/components/totals-list";
import { useMoney } from "#web/features/currency/use-money";
import { usePlaceOrder } from "#web/features/orders/api/place-order";
import { PriceChangeNotice } from "#web/features/orders/components/price-change-notice";
import { TrialUsedNotice } from "#web/features/orders/components/trial-used-notice";
import {
  paymentMethodsKey,
  paymentMethodsQueryOptions,
} from "#web/features/payment-methods/api/get-payment-methods";
import { RenewWith, renewWithMethod } from "#web/features/payment-methods/components/renew-with";
import { usePaymentMethodSetupReturn } from "#web/features/payment-methods/use-setup-return";
import {
  ShippingAddressFields,
  useCartShips,
} from "#web/features/shipping/components/shipping-address-fields";
import { useVatCheck } from "#web/features/tax/api/check-vat-number";
import { useTaxFacts } from "#web/features/tax/api/get-tax-rates";
import { isApiError } from "#web/lib/api";
import { runMutation } from "#web/lib/mutation";

const methodIcons: Record<PaymentMethod, LucideIcon> = {
  stripe: CreditCard,
  paypal: Wallet,
  "apple-pay": Apple,
  "bank-transfer": Landmark,
};

/** `routePatterns.checkout`: signed-in only, so an anonymous visitor logs in first and is brought back here. */
export function Component() {
  return (
    <>
      <PageHeader
        title="Checkout"
        subtitle="Enter your billing details, choose how to pay and place your order."
      />
      <RequireUser>
        <Checkout />
      </RequireUser>
    </>
  );
}

function Checkout() {
  const { data: me } = useMe();
  const items = useCart();
  // Set once the order exists and the browser is on its way: the payment page, or (free trials only,
  // nothing to pay) straight to the confirmation.
  const [placed, setPlaced] = useState<string | null>(null);
  // The saved method the buyer chose to renew on; null until they choose (the default is offered first).
  // A card saved from here comes back chosen.
  const [renewWith, setRenewWith] = useState<string | null>(null);
  usePaymentMethodSetupReturn({ onSaved: (method) => setRenewWith(method.id) });
  if (placed) return <Spinner label={placed} />;
  if (items.length === 0) return <EmptyCart />;
  if (!me) return null;
  return (
    <CheckoutForm
      me={me}
      items={items}
      onPlaced={setPlaced}
      renewWith={renewWith}
      onRenewWith={setRenewWith}
    />
  );
}

/**
 * Whether a line of the cart starts a free trial whose plan needs a saved card, as the product's plans say
 * now (the same product reads `useCartShips` makes, so nothing more is fetched).
 */
function useTrialNeedsCard(items: CartItem[]): boolean {
  const trials = items.filter((item) => item.trial && item.plan);
  const products = useQueries({
    queries: trials.map((item) => ({ ...productQueryOptions(item.id), staleTime: 5 * 60_000 })),
  });
  return trials.some(
    (item, index) => products[index]?.data?.plans.find((plan) => plan.id === item.plan?.id)?.trialNeedsCard,
  );
}

function EmptyCart() {
  return (
    <section className="mx-auto max-w-7xl px-4 py-12 sm:px-6 sm:py-16" data-testid="checkout-empty">
      <Card flat className="mx-auto flex max-w-lg flex-col items-center border-dashed px-6 py-12 text-center">
        <span className="flex size-16 items-center justify-center rounded-full bg-muted">
          <ShoppingCart className="size-8 text-muted-foreground" aria-hidden />
        </span>
        <h2 className="mt-6 text-xl font-semibold">Your cart is empty</h2>
        <p className="mt-2 text-muted-foreground">Add products to your cart before checking out.</p>
        <Button asChild className="mt-6">
          <Link to={paths.products()}>Browse Products</Link>
        </Button>
      </Card>
    </section>
  );
}

const orderFailed = {
  title: "Order failed",
  description: "There was an error processing your order. Please try again.",
};

function CheckoutForm({
  me,
  items,
  onPlaced,
  renewWith,
  onRenewWith,
}: {
  me: Me;
  items: CartItem[];
  onPlaced: (leaving: string) => void;
  renewWith: string | null;
  onRenewWith: (id: string | null) => void;
}) {
  const money = useMoney();
  const queryClient = useQueryClient();
  const place = usePlaceOrder();
  // One key per visit to the page: a double click or a retry after a lost answer gets the same order back.
  // A refusal for changed prices writes nothing, so the retry at the new prices keeps the key too.
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const [unavailable, setUnavailable] = useState<string[]>([]);
  const [priceChanges, setPriceChanges] = useState<PriceChange[]>([]);
  // The server's words when the buyer had some of these trials already; the cart then buys them outright.
  const [trialUsed, setTrialUsed] = useState<string | null>(null);
  const form = useForm<BillingInput>({
    resolver: zodResolver(billingFormSchema),
    defaultValues: {
      fullName: `${me.firstName} ${me.lastName}`.trim(),
      email: me.email,
      address: me.address ?? "",
      city: me.city ?? "",
      // The profile's country is free text: it pre-fills the select when it names a country.
      country: countryCodeOf(me.country) ?? "",
      business: false,
      company: "",
      taxId: "",
    },
  });
  const shippingForm = useForm<ShippingAddressInput>({
    resolver: zodResolver(shippingAddressSchema),
    defaultValues: {
      fullName: `${me.firstName} ${me.lastName}`.trim(),
      line1: me.address ?? "",
      line2: "",
      city: me.city ?? "",
      postalCode: "",
      country: countryCodeOf(me.country) ?? "",
      phone: "",
    },
  });
  // The server may know better than the cart (a product's category changed, a product page not yet
  // loaded): its "address needed" answer shows the fields too.
  const [serverSaysShips, setServerSaysShips] = useState(false);
  const ships = useCartShips(items) || serverSaysShips;
  const { errors, isSubmitting } = form.formState;
  const [country, business, company, taxId] = form.watch(["country", "business", "company", "taxId"]);
  const buyer = {
    country: isCountryCode(country) ? country : null,
    business: business ?? false,
    company: company ?? "",
    taxId: taxId ?? "",
  };

  // Free trials and plans priced by use alone charge nothing today (decision 0029).
  const trialsOnly = items.every((item) => item.trial || item.payAsYouGo);
  // A subscription in the cart renews on a saved method; a free trial may need it to be a card, and a
  // plan priced by use alone always does: its use is charged to it each month.
  const recurring = items.some((item) => item.plan);
  const payAsYouGo = items.some((item) => item.payAsYouGo);
  const needsCard = useTrialNeedsCard(items) || payAsYouGo;
  const [renewError, setRenewError] = useState<string | undefined>();
  const renewSection = useRef<HTMLDivElement>(null);
  const showRenewError = (message: string) => {
    setRenewError(message);
    renewSection.current?.querySelector("select")?.focus();
  };

  const submitBilling = form.handleSubmit(async (values) => {
    setPriceChanges([]);
    setTrialUsed(null);
    setRenewError(undefined);
    // Read as the select shows it: the methods are in the query the select reads.
    const methods = queryClient.getQueryData(paymentMethodsQueryOptions().queryKey)?.methods;
    const savedMethodId = recurring ? renewWithMethod(methods, renewWith, needsCard) : undefined;
    if (needsCard && !savedMethodId) {
      showRenewError(
        payAsYouGo
          ? "Add a card for the charges for use, then place your order."
          : "Add a card to start this free trial, then place your order.",
      );
      return;
    }
    let shippingAddress: ShippingAddressInput | undefined;
    if (ships) {
      if (!(await shippingForm.trigger(undefined, { shouldFocus: true }))) return;
      shippingAddress = shippingForm.getValues();
    }
    const result = await runMutation(
      place.mutateAsync({
        ...values,
        shippingAddress,
        // The prices the buyer sees (a plan's price per period, trial or not); the server refuses the
        // order if any is no longer the current one. A line on a plan names it, and whether it is a trial.
        items: items.map((item) => ({
          productId: item.id,
          quantity: item.quantity,
          price: item.price,
          ...(item.plan ? { planId: item.plan.id } : {}),
          ...(item.trial ? { trial: true } : {}),
        })),
        currency: money.currency.code,
        idempotencyKey,
        ...(savedMethodId ? { savedMethodId } : {}),
      }),
      {
        error: orderFailed,
        on: (error) => {
          switch (error.code) {
            case "SHIPPING_ADDRESS_REQUIRED":
              setServerSaysShips(true);
              return { title: "Shipping address needed", description: SHIPPING_ADDRESS_REQUIRED };
            case "PRODUCT_UNAVAILABLE": {
              const details = productUnavailableDetailsSchema.safeParse(error.details);
              setUnavailable(details.success ? details.data.productIds : []);
              return { title: "Order failed", description: error.message };
            }
            case "PRICE_CHANGED": {
              const priceChanged = priceChangedDetailsSchema.safeParse(error.details);
              if (!priceChanged.success) return undefined;
              // The cart takes the current prices; the notice says what changed and the buyer places it again.
              const { changes } = priceChanged.data;
              cartStore.set(
                setPrices(
                  cartStore.get(),
                  changes.map((change) => ({ id: change.productId, price: change.newPrice })),
                ),
              );
              setPriceChanges(changes);
              return null;
            }
            case "TRIAL_USED": {
              const trialled = trialUsedDetailsSchema.safeParse(error.details);
              if (!trialled.success) return undefined;
              // Those lines are bought at their plan's price; the notice says so and the buyer places it again.
              cartStore.set(dropTrials(cartStore.get(), trialled.data.productIds));
              setTrialUsed(error.message);
              return null;
            }
            case "SEATS_OUT_OF_RANGE":
              return { title: "Change the number of seats", description: error.message };
            case "PLAN_NOT_FOUND":
              return { title: "Plan no longer offered", description: error.message };
            case "TRIAL_NOT_OFFERED":
              return { title: "No free trial on this plan", description: error.message };
            case "TRIAL_NEEDS_CARD":
              // The plan asks for a card now (the seller changed it): only cards are offered from here.
              for (const item of items)
                if (item.trial)
                  void queryClient.invalidateQueries({ queryKey: productQueryOptions(item.id).queryKey });
              showRenewError(error.message);
              return {
                title: payAsYouGo ? "A card is needed" : "Free trial needs a card",
                description: error.message,
              };
            case "PAYMENT_METHOD_NOT_FOUND":
              // Removed meanwhile (another tab): the list as it is now, with the default chosen again.
              onRenewWith(null);
              void queryClient.invalidateQueries({ queryKey: paymentMethodsKey });
              showRenewError(error.message);
              return { title: "Payment method not found", description: error.message };
            case "UNAUTHORIZED":
              return {
                title: "Authentication required",
                description: "Please log in to complete your order.",
              };
            default:
              return undefined;
          }
        },
      },
    );
    if (!result.ok) {
      // The guard sees the lost session and sends the visitor to /login, and back here afterwards.
      if (isApiError(result.error, "UNAUTHORIZED"))
        await queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey });
      return;
    }
    const { redirectUrl } = result.data;
    // The provider's page is another site (or the test page, served fresh): a full navigation. The
    // cart is kept until the return page sees the order confirmed, so a declined payment loses nothing.
    onPlaced(trialsOnly ? "Confirming your order" : "Opening the payment page");
    // Scroll restoration keys a freshly loaded page by the same key: leave at the top, arrive at the top.
    window.scrollTo(0, 0);
    window.location.assign(redirectUrl);
  });
  // Both forms show their problems at once: the shipping fields are checked even when billing is not valid.
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (ships) void shippingForm.trigger();
    return submitBilling(event);
  };

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="Checkout"
      className="mx-auto grid max-w-7xl gap-8 px-4 py-10 sm:px-6 lg:grid-cols-3 lg:items-start"
    >
      <div className="flex min-w-0 flex-col gap-8 lg:col-span-2">
        <Panel title="Billing Information">
          <div className="grid gap-5 sm:grid-cols-2">
            <FormField label="Full name" error={errors.fullName?.message} className="sm:col-span-2">
              <Input autoComplete="name" {...form.register("fullName")} />
            </FormField>
            <FormField label="E-mail" error={errors.email?.message} className="sm:col-span-2">
              <Input type="email" autoComplete="email" {...form.register("email")} />
            </FormField>
            <FormField label="Address" error={errors.address?.message} className="sm:col-span-2">
              <Input autoComplete="street-address" {...form.register("address")} />
            </FormField>
            <FormField label="City" error={errors.city?.message}>
              <Input autoComplete="address-level2" {...form.register("city")} />
            </FormField>
            <FormField label="Country" error={errors.country?.message}>
              <NativeSelect autoComplete="country" {...form.register("country")}>
                <option value="">Select a country</option>
                {countries.map((c) => (
                  <option key={c.code} value={c.code}>
                    {c.name}
                  </option>
                ))}
              </NativeSelect>
            </FormField>
            <BusinessFields
              country={buyer.country}
              business={buyer.business}
              register={form.register}
              errors={{ company: errors.company?.message, taxId: errors.taxId?.message }}
            />
          </div>
        </Panel>
        {ships && (
          <Panel title="Shipping Address">
            <ShippingAddressFields form={shippingForm} />
          </Panel>
        )}
        <PaymentMethods
          error={errors.paymentMethod?.message}
          register={form.register}
          trialsOnly={trialsOnly}
        />
        {recurring && (
          <Panel title="Renewals">
            <div ref={renewSection}>
              <RenewWith
                chosen={renewWith}
                onChoose={(id) => {
                  onRenewWith(id);
                  setRenewError(undefined);
                }}
                needsCard={needsCard}
                error={renewError}
              />
            </div>
          </Panel>
        )}
      </div>
      <OrderSummary
        buyer={buyer}
        items={items}
        unavailable={unavailable}
        priceChanges={priceChanges}
        trialUsed={trialUsed}
        submitting={isSubmitting}
      />
    </form>
  );
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Card asChild className="p-5 sm:p-6">
      <section aria-labelledby={headingId}>
        <h2 id={headingId} className="mb-6 text-lg font-semibold">
          {title}
        </h2>
        {children}
      </section>
    </Card>
  );
}

/** "Buying for a business": the company name and the tax ID its country uses (none outside them). */
function BusinessFields({
  country,
  business,
  register,
  errors,
}: {
  country: string | null;
  business: boolean;
  register: ReturnType<typeof useForm<BillingInput>>["register"];
  errors: { company?: string; taxId?: string };
}) {
  const field = country ? taxIdFieldFor(country) : null;
  return (
    <div className="grid gap-5 sm:col-span-2 sm:grid-cols-2">
      <label className="flex items-center gap-3 text-sm font-medium sm:col-span-2">
        <input type="checkbox" className="size-4 accent-primary" {...register("business")} />
        Buying for a business
      </label>
      {business && (
        <>
          <FormField label="Company name" error={errors.company}>
            <Input autoComplete="organization" {...register("company")} />
          </FormField>
          {field ? (
            <FormField label={field.label} hint={field.hint} error={errors.taxId}>
              <Input autoComplete="off" spellCheck={false} {...register("taxId")} />
            </FormField>
          ) : (
            <p className="self-end text-sm text-muted-foreground" data-testid="no-tax-id">
              {country
                ? `No tax ID is needed for ${countryName(country)}: Stackbay charges no tax there.`
                : "Select your country to see which tax ID applies."}
            </p>
          )}
        </>
      )}
    </div>
  );
}

function PaymentMethods({
  error,
  register,
  trialsOnly,
}: {
  error?: string;
  register: ReturnType<typeof useForm<BillingInput>>["register"];
  /** Every line is a free trial: nothing is paid now, and the method chosen pays the first charges. */
  trialsOnly: boolean;
}) {
  const errorId = useId();
  return (
    <Card asChild className="p-5 sm:p-6">
      <fieldset>
        <legend className="float-left mb-6 w-full text-lg font-semibold">Payment Method</legend>
        <div className="clear-left grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          {paymentMethods.map(({ value, label }) => {
            const Icon = methodIcons[value];
            return (
              <label
                key={value}
                className="flex cursor-pointer items-center gap-3 rounded-md border border-border p-4 text-sm font-medium has-checked:border-primary has-checked:bg-accent has-checked:text-accent-foreground has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-ring"
              >
                <input
                  type="radio"
                  value={value}
                  className="accent-primary"
                  aria-invalid={Boolean(error)}
                  aria-describedby={error ? errorId : undefined}
                  {...register("paymentMethod")}
                />
                <Icon className="size-4 shrink-0" aria-hidden />
                {label}
              </label>
            );
          })}
        </div>
        {error && (
          <p id={errorId} className="mt-3 text-sm text-destructive">
            {error}
          </p>
        )}
        {trialsOnly ? (
          <p className="mt-4 text-xs text-muted-foreground" data-testid="trials-only-note">
            Nothing is charged today: your order has free trials or plans priced by use only, and is confirmed
            as soon as you place it. When each trial ends, its first charge is paid as you choose under
            Renewals; use is charged to your card each month for the month before.
          </p>
        ) : (
          <p className="mt-4 text-xs text-muted-foreground">
            After placing the order you are taken to the payment page to pay; the order is confirmed once the
            payment is. For a bank transfer you get our account details and a reference instead, and the order
            is confirmed once the money arrives.
          </p>
        )}
      </fieldset>
    </Card>
  );
}

/**
 * The summary's tax follows the buyer's country and tax ID at the rates in force; what the order is
 * charged is decided again by the server from the database when it is placed.
 */
function OrderSummary({
  buyer,
  items,
  unavailable,
  priceChanges,
  trialUsed,
  submitting,
}: {
  buyer: { country: string | null; business: boolean; company: string; taxId: string };
  items: CartItem[];
  unavailable: string[];
  priceChanges: PriceChange[];
  trialUsed: string | null;
  submitting: boolean;
}) {
  const money = useMoney();
  const taxFacts = useTaxFacts();
  const taxed = buyer.country ? buyerOf({ ...buyer, country: buyer.country }) : null;
  // A VAT number earns the reverse charge only once its register (VIES, HMRC) confirms it: the server
  // asks, and decides the same way again when the order is placed.
  const vatNumber = taxed?.business?.kind === "VAT" ? taxed.business.taxId : null;
  const vatCheck = useVatCheck(buyer.country, vatNumber);
  const checking = vatNumber !== null && vatCheck.isPending;
  const check =
    vatNumber === null
      ? null
      : (vatCheck.data?.check ?? {
          register: vatRegisterFor(buyer.country ?? ""),
          status: "unavailable" as const,
        });
  const decision = taxed && taxFacts.data && !checking ? decideTax(taxed, taxFacts.data.items, check) : null;
  const totals = computeTotals(
    items.map((item) => ({ price: String(priceNow(item)), quantity: item.quantity })),
    decision?.rate ?? "0",
  );
  const pendingTax = !buyer.country
    ? "Select your country"
    : checking
      ? `Checking your VAT number with ${vatRegisterFor(buyer.country)}…`
      : taxFacts.isError
        ? "Calculated when you place the order"
        : "Loading…";
  return (
    <Card asChild className="p-5 sm:p-6 lg:sticky lg:top-24">
      <section
        aria-labelledby="checkout-summary-heading"
        aria-busy={!money.ready}
        data-testid="checkout-summary"
      >
        <h2 id="checkout-summary-heading" className="text-lg font-semibold">
          Order Summary
        </h2>
        <ul className="mt-4 divide-y divide-border">
          {items.map((item) => (
            <li key={item.id} className="flex justify-between gap-4 py-3 text-sm" data-testid="checkout-line">
              <div className="min-w-0">
                <p className="font-medium break-words">{item.name}</p>
                {item.plan && (
                  <p className="text-muted-foreground break-words" data-testid="checkout-line-plan">
                    {item.plan.name} plan
                  </p>
                )}
                <p className="text-muted-foreground tabular-nums" data-testid="checkout-line-unit">
                  Qty: {item.quantity} ×{" "}
                  <UnitPrice usd={item.price} productName={item.name} unit={item.unit} />
                </p>
                {item.trial && item.plan && <TrialLine trialDays={item.plan.trialDays} />}
                {unavailable.includes(item.id) && (
                  <Badge variant="outline" className="mt-1 border-destructive text-destructive">
                    No longer available
                  </Badge>
                )}
              </div>
              <span className="shrink-0 font-medium tabular-nums">
                <Amount usd={Number(lineTotal(priceNow(item), item.quantity))} />
              </span>
            </li>
          ))}
        </ul>
        <TotalsList
          totals={totals}
          taxLine={decision && { label: taxLineLabel(decision), note: decision.note }}
          pendingTax={pendingTax}
          testId="checkout"
          className="mt-2 border-t border-border pt-4"
        />
        {money.currency.code !== "USD" && (
          <p
            className="mt-4 rounded-md bg-muted p-3 text-xs text-muted-foreground"
            data-testid="currency-note"
          >
            {`Amounts in ${money.currency.name} are approximate. Final charges are processed in USD (${money.usd(Number(totals.total))}).`}
          </p>
        )}
        {priceChanges.length > 0 && <PriceChangeNotice changes={priceChanges} total={totals.total} />}
        {trialUsed && <TrialUsedNotice message={trialUsed} total={totals.total} />}
        <Button type="submit" size="lg" className="mt-6 w-full" disabled={submitting}>
          {submitting ? "Processing..." : "Place Order"}
        </Button>
      </section>
    </Card>
  );
}

/** A free trial's line: nothing today, and when its first period is charged (the day the trial ends). */
function TrialLine({ trialDays }: { trialDays: number }) {
  return (
    <>
      <p
        className="font-medium text-emerald-700 tabular-nums dark:text-emerald-400"
        data-testid="checkout-line-trial"
      >
        Free trial — <Amount usd={0} /> today
      </p>
      <p className="text-xs text-muted-foreground" data-testid="checkout-line-first-charge">
        First charge on {formatDate(trialEndsAt(new Date(), trialDays))}
      </p>
    </>
  );
}
