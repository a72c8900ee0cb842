import { PackageSearch, Search, SlidersHorizontal, TriangleAlert } from "lucide-react";
import { useSearchParams } from "react-router";
import { productFiltersToSearch, sortOptions } from "#domain/catalog";
import { productListQuery } from "#domain/catalog-schemas";
import { PageHeader } from "#web/components/layout/page-header";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { Input } from "#web/components/ui/input";
import { NativeSelect } from "#web/components/ui/select";
import { useCategories } from "#web/features/catalog/api/get-categories";
import { type ProductFilters, useProducts } from "#web/features/catalog/api/get-products";
import { ProductCard, ProductCardSkeletons } from "#web/features/catalog/components/product-card";
import { DidYouMean } from "#web/features/search/components/did-you-mean";
import { useDebouncedInput } from "#web/lib/use-debounced";

const SKELETON_COUNT = 6;

/** The filters live in the URL, so a filtered view can be shared, bookmarked and survives a reload. */
function useFilters(): [ProductFilters, (next: Partial<ProductFilters>) => void] {
  const [params, setParams] = useSearchParams();
  const parsed = productListQuery.safeParse(Object.fromEntries(params));
  const filters: ProductFilters = parsed.success
    ? parsed.data
    : { search: "", category: "all", discount: false, sort: "default" };
  const update = (next: Partial<ProductFilters>) =>
    setParams(new URLSearchParams(productFiltersToSearch({ ...filters, ...next })), { replace: true });
  return [filters, update];
}

export function Component() {
  const [filters, setFilters] = useFilters();
  const [searchText, setSearchText] = useDebouncedInput(filters.search, (search) => setFilters({ search }));
  const categories = useCategories();
  const products = useProducts(filters);

  const items = products.data?.pages.flatMap((page) => page.items) ?? [];
  const total = products.data?.pages[0]?.total ?? 0;
  const resetFilters = () => {
    setSearchText("");
    setFilters({ search: "", category: "all", discount: false });
  };

  return (
    <>
      <PageHeader
        title="Products"
        subtitle="SaaS, APIs, hardware, software licences and digital services from verified vendors."
      />
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        <Card asChild className="grid gap-3 p-4 md:grid-cols-[1fr_220px_220px_auto]">
          <search>
            <div className="relative">
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
                  {c.name}
                </option>
              ))}
            </NativeSelect>
            <label className="sr-only" htmlFor="product-sort">
              Sort by
            </label>
            <NativeSelect
              id="product-sort"
              value={filters.sort}
              onChange={(event) => setFilters({ sort: event.target.value as ProductFilters["sort"] })}
            >
              {sortOptions.map((o) => (
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
            </Button>
          </search>
        </Card>

        <div className="mt-6 flex flex-wrap items-center justify-between gap-2" aria-live="polite">
          <p className="text-sm text-muted-foreground" data-testid="product-count">
            {products.isPending ? "Loading..." : `Showing ${total} ${total === 1 ? "product" : "products"}`}
          </p>
          {filters.discount && (
            <p className="text-sm font-medium text-primary">Showing discounted products only</p>
          )}
          <DidYouMean suggestion={products.data?.pages[0]?.didYouMean} filters={filters} />
        </div>

        {products.isError ? (
          <div className="mt-10 flex flex-col items-center gap-3 text-center" role="alert">
            <TriangleAlert className="size-10 text-destructive" aria-hidden />
            <h2 className="text-xl font-semibold">Error loading products</h2>
            <p className="text-muted-foreground">Please try refreshing the page</p>
            <Button variant="outline" onClick={() => products.refetch()}>
              Try again
            </Button>
          </div>
        ) : products.isPending ? (
          <div className="mt-4 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            <ProductCardSkeletons count={SKELETON_COUNT} />
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
            <div className="mt-4 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {items.map((product, index) => (
                <ProductCard key={product.id} product={product} eager={index < 3} />
              ))}
            </div>
            {products.hasNextPage && (
              <div className="mt-10 flex justify-center">
                <Button
                  variant="outline"
                  size="lg"
                  onClick={() => products.fetchNextPage()}
                  disabled={products.isFetchingNextPage}
                >
                  {products.isFetchingNextPage ? "Loading..." : `Load more (${total - items.length} left)`}
                </Button>
              </div>
            )}
          </>
        )}
      </div>
    </>
  );
}
