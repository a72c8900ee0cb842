import { useQueries } from "@tanstack/react-query";
import type { UseFormReturn } from "react-hook-form";
import type { CartItem } from "#domain/cart";
import { countries } from "#domain/countries";
import { isPhysicalCategory, type ShippingAddressInput } from "#domain/shipping";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { NativeSelect } from "#web/components/ui/select";
import { productQueryOptions } from "#web/features/catalog/api/get-product";

/**
 * Whether the cart holds goods that ship, from each product's category (the product pages' cached
 * answers). The server decides again from the database when the order is placed.
 */
export function useCartShips(items: CartItem[]): boolean {
  const products = useQueries({
    queries: items.map((item) => ({ ...productQueryOptions(item.id), staleTime: 5 * 60_000 })),
  });
  return products.some((product) => isPhysicalCategory(product.data?.category));
}

/** The shipping address of a cart with physical items. */
export function ShippingAddressFields({ form }: { form: UseFormReturn<ShippingAddressInput> }) {
  const { errors } = form.formState;
  return (
    <div className="grid gap-5 sm:grid-cols-2" data-testid="shipping-address">
      <p className="text-sm text-muted-foreground sm:col-span-2">
        Your cart holds hardware. Tell us where to send it; the seller ships it and you confirm delivery on
        your order page.
      </p>
      <FormField label="Recipient name" error={errors.fullName?.message} className="sm:col-span-2">
        <Input autoComplete="shipping name" {...form.register("fullName")} />
      </FormField>
      <FormField label="Street address" error={errors.line1?.message} className="sm:col-span-2">
        <Input autoComplete="shipping address-line1" {...form.register("line1")} />
      </FormField>
      <FormField
        label="Apartment, suite, floor (optional)"
        error={errors.line2?.message}
        className="sm:col-span-2"
      >
        <Input autoComplete="shipping address-line2" {...form.register("line2")} />
      </FormField>
      <FormField label="City" error={errors.city?.message}>
        <Input autoComplete="shipping address-level2" {...form.register("city")} />
      </FormField>
      <FormField label="Postal code" error={errors.postalCode?.message}>
        <Input autoComplete="shipping postal-code" {...form.register("postalCode")} />
      </FormField>
      <FormField label="Country" error={errors.country?.message}>
        <NativeSelect autoComplete="shipping country" {...form.register("country")}>
          <option value="">Select a country</option>
          {countries.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <FormField
        label="Phone"
        hint="For the carrier, if they need to reach you"
        error={errors.phone?.message}
      >
        <Input type="tel" autoComplete="shipping tel" {...form.register("phone")} />
      </FormField>
    </div>
  );
}
