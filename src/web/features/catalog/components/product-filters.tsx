import { ChevronLeft, ChevronRight, Star, X } from "lucide-react";
import { type FormEvent, useEffect, useId, useState } from "react";
import { Link } from "react-router";
import { MAX_FACET_CHOICES } from "#domain/catalog";
import type { Category, ProductFacets } from "#domain/catalog-schemas";
import { formatUnitPrice, groupThousands } from "#domain/money";
import { type PricingUnit, pricingUnitLabels } from "#domain/pricing-units";
import { paths } from "#domain/routes";
import { Button } from "#web/components/ui/button";
import { Input } from "#web/components/ui/input";
import type { ProductFilters } from "#web/features/catalog/api/get-products";
import { cn } from "#web/lib/utils";

type Change = (next: Partial<ProductFilters>) => void;

const toggle = <T,>(list: T[], value: T) =>
  list.includes(value) ? list.filter((item) => item !== value) : [...list, value];

/**
 * A facet count as shown: exact, or, when the server estimated the counts from a sample (a search with
 * very many matches, decision 0017), rounded to two significant figures and read as "about 27,000".
 */
export function facetCount(count: number, estimated: boolean) {
  if (!estimated || count === 0) return groupThousands(count);
  const step = 10 ** Math.max(0, Math.floor(Math.log10(count)) - 1);
  return `about ${groupThousands(Math.round(count / step) * step)}`;
}

function FacetGroup({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <fieldset className="grid gap-2 border-t border-border pt-4 first:border-t-0 first:pt-0">
      <legend className="mb-2 text-sm font-semibold">{title}</legend>
      {children}
    </fieldset>
  );
}

function Choice({
  type,
  name,
  label,
  count,
  estimated = false,
  checked,
  onChange,
}: {
  type: "checkbox" | "radio";
  name: string;
  label: React.ReactNode;
  count?: number;
  estimated?: boolean;
  checked: boolean;
  onChange: () => void;
}) {
  return (
    <label className="flex min-h-8 cursor-pointer items-center gap-2 text-sm">
      <input
        type={type}
        name={name}
        className="size-4 shrink-0 accent-primary"
        checked={checked}
        onChange={onChange}
      />
      <span className="min-w-0 flex-1 truncate">{label}</span>
      {count !== undefined && (
        <span className="text-xs text-muted-foreground tabular-nums">{facetCount(count, estimated)}</span>
      )}
    </label>
  );
}

/**
 * Bars of how many matches fall in each price band (every filter but price applied); bands inside the
 * chosen range are drawn in the primary colour. Plain CSS bars: no chart library for twelve rectangles.
 * The bands widen with the price (see `priceHistogram`), so $0.004 calls and $5,000 servers both show.
 */
function PriceHistogram({
  price,
  estimated,
  minPrice,
  maxPrice,
}: {
  price: ProductFacets["price"];
  estimated: boolean;
  minPrice?: string;
  maxPrice?: string;
}) {
  const highest = Math.max(1, ...price.buckets.map((bucket) => bucket.count));
  const low = minPrice === undefined ? -Infinity : Number(minPrice);
  const high = maxPrice === undefined ? Infinity : Number(maxPrice);
  if (price.buckets.length === 0) return null;
  return (
    <div aria-hidden className="flex h-12 items-end gap-px" data-testid="price-histogram">
      {price.buckets.map((bucket) => (
        <div
          key={bucket.from}
          title={`${formatUnitPrice(bucket.from)}–${formatUnitPrice(bucket.to)}: ${facetCount(bucket.count, estimated)}`}
          className={cn(
            "flex-1 rounded-t-sm",
            bucket.to >= low && bucket.from <= high ? "bg-primary" : "bg-muted-foreground/30",
          )}
          style={{ height: `${bucket.count === 0 ? 0 : Math.max(6, (bucket.count / highest) * 100)}%` }}
        />
      ))}
    </div>
  );
}

