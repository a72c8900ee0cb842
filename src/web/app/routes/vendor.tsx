import { BadgeCheck, CalendarDays, Clock, ExternalLink, MapPin } from "lucide-react";
import { Link, useParams, useSearchParams } from "react-router";
import { hasRole } from "#domain/accounts";
import { countryName } from "#domain/countries";
import { formatDate } from "#domain/dates";
import { paths } from "#domain/routes";
import { storefrontInitials, type VendorPage } from "#domain/storefronts";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { DecisionDialog } from "#web/components/ui/decision-dialog";
import { LoadError } from "#web/components/ui/load-error";
import { useMe } from "#web/features/auth/api/get-me";
import { ProductCard, ProductCardSkeletons } from "#web/features/catalog/components/product-card";
import { StarRating } from "#web/features/catalog/components/star-rating";
import { useSetVerified, useVendorPage } from "#web/features/storefronts/api/storefronts";
import { ApiError } from "#web/lib/api";
import { runMutation } from "#web/lib/mutation";
import { cn } from "#web/lib/utils";

/** `routePatterns.vendor`: a seller's storefront with their public products, a page at a time. */
export function Component() {
  const slug = useParams().slug ?? "";
  const [search, setSearch] = useSearchParams();
  const page = Math.max(1, Number.parseInt(search.get("page") ?? "1", 10) || 1);
  const query = useVendorPage(slug, page);

  if (query.isPending) return <PageSkeleton />;
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.status === 404) return <NotFoundState />;
    return (
      <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
        <LoadError what="storefront" error={query.error} onRetry={() => query.refetch()} />
      </div>
    );
  }
  const vendor = query.data;
  const { total, pageSize } = vendor.products;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const goTo = (next: number) => {
    setSearch(next === 1 ? {} : { page: String(next) });
    window.scrollTo({ top: 0 });
  };
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-8 px-4 py-8 sm:px-6 sm:py-10">
      <title>{`${vendor.name} | Stackbay`}</title>
      <VendorHeader vendor={vendor} />
      <section aria-labelledby="vendor-products" className={cn(query.isFetching && "opacity-70")}>
        <h2 id="vendor-products" className="text-xl font-semibold">
          Products <span className="text-base font-normal text-muted-foreground">({total})</span>
        </h2>
        {total === 0 ? (
          <p className="py-12 text-center text-muted-foreground">
            {vendor.name} has no products on sale right now.
          </p>
        ) : (
          <>
            <div className="mt-4 grid gap-6 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
              {vendor.products.items.map((product) => (
                <ProductCard key={product.id} product={product} />
              ))}
            </div>
            {pages > 1 && (
              <nav aria-label="Pages" className="mt-6 flex items-center justify-between gap-4 text-sm">
                <Button variant="outline" disabled={page <= 1} onClick={() => goTo(page - 1)}>
                  Previous
                </Button>
                <span className="text-muted-foreground">
                  Page {page} of {pages}
                </span>
                <Button variant="outline" disabled={page >= pages} onClick={() => goTo(page + 1)}>
                  Next
                </Button>
              </nav>
            )}
          </>
        )}
      </section>
    </div>
  );
}

