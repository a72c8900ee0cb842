import { ShoppingCart } from "lucide-react";
import { Link, useNavigate } from "react-router";
import { showsDiscountBadge } from "#domain/catalog";
import type { ProductCard as Product } from "#domain/catalog-schemas";
import { paths } from "#domain/routes";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { cartActions } from "#web/features/cart/cart-store";
import { useCategoryName } from "#web/features/catalog/api/get-categories";
import { ProductImage } from "#web/features/catalog/components/product-image";
import { StarRating } from "#web/features/catalog/components/star-rating";
import { VendorLink } from "#web/features/catalog/components/vendor-link";
import { Price } from "#web/features/currency/components/price";
import { HydrateLater } from "#web/lib/hydration";

export function addProductToCart(
  product: Pick<Product, "id" | "name" | "price" | "pricingUnit" | "vendor" | "imageUrl"> &
    Partial<Pick<Product, "payAsYouGo">>,
  viewCart: () => void,
) {
  cartActions.add(
    {
      id: product.id,
      name: product.name,
      price: product.price,
      unit: product.pricingUnit,
      payAsYouGo: product.payAsYouGo ?? null,
      vendor: product.vendor,
      image_url: product.imageUrl,
    },
    viewCart,
  );
}

type CardProps = { product: Product; eager?: boolean };

/** A product in a grid. On a page drawn by the server, each card is hydrated on its own, after the page. */
export function ProductCard(props: CardProps) {
  return (
    <HydrateLater>
      <ProductCardBody {...props} />
    </HydrateLater>
  );
}

function ProductCardBody({ product, eager = false }: CardProps) {
  const category = useCategoryName(product.category);
  const navigate = useNavigate();
  return (
    <Card asChild className="group flex flex-col overflow-hidden transition-shadow hover:shadow-md">
      <article data-testid="product-card">
        <Link to={paths.product(product.id)} tabIndex={-1} aria-hidden className="block overflow-hidden">
          <ProductImage
            src={product.imageUrl}
            alt=""
            eager={eager}
            shape="banner"
            className="transition-transform group-hover:scale-[1.02]"
          />
        </Link>
        {/*
          Every block above the price has a fixed height (one badge line, two name lines, one line for the
          vendor and rating), so prices and buttons line up across a row of cards whatever their texts.
        */}
        <div className="flex flex-1 flex-col gap-1 p-3">
          <div className="flex h-6 min-w-0 items-center gap-1.5 overflow-hidden">
            <Badge variant="secondary" className="min-w-0 shrink">
              <span className="truncate" title={category}>
                {category}
              </span>
            </Badge>
            {showsDiscountBadge(product) && (
              <Badge variant="success" className="shrink-0" data-testid="discount-badge">
                {product.discountLabel}
              </Badge>
            )}
          </div>
          <h3 className="line-clamp-2 min-h-[2lh] font-semibold leading-snug">
            <Link to={paths.product(product.id)} className="hover:underline">
              {product.name}
            </Link>
          </h3>
          <div className="flex h-5 min-w-0 items-center justify-between gap-2">
            <VendorLink
              vendor={product.vendor}
              vendorSlug={product.vendorSlug}
              truncate
              className="text-sm leading-5"
            />
            <StarRating rating={product.rating} reviewsCount={product.reviewsCount} compact />
          </div>
          <div className="flex-1">
            <Price
              amount={product.price}
              originalAmount={product.originalPrice}
              productName={product.name}
              unit={product.pricingUnit}
              payAsYouGo={product.payAsYouGo}
              compact
            />
          </div>
          <div className="flex gap-2">
            <Button asChild variant="outline" size="sm" className="flex-1">
              <Link to={paths.product(product.id)}>
                View Details<span className="sr-only"> of {product.name}</span>
              </Link>
            </Button>
            <Button
              size="sm"
              onClick={() => addProductToCart(product, () => navigate(paths.cart()))}
              aria-label={`Add ${product.name} to cart`}
            >
              <ShoppingCart aria-hidden />
            </Button>
          </div>
        </div>
      </article>
    </Card>
  );
}

export function ProductCardSkeleton() {
  return (
    <Card className="overflow-hidden" flat data-testid="product-skeleton" aria-hidden>
      <div className="aspect-[2/1] animate-pulse bg-muted" />
      <div className="space-y-3 p-3">
        <div className="h-4 w-20 animate-pulse rounded bg-muted" />
        <div className="h-5 w-3/4 animate-pulse rounded bg-muted" />
        <div className="h-4 w-1/2 animate-pulse rounded bg-muted" />
        <div className="h-6 w-24 animate-pulse rounded bg-muted" />
      </div>
    </Card>
  );
}

/** Placeholder cards while products load; they are identical, so their position is their identity. */
export function ProductCardSkeletons({ count }: { count: number }) {
  return Array.from({ length: count }, (_, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholders that never reorder
    <ProductCardSkeleton key={i} />
  ));
}