function PriceRange({
  filters,
  price,
  estimated,
  onChange,
}: {
  filters: ProductFilters;
  price: ProductFacets["price"];
  estimated: boolean;
  onChange: Change;
}) {
  const id = useId();
  const [min, setMin] = useState(filters.minPrice ?? "");
  const [max, setMax] = useState(filters.maxPrice ?? "");
  // Follow the URL when it changes elsewhere (a chip removed, back button, Clear all).
  useEffect(() => setMin(filters.minPrice ?? ""), [filters.minPrice]);
  useEffect(() => setMax(filters.maxPrice ?? ""), [filters.maxPrice]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange({ minPrice: min.trim() || undefined, maxPrice: max.trim() || undefined });
  };
  return (
    <form className="grid gap-2" onSubmit={submit} noValidate>
      <PriceHistogram
        price={price}
        estimated={estimated}
        minPrice={filters.minPrice}
        maxPrice={filters.maxPrice}
      />
      {price.min !== null && price.max !== null && (
        <p className="flex justify-between text-xs text-muted-foreground">
          <span>{formatUnitPrice(price.min)}</span>
          <span>{formatUnitPrice(price.max)}</span>
        </p>
      )}
      <div className="grid grid-cols-[1fr_1fr_auto] items-end gap-2">
        <div className="grid gap-1">
          <label htmlFor={`${id}-min`} className="text-xs text-muted-foreground">
            Min
            <span className="sr-only"> price</span> (USD)
          </label>
          <Input
            id={`${id}-min`}
            inputMode="decimal"
            className="h-9"
            placeholder="0"
            value={min}
            onChange={(event) => setMin(event.target.value)}
          />
        </div>
        <div className="grid gap-1">
          <label htmlFor={`${id}-max`} className="text-xs text-muted-foreground">
            Max
            <span className="sr-only"> price</span> (USD)
          </label>
          <Input
            id={`${id}-max`}
            inputMode="decimal"
            className="h-9"
            placeholder="Any"
            value={max}
            onChange={(event) => setMax(event.target.value)}
          />
        </div>
        <Button type="submit" variant="outline" size="sm" className="h-9">
          Apply
        </Button>
      </div>
    </form>
  );
}

