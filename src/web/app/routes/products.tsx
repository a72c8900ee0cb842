import { PackageSearch, Search, SlidersHorizontal } from "lucide-react";
import { lazy, Suspense, useEffect, useState } from "react";
import { Link, useSearchParams } from "react-router";
import {
  lastPageOf,
  listingCountLabel,
  matchesLabel,
  pastTheEnd,
  productFiltersToSearch,
  sortOptions,
} from "#domain/catalog";
import { productListQuery } from "#domain/catalog-schemas";
import { groupThousands } from "#domain/money";
import { queryRecord } from "#domain/page-queries";
import { paths } from "#domain/routes";
import { PageHeader } from "#web/components/layout/page-header";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { Input } from "#web/components/ui/input";
import { LoadError } from "#web/components/ui/load-error";
import { NativeSelect } from "#web/components/ui/select";
import { useCategories } from "#web/features/catalog/api/get-categories";
import {
  type ProductFilters,
  type ProductPage,
  useProductPage,
} from "#web/features/catalog/api/get-products";
import { ProductCard, ProductCardSkeletons } from "#web/features/catalog/components/product-card";
import {
  ActiveFilters,
  FacetPanel,
  facetCount,
  Pagination,
} from "#web/features/catalog/components/product-filters";
import { DidYouMean } from "#web/features/search/components/did-you-mean";
import { HydrateLater } from "#web/lib/hydration";
import { keepScroll } from "#web/lib/scroll-restoration";
import { useDebouncedInput } from "#web/lib/use-debounced";
import { currentParams } from "#web/lib/use-search-state";

// The phone's filter sheet and its dialog library load when it is opened.
const FilterSheet = lazy(() => import("#web/features/catalog/components/filter-sheet"));

const SKELETON_COUNT = 6;

const noFilters: ProductFilters = {
  search: "",
  category: "all",
  discount: false,
  sort: "default",
  vendor: [],
  unit: [],
  minPrice: undefined,
  maxPrice: undefined,
  minRating: undefined,
};

/**
 * The filters and the page live in the URL, so a filtered view can be shared, bookmarked and survives a
 * reload. A changed filter is a new history entry (the back button undoes it) and starts at page 1.
 */
function listingOf(params: URLSearchParams) {
  const parsed = productListQuery.safeParse(queryRecord(params));
  const {
    page,
    pageSize: _pageSize,
    after,
    facets: _facets,
    ...filters
  } = parsed.success
    ? parsed.data
    : { ...noFilters, page: 1, pageSize: undefined, after: undefined, facets: undefined };
  return { filters, at: { page, after } satisfies ProductPage, invalid: !parsed.success };
}

function useListingUrl() {
  const [params, setParams] = useSearchParams();
  const { filters, at, invalid } = listingOf(params);
  // Built on the address as it is now (`currentParams`): a filter ticked right after the search box
  // committed keeps that search.
  const update = (next: Partial<ProductFilters>, options: { replace?: boolean } = {}) =>
    setParams(
      new URLSearchParams(productFiltersToSearch({ ...listingOf(currentParams()).filters, ...next })),
      {
        replace: options.replace ?? false,
        // A ticked box keeps the panel where it is; only a new page scrolls back to the top.
        state: keepScroll,
      },
    );
  return { filters, at, update, invalid };
}

/**
 * The keyset cursors seen in this tab, by filters and page number: a page reached before, or the one
 * after a page on screen, links with its cursor (a seek) instead of a bare page number (an offset).
 */
const seenCursors = new Map<string, string>();
const cursorKey = (filters: ProductFilters, page: number) => `${JSON.stringify(filters)}#${page}`;