function VendorHeader({ vendor }: { vendor: VendorPage }) {
  return (
    <header className="flex flex-col gap-5 rounded-xl border border-border bg-card p-5 sm:flex-row sm:p-6">
      <Logo name={vendor.name} url={vendor.logoUrl} />
      <div className="flex min-w-0 flex-1 flex-col gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="text-2xl font-bold break-words sm:text-3xl">{vendor.name}</h1>
          {vendor.isVerified && (
            <Badge variant="success" className="gap-1" data-testid="verified-vendor">
              <BadgeCheck className="size-3.5" aria-hidden /> Verified vendor
            </Badge>
          )}
        </div>
        {vendor.reviewsCount > 0 ? (
          <StarRating rating={vendor.rating} reviewsCount={vendor.reviewsCount} size="md" />
        ) : (
          <p className="text-sm text-muted-foreground">No reviews yet</p>
        )}
        {vendor.description && (
          <p className="max-w-3xl whitespace-pre-line text-muted-foreground">{vendor.description}</p>
        )}
        <ul className="flex flex-wrap gap-x-5 gap-y-2 text-sm text-muted-foreground">
          {vendor.country && (
            <li className="flex items-center gap-1.5">
              <MapPin className="size-4" aria-hidden /> {countryName(vendor.country)}
            </li>
          )}
          <li className="flex items-center gap-1.5">
            <CalendarDays className="size-4" aria-hidden /> Member since {formatDate(vendor.memberSince)}
          </li>
          {vendor.answerTime && (
            <li className="flex items-center gap-1.5" data-testid="answer-time">
              <Clock className="size-4" aria-hidden /> {vendor.answerTime}
            </li>
          )}
          {vendor.website && (
            <li>
              <a
                href={vendor.website}
                rel="nofollow noopener ugc"
                target="_blank"
                className="flex items-center gap-1.5 font-medium text-primary hover:underline"
              >
                <ExternalLink className="size-4" aria-hidden /> {new URL(vendor.website).host}
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            </li>
          )}
        </ul>
        <AdminVerify vendor={vendor} />
      </div>
    </header>
  );
}

function Logo({ name, url }: { name: string; url: string | null }) {
  const frame = "size-20 shrink-0 rounded-xl sm:size-24";
  if (url)
    return <img src={url} alt={`${name} logo`} className={cn(frame, "border border-border object-cover")} />;
  return (
    <div
      className={cn(frame, "flex items-center justify-center bg-primary/10 text-2xl font-bold text-primary")}
      aria-hidden
      data-testid="vendor-initials"
    >
      {storefrontInitials(name)}
    </div>
  );
}

/** Admins decide the Verified vendor badge here, after a confirmation; the server audits it. */
function AdminVerify({ vendor }: { vendor: VendorPage }) {
  const { data: me } = useMe();
  const setVerified = useSetVerified(vendor.slug);
  if (!me || !hasRole(me.roles, "admin")) return null;
  const verify = !vendor.isVerified;
  return (
    <div className="pt-1">
      <DecisionDialog
        subject={vendor.name}
        triggerVariant="outline"
        confirmVariant={verify ? "default" : "destructive"}
        pending={setVerified.isPending}
        words={
          verify
            ? {
                button: "Mark as verified vendor",
                title: `Mark ${vendor.name} as a verified vendor?`,
                body: "Buyers will see the Verified vendor badge on this storefront. The decision is recorded in the audit log.",
              }
            : {
                button: "Remove verified badge",
                title: `Remove the Verified vendor badge from ${vendor.name}?`,
                body: "The badge disappears from this storefront. The decision is recorded in the audit log.",
              }
        }
        onConfirm={async () =>
          (
            await runMutation(setVerified.mutateAsync(verify), {
              success: { title: verify ? "Vendor verified" : "Verified badge removed" },
              error: { title: "Failed to update the vendor" },
            })
          ).ok
        }
      />
    </div>
  );
}

function NotFoundState() {
  return (
    <section className="mx-auto flex max-w-lg flex-col items-center gap-4 px-4 py-24 text-center">
      <title>Vendor not found | Stackbay</title>
      <h1 className="text-2xl font-bold">Vendor not found</h1>
      <p className="text-muted-foreground">
        This storefront does not exist or has nothing on sale right now.
      </p>
      <Link to={paths.products()} className="text-sm font-medium text-primary hover:underline">
        Browse all products
      </Link>
    </section>
  );
}

function PageSkeleton() {
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-8 px-4 py-8 sm:px-6 sm:py-10" role="status">
      <span className="sr-only">Loading storefront</span>
      <div className="flex gap-5 rounded-xl border border-border p-6">
        <div className="size-20 animate-pulse rounded-xl bg-muted sm:size-24" />
        <div className="flex-1 space-y-3">
          <div className="h-8 w-1/3 animate-pulse rounded bg-muted" />
          <div className="h-4 w-2/3 animate-pulse rounded bg-muted" />
          <div className="h-4 w-1/2 animate-pulse rounded bg-muted" />
        </div>
      </div>
      <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
        <ProductCardSkeletons count={4} />
      </div>
    </div>
  );
}