/** The filters with their counts; the same panel sits beside the grid on desktop and in a sheet on phones. */
export function FacetPanel({
  facets,
  filters,
  onChange,
}: {
  facets: ProductFacets | null | undefined;
  filters: ProductFilters;
  onChange: Change;
}) {
  const name = useId();
  const [allVendors, setAllVendors] = useState(false);
  if (!facets) {
    return (
      <div className="grid gap-3" aria-hidden>
        {Array.from({ length: 4 }, (_, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have nothing else to tell them apart
          <div key={index} className="h-24 animate-pulse rounded-md bg-muted" />
        ))}
      </div>
    );
  }
  const vendors = facets.vendors;
  // A chosen vendor the current search no longer matches stays listed, so it can be unticked.
  const missingVendors = filters.vendor.filter((vendor) => !vendors.some((v) => v.value === vendor));
  const estimated = facets.estimated;
  return (
    <div className="grid gap-4">
      {estimated && (
        <p className="text-xs text-muted-foreground">
          Counts are estimated: this search has very many matches.
        </p>
      )}
      <FacetGroup title="Price">
        <PriceRange filters={filters} price={facets.price} estimated={estimated} onChange={onChange} />
      </FacetGroup>
      <FacetGroup title="Rating">
        <Choice
          type="radio"
          name={`${name}-rating`}
          label="Any rating"
          checked={filters.minRating === undefined}
          onChange={() => onChange({ minRating: undefined })}
        />
        {facets.ratings.map((rating) => (
          <Choice
            key={rating.value}
            type="radio"
            name={`${name}-rating`}
            label={
              <span className="inline-flex items-center gap-1">
                {rating.value}
                <Star className="size-3.5 fill-amber-400 text-amber-400" aria-hidden />& up
              </span>
            }
            count={rating.count}
            estimated={estimated}
            checked={filters.minRating === rating.value}
            onChange={() => onChange({ minRating: rating.value })}
          />
        ))}
      </FacetGroup>
      {(vendors.length > 0 || missingVendors.length > 0) && (
        <FacetGroup title="Vendor">
          {(allVendors ? vendors : vendors.slice(0, MAX_FACET_CHOICES)).map((vendor) => (
            <Choice
              key={vendor.value}
              type="checkbox"
              name={`${name}-vendor`}
              label={vendor.value}
              count={vendor.count}
              estimated={estimated}
              checked={filters.vendor.includes(vendor.value)}
              onChange={() => onChange({ vendor: toggle(filters.vendor, vendor.value) })}
            />
          ))}
          {missingVendors.map((vendor) => (
            <Choice
              key={vendor}
              type="checkbox"
              name={`${name}-vendor`}
              label={vendor}
              count={0}
              checked
              onChange={() => onChange({ vendor: toggle(filters.vendor, vendor) })}
            />
          ))}
          {vendors.length > MAX_FACET_CHOICES && (
            <>
              {allVendors && facets.vendorsTotal > vendors.length && (
                <p className="text-xs text-muted-foreground">
                  The {groupThousands(vendors.length)} vendors with the most matches; search to find the other{" "}
                  {groupThousands(facets.vendorsTotal - vendors.length)}.
                </p>
              )}
              <Button
                type="button"
                variant="link"
                size="sm"
                className="h-8 justify-self-start px-0"
                aria-expanded={allVendors}
                onClick={() => setAllVendors(!allVendors)}
              >
                {allVendors ? "Show fewer" : `Show all vendors (${groupThousands(facets.vendorsTotal)})`}
              </Button>
            </>
          )}
        </FacetGroup>
      )}
      {facets.units.length > 0 && (
        <FacetGroup title="Pricing">
          {facets.units.map((unit) => (
            <Choice
              key={unit.value}
              type="checkbox"
              name={`${name}-unit`}
              label={pricingUnitLabels[unit.value]}
              count={unit.count}
              estimated={estimated}
              checked={filters.unit.includes(unit.value)}
              onChange={() => onChange({ unit: toggle<PricingUnit>(filters.unit, unit.value) })}
            />
          ))}
        </FacetGroup>
      )}
    </div>
  );
}

/** The active filters as removable chips, with one button to clear them all. */
export function ActiveFilters({
  filters,
  categories,
  onChange,
  onClear,
}: {
  filters: ProductFilters;
  categories: Category[] | undefined;
  onChange: Change;
  onClear: () => void;
}) {
  const chips: { key: string; label: string; remove: Partial<ProductFilters> }[] = [];
  if (filters.search) chips.push({ key: "search", label: `“${filters.search}”`, remove: { search: "" } });
  if (filters.category !== "all") {
    const name = categories?.find((c) => c.slug === filters.category)?.name ?? filters.category;
    chips.push({ key: "category", label: name, remove: { category: "all" } });
  }
  if (filters.discount) chips.push({ key: "discount", label: "Discounted", remove: { discount: false } });
  if (filters.minPrice || filters.maxPrice) {
    const label =
      filters.minPrice && filters.maxPrice
        ? `${formatUnitPrice(filters.minPrice)}–${formatUnitPrice(filters.maxPrice)}`
        : filters.minPrice
          ? `From ${formatUnitPrice(filters.minPrice)}`
          : `Up to ${formatUnitPrice(filters.maxPrice ?? 0)}`;
    chips.push({ key: "price", label, remove: { minPrice: undefined, maxPrice: undefined } });
  }
  if (filters.minRating) {
    chips.push({ key: "rating", label: `${filters.minRating}★ & up`, remove: { minRating: undefined } });
  }
  for (const vendor of filters.vendor) {
    chips.push({
      key: `vendor-${vendor}`,
      label: vendor,
      remove: { vendor: filters.vendor.filter((v) => v !== vendor) },
    });
  }
  for (const unit of filters.unit) {
    chips.push({
      key: `unit-${unit}`,
      label: pricingUnitLabels[unit],
      remove: { unit: filters.unit.filter((u) => u !== unit) },
    });
  }
  if (chips.length === 0) return null;
  return (
    <ul className="flex flex-wrap items-center gap-2" aria-label="Active filters">
      {chips.map((chip) => (
        <li key={chip.key}>
          <button
            type="button"
            className="inline-flex max-w-64 items-center gap-1 rounded-full border border-border bg-secondary px-3 py-1 text-xs font-medium text-secondary-foreground hover:bg-secondary/70 focus-visible:outline-2 focus-visible:outline-ring"
            onClick={() => onChange(chip.remove)}
            aria-label={`Remove filter ${chip.label}`}
          >
            <span className="truncate">{chip.label}</span>
            <X className="size-3.5 shrink-0" aria-hidden />
          </button>
        </li>
      ))}
      <li>
        <Button variant="ghost" size="sm" onClick={onClear}>
          Clear all
        </Button>
      </li>
    </ul>
  );
}

