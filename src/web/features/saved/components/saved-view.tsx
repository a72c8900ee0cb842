import { Heart, PackageX, X } from "lucide-react";
import { Link } from "react-router";
import { formatDate } from "#domain/dates";
import { paths } from "#domain/routes";
import { ViewCard } from "#web/components/layout/view-card";
import { Button } from "#web/components/ui/button";
import { LoadError } from "#web/components/ui/load-error";
import { ProductCard, ProductCardSkeletons } from "#web/features/catalog/components/product-card";
import { useSavedProducts } from "#web/features/saved/api/get-saved-products";
import { useSavedActions } from "#web/features/saved/use-saved-actions";

const SKELETON_COUNT = 3;

/** A saved product that left the marketplace: named, but neither linked nor buyable. */
function UnavailableCard({ name }: { name: string }) {
  return (
    <div
      className="flex min-h-40 flex-1 flex-col items-center justify-center gap-2 rounded-lg border border-dashed border-border p-4 text-center"
      data-testid="saved-unavailable"
    >
      <PackageX className="size-8 text-muted-foreground" aria-hidden />
      <p className="font-medium break-words">{name}</p>
      <p className="text-sm text-muted-foreground">No longer available</p>
    </div>
  );
}

/** Dashboard › Saved: the products the user saved, newest first, each removable. */
export function SavedView() {
  const saved = useSavedProducts();
  const { remove, removing } = useSavedActions();

  return (
    <ViewCard title="Saved Products" description="Products you saved to come back to.">
      {saved.isError ? (
        <LoadError
          title="Failed to load saved items"
          text="Please try again in a moment."
          error={saved.error}
          onRetry={() => void saved.refetch()}
        />
      ) : saved.isPending ? (
        <div className="grid gap-6 sm:grid-cols-2 xl:grid-cols-3" role="status">
          <span className="sr-only">Loading saved products</span>
          <ProductCardSkeletons count={SKELETON_COUNT} />
        </div>
      ) : saved.data.length === 0 ? (
        <div
          className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-border px-4 py-12 text-center"
          data-testid="saved-empty"
        >
          <Heart className="size-10 text-muted-foreground" aria-hidden />
          <h3 className="text-lg font-semibold">No saved items yet</h3>
          <p className="max-w-sm text-sm text-muted-foreground">
            Save products you like while browsing and they will wait for you here.
          </p>
          <Button asChild className="mt-2">
            <Link to={paths.products()}>Browse Products</Link>
          </Button>
        </div>
      ) : (
        <ul className="grid gap-6 sm:grid-cols-2 xl:grid-cols-3" aria-label="Saved products">
          {saved.data.map(({ savedAt, available, product }) => (
            <li key={product.id} className="flex flex-col gap-2" data-testid="saved-item">
              {available ? <ProductCard product={product} /> : <UnavailableCard name={product.name} />}
              <div className="flex items-center justify-between gap-2">
                <p className="text-xs text-muted-foreground">
                  Saved <time dateTime={savedAt}>{formatDate(savedAt)}</time>
                </p>
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => remove(product.id)}
                  disabled={removing === product.id}
                  aria-label={`Remove ${product.name} from saved items`}
                >
                  <X aria-hidden /> Remove
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </ViewCard>
  );
}