export function Component() {
  const { filters, at, update: setFilters, invalid } = useListingUrl();
  // With a search, the featured order is the best match (the server ranks by relevance), so the sort
  // reads "Best match"; without one there is nothing to match, and "Best match" is not offered.
  const searching = filters.search.trim() !== "";
  const shownSort = searching && filters.sort === "default" ? "relevance" : filters.sort;
  const [searchText, setSearchText] = useDebouncedInput(filters.search, (search) =>
    setFilters({ search }, { replace: true }),
  );
  const categories = useCategories();
  const products = useProductPage(filters, at);
  const [sheetOpen, setSheetOpen] = useState(false);

  const data = products.data;
  const items = data?.items ?? [];
  const total = data?.total ?? 0;
  const facets = data?.facets;
  useEffect(() => {
    if (data?.nextCursor) seenCursors.set(cursorKey(filters, data.page + 1), data.nextCursor);
    if (at.after) seenCursors.set(cursorKey(filters, at.page), at.after);
  }, [data, filters, at]);
  const cursorFor = (page: number) =>
    page === at.page + 1 && data?.page === at.page && data.nextCursor
      ? data.nextCursor
      : seenCursors.get(cursorKey(filters, page));
  const lastPage = lastPageOf(total, data?.pageSize ?? 24);
  const categoryCounts = new Map(facets?.categories.map((c) => [c.value, c.count]));
  const activeCount =
    filters.vendor.length +
    filters.unit.length +
    (filters.minPrice || filters.maxPrice ? 1 : 0) +
    (filters.minRating ? 1 : 0);

  const resetFilters = () => {
    setSearchText("");
    setFilters({ ...noFilters, sort: filters.sort });
  };
  const listing = data ? { ...data, shown: items.length } : null;
  // A page past the end (`?page=99` of 3) offers the last page instead of a dead end.
  const pastEnd = listing ? pastTheEnd(listing) : null;

  return (
    <>
      <PageHeader
        compact
        title="Products"
        subtitle="SaaS, APIs, hardware, software licenses and digital services from vendors around the world."
      />
      <div className="mx-auto max-w-7xl px-4 pt-3 pb-6 sm:px-6">
        {/* The search box has a row of its own until the four controls fit beside each other with room to type. */}
        <Card asChild className="grid gap-2 p-2 sm:grid-cols-3 lg:grid-cols-[1fr_12rem_12rem_auto]">
          <search>
            <div className="relative sm:col-span-3 lg:col-span-1">
              <Search
                className="pointer-events-none absolute top-3 left-3 size-4 text-muted-foreground"
                aria-hidden
              />
              <label htmlFor="product-search" className="sr-only">
                Search products
              </label>
              <Input
                id="product-search"
                type="search"
                placeholder="Search products, vendors..."
                className="pl-9"
                maxLength={100}
                value={searchText}
                onChange={(event) => setSearchText(event.target.value)}
              />
            </div>
            <label className="sr-only" htmlFor="product-category">
              Category
            </label>
            <NativeSelect
              id="product-category"
              value={filters.category}
              onChange={(event) => setFilters({ category: event.target.value })}
            >
              <option value="all">All Categories</option>
              {/* Keep a shared link's category selected while the list of categories is still loading. */}
              {filters.category !== "all" && !categories.data?.some((c) => c.slug === filters.category) && (
                <option value={filters.category}>{filters.category}</option>
              )}
              {categories.data?.map((c) => (
                <option key={c.slug} value={c.slug}>
                  {facets
                    ? `${c.name} (${facetCount(categoryCounts.get(c.slug) ?? 0, facets.estimated)})`
                    : c.name}
                </option>
              ))}
            </NativeSelect>
            <label className="sr-only" htmlFor="product-sort">
              Sort by
            </label>
            <NativeSelect
              id="product-sort"
              value={shownSort}
              onChange={(event) => setFilters({ sort: event.target.value as ProductFilters["sort"] })}
            >
              {sortOptions
                .filter((o) => o.value === shownSort || o.value !== (searching ? "default" : "relevance"))
                .map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
            </NativeSelect>
            <Button
              variant={filters.discount ? "default" : "outline"}
              aria-pressed={filters.discount}
              onClick={() => setFilters({ discount: !filters.discount })}
            >
              <SlidersHorizontal aria-hidden />
              {filters.discount ? "All Products" : "Discounts Only"}
              {facets && !filters.discount && (
                <span className="text-xs opacity-80">
                  ({facetCount(facets.discounted, facets.estimated)})
                </span>
              )}
            </Button>
          </search>
        </Card>

        {invalid && (
          <p className="mt-4 text-sm text-destructive" role="alert">
            Some filters in this link were not valid and were left out.
          </p>
        )}

        <div className="mt-3 lg:grid lg:grid-cols-[15rem_minmax(0,1fr)] lg:gap-8">
          <HydrateLater>
            <aside aria-label="Filters" className="hidden lg:block">
              <FacetPanel facets={facets} filters={filters} onChange={setFilters} />
            </aside>
          </HydrateLater>

          <section aria-label="Results" className="min-w-0">
            <div className="flex flex-wrap items-center justify-between gap-2" aria-live="polite">
              <p className="text-sm text-muted-foreground" data-testid="product-count">
                {listing ? listingCountLabel(listing) : "Loading..."}
              </p>
              {filters.discount && (
                <p className="text-sm font-medium text-primary">Showing discounted products only</p>
              )}
              <DidYouMean suggestion={data?.didYouMean} filters={filters} />
              <Button
                variant="outline"
                size="sm"
                className="lg:hidden"
                aria-haspopup="dialog"
                aria-expanded={sheetOpen}
                onClick={() => setSheetOpen(true)}
              >
                <SlidersHorizontal aria-hidden />
                Filters{activeCount > 0 ? ` (${activeCount})` : ""}
              </Button>
              {sheetOpen && (
                <Suspense fallback={null}>
                  <FilterSheet
                    facets={facets}
                    filters={filters}
                    onChange={setFilters}
                    onClose={() => setSheetOpen(false)}
                    showLabel={products.isFetching || !data ? "Loading..." : matchesLabel(data, "Show")}
                  />
                </Suspense>
              )}
            </div>
            <div className="mt-3 empty:hidden">
              <ActiveFilters
                filters={filters}
                categories={categories.data}
                onChange={setFilters}
                onClear={resetFilters}
              />
            </div>

            {products.isError ? (
              <LoadError
                title="Error loading products"
                text="Please try refreshing the page"
                error={products.error}
                onRetry={() => void products.refetch()}
                className="mt-10"
              />
            ) : products.isPending ? (
              <div className="mt-3 grid gap-3 sm:grid-cols-2 md:grid-cols-3 xl:grid-cols-4">
                <ProductCardSkeletons count={SKELETON_COUNT} />
              </div>
            ) : pastEnd !== null ? (
              <div className="mt-10 flex flex-col items-center gap-3 text-center" data-testid="past-the-end">
                <PackageSearch className="size-12 text-muted-foreground" aria-hidden />
                <h2 className="text-xl font-semibold">This page is past the end of the list</h2>
                <p className="text-muted-foreground">
                  These filters match {groupThousands(total)}
                  {data?.totalCapped ? "+" : ""} {total === 1 ? "product" : "products"}, on{" "}
                  {groupThousands(pastEnd)} {pastEnd === 1 ? "page" : "pages"}.
                </p>
                <div className="flex flex-wrap justify-center gap-2">
                  <Button asChild>
                    <Link to={paths.products({ ...filters, page: pastEnd })}>
                      Go to the last page ({groupThousands(pastEnd)})
                    </Link>
                  </Button>
                  <Button asChild variant="outline">
                    <Link to={paths.products(filters)}>Go to the first page</Link>
                  </Button>
                </div>
              </div>
            ) : items.length === 0 ? (
              <div className="mt-10 flex flex-col items-center gap-3 text-center" data-testid="empty-state">
                <PackageSearch className="size-12 text-muted-foreground" aria-hidden />
                <h2 className="text-xl font-semibold">No products found</h2>
                <p className="text-muted-foreground">
                  Try adjusting your search criteria or browse all categories
                </p>
                <Button onClick={resetFilters}>Reset Filters</Button>
              </div>
            ) : (
              <>
                <h2 className="sr-only">Results</h2>
                <div
                  className={`mt-3 grid gap-3 transition-opacity sm:grid-cols-2 md:grid-cols-3 xl:grid-cols-4 ${products.isPlaceholderData ? "opacity-60" : ""}`}
                  aria-busy={products.isPlaceholderData}
                >
                  {items.map((product, index) => (
                    <ProductCard key={product.id} product={product} eager={index < 3} />
                  ))}
                </div>
                <Pagination
                  filters={filters}
                  page={at.page}
                  lastPage={Math.max(lastPage, data?.nextCursor ? at.page + 1 : 1)}
                  lastPageKnown={!data?.totalCapped}
                  cursorFor={cursorFor}
                />
              </>
            )}
          </section>
        </div>
      </div>
    </>
  );
}