/** Page numbers to show around the current one: 1 … 4 5 6 … 20. */
function pageWindow(current: number, last: number): (number | "gap")[] {
  const pages = new Set([1, last, current - 1, current, current + 1].filter((p) => p >= 1 && p <= last));
  const sorted = [...pages].sort((a, b) => a - b);
  const out: (number | "gap")[] = [];
  for (const [index, page] of sorted.entries()) {
    const before = sorted[index - 1];
    if (before !== undefined && page - before > 1) out.push("gap");
    out.push(page);
  }
  return out;
}

/**
 * Numbered pages as links (shareable, back button, open in a new tab). A page whose cursor is known
 * (the next one, or any seen before) links with it, so it is a keyset seek; others fall back to the
 * page number, which the server still answers cheaply.
 */
export function Pagination({
  filters,
  page,
  lastPage,
  lastPageKnown,
  cursorFor,
}: {
  filters: ProductFilters;
  page: number;
  lastPage: number;
  lastPageKnown: boolean;
  cursorFor: (page: number) => string | undefined;
}) {
  if (lastPage <= 1) return null;
  const to = (target: number) => paths.products({ ...filters, page: target, after: cursorFor(target) });
  const linkClass =
    "inline-flex h-9 min-w-9 items-center justify-center rounded-md border border-border px-2 text-sm hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring";
  return (
    <nav aria-label="Pagination" className="mt-8 flex flex-wrap items-center justify-center gap-1">
      {page > 1 ? (
        <Link to={to(page - 1)} className={linkClass} rel="prev">
          <ChevronLeft className="size-4" aria-hidden />
          <span className="max-sm:sr-only">Previous</span>
        </Link>
      ) : null}
      {pageWindow(page, lastPage).map((item, index) =>
        item === "gap" ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: at most two gaps, told apart by position
          <span key={`gap-${index}`} className="px-1 text-muted-foreground" aria-hidden>
            …
          </span>
        ) : item === page ? (
          <span
            key={item}
            aria-current="page"
            className={cn(linkClass, "border-primary bg-primary text-primary-foreground hover:bg-primary")}
          >
            {groupThousands(item)}
          </span>
        ) : (
          <Link key={item} to={to(item)} className={linkClass} aria-label={`Page ${item}`}>
            {groupThousands(item)}
            {item === lastPage && !lastPageKnown ? "+" : ""}
          </Link>
        ),
      )}
      {page < lastPage ? (
        <Link to={to(page + 1)} className={linkClass} rel="next">
          <span className="max-sm:sr-only">Next</span>
          <ChevronRight className="size-4" aria-hidden />
        </Link>
      ) : null}
    </nav>
  );
}
