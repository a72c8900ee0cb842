import { ArrowLeft, Check, Gift, ShoppingCart } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { showsDiscountBadge } from "#domain/catalog";
import { payAsYouGoOf } from "#domain/metering";
import { paths } from "#domain/routes";
import { planUnit } from "#domain/subscriptions";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { useMe } from "#web/features/auth/api/get-me";
import { useCategoryName } from "#web/features/catalog/api/get-categories";
import { useProduct } from "#web/features/catalog/api/get-product";
import { addPlanToCart, PlanFacts, PlanPicker } from "#web/features/catalog/components/plan-picker";
import { addProductToCart } from "#web/features/catalog/components/product-card";
import { ProductImage } from "#web/features/catalog/components/product-image";
import { StarRating } from "#web/features/catalog/components/star-rating";
import { VendorLink } from "#web/features/catalog/components/vendor-link";
import { CompareToggle } from "#web/features/compare/components/compare-toggle";
import { CompareTray } from "#web/features/compare/components/compare-tray";
import { RelatedProducts } from "#web/features/compare/components/related-products";
import { Price } from "#web/features/currency/components/price";
import { useReferralVisit } from "#web/features/referrals/use-referral-visit";
import { SaveButton } from "#web/features/saved/components/save-button";
import { ApiError } from "#web/lib/api";
import { useNearViewport } from "#web/lib/use-near-viewport";
import { cn } from "#web/lib/utils";

const MAX_THUMBNAILS = 4;

// Below the product and its related products, and carrying the form library, zod and the moderation
// dialogs: loaded after the page's first paint so they do not compete with the product's picture.
const ReviewSection = lazy(() =>
  import("#web/features/reviews/components/review-section").then((m) => ({ default: m.ReviewSection })),
);
const QuestionSection = lazy(() =>
  import("#web/features/questions/components/question-section").then((m) => ({
    default: m.QuestionSection,
  })),
);

function BackLink() {
  return (
    <Link
      to={paths.products()}
      className="inline-flex items-center gap-2 text-sm font-medium text-primary hover:underline"
    >
      <ArrowLeft className="size-4" aria-hidden /> Back to Products
    </Link>
  );
}

/** No product came back, or the fetch failed (the spec words both as "not found"; a failed one can retry). */
function NotFoundState({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <section
      className="mx-auto flex max-w-lg flex-col items-center gap-4 px-4 py-24 text-center"
      data-testid="product-not-found"
    >
      <title>Product not found | Stackbay</title>
      <h1 className="text-2xl font-bold">Product not found</h1>
      <p className="text-muted-foreground">{message}</p>
      {onRetry && (
        <Button variant="outline" onClick={onRetry}>
          Try again
        </Button>
      )}
      <BackLink />
    </section>
  );
}

// At least a screen tall: the product that replaces it always is, so the footer stays below the fold
// while loading instead of being pushed down (a layout shift) when the product arrives.
function DetailSkeleton() {
  return (
    <div
      className="mx-auto grid min-h-dvh max-w-7xl content-start gap-x-10 gap-y-6 px-4 py-10 sm:px-6 lg:grid-cols-2"
      role="status"
    >
      <span className="sr-only">Loading product</span>
      <div className="space-y-4 lg:col-start-2">
        <div className="h-6 w-28 animate-pulse rounded bg-muted" />
        <div className="h-10 w-3/4 animate-pulse rounded bg-muted" />
        <div className="h-5 w-1/3 animate-pulse rounded bg-muted" />
        <div className="h-10 w-40 animate-pulse rounded bg-muted" />
        <div className="h-11 w-36 animate-pulse rounded bg-muted" />
      </div>
      <div className="aspect-[4/3] animate-pulse rounded-lg bg-muted lg:col-start-1 lg:row-start-1" />
    </div>
  );
}

export function Component() {
  const { id = "" } = useParams();
  const product = useProduct(id);
  useReferralVisit(id);
  const navigate = useNavigate();
  const me = useMe();
  const [selected, setSelected] = useState(0);
  // The plan chosen of a recurring product's plans: the first (its listed price) to begin with, on the
  // server's page too, and again on another product's page (a related product's link keeps this one).
  const [choice, setChoice] = useState({ productId: id, index: 0 });
  const planIndex = choice.productId === id ? choice.index : 0;
  const [near, belowTheFold] = useNearViewport("400px");
  const category = useCategoryName(product.data?.category ?? "");

  if (product.isPending) return <DetailSkeleton />;
  if (product.isError) {
    // A 404 is "no product came back"; anything else is a failed fetch.
    if (product.error instanceof ApiError && product.error.status === 404) {
      return <NotFoundState message="The product you're looking for doesn't exist." />;
    }
    return (
      <NotFoundState
        message="The product you're looking for doesn't exist or has been removed."
        onRetry={() => void product.refetch()}
      />
    );
  }
  const p = product.data;
  const images = p.images.length > 0 ? p.images : p.imageUrl ? [p.imageUrl] : [];
  const main = images[Math.min(selected, images.length - 1)] ?? null;

  const plan = p.plans[Math.min(planIndex, p.plans.length - 1)] ?? null;
  // The price at the top is the chosen plan's; the listed price (and its discount) is the first plan's.
  const shown = plan
    ? {
        amount: Number(plan.price),
        listed: planIndex === 0,
        original: planIndex === 0 ? p.originalPrice : null,
        unit: planUnit(plan),
        payAsYouGo: payAsYouGoOf(plan),
      }
    : {
        amount: p.price,
        listed: true,
        original: p.originalPrice,
        unit: p.pricingUnit,
        payAsYouGo: p.payAsYouGo,
      };

  // Every product goes through the cart (one checkout for mixed carts), so the button says so and the
  // buyer stays here; the toast's "View cart" goes on. A plan's free trial goes to the cart at once.
  const viewCart = () => navigate(paths.cart());
  const addToCart = () => (plan ? addPlanToCart(p, plan, false, viewCart) : addProductToCart(p, viewCart));
  const startTrial = () => {
    if (!plan) return;
    addPlanToCart(p, plan, true);
    viewCart();
  };

  return (
    <article className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
      <title>{`${p.name} | Stackbay`}</title>
      <BackLink />
      {/*
        What a buyer decides on (name, price, Add to cart) is on the first screen at every width: first in
        the page below 1024 px, where the pictures follow it; beside the pictures above. The description
        comes after the buttons, so a long one never pushes them down.
      */}
      <div className="mt-6 grid gap-x-10 gap-y-6 lg:grid-cols-2 lg:grid-rows-[auto_1fr]">
        <div className="flex flex-col gap-3 lg:col-start-2" data-testid="product-summary">
          <div className="flex flex-wrap gap-2">
            <Badge variant="secondary">{category}</Badge>
            {showsDiscountBadge(p) && shown.listed && <Badge variant="success">{p.discountLabel}</Badge>}
          </div>
          <h1 className="text-2xl font-bold tracking-tight sm:text-4xl">{p.name}</h1>
          <VendorLink vendor={p.vendor} vendorSlug={p.vendorSlug} />
          <StarRating rating={p.rating} reviewsCount={p.reviewsCount} size="md" />
          <Price
            amount={shown.amount}
            originalAmount={shown.original}
            productName={p.name}
            unit={shown.unit}
            payAsYouGo={shown.payAsYouGo}
            size="xl"
          />
          {plan?.meter && (
            <p className="-mt-2 text-sm text-muted-foreground" data-testid="price-meter">
              {shown.payAsYouGo
                ? "No monthly fee: use is charged each month for the month before, on a saved card"
                : "+ use, charged with each monthly renewal for the month before"}
            </p>
          )}
          {p.plans.length > 1 ? (
            <PlanPicker
              plans={p.plans}
              chosen={planIndex}
              onChoose={(index) => setChoice({ productId: id, index })}
            />
          ) : (
            plan && <PlanFacts plan={plan} />
          )}
          <div className="flex flex-wrap gap-3 pt-1">
            <Button size="lg" onClick={addToCart}>
              <ShoppingCart aria-hidden /> Add to cart
            </Button>
            {plan && plan.trialDays > 0 && (
              <Button size="lg" variant="outline" onClick={startTrial} data-testid="start-trial">
                <Gift aria-hidden /> Start {plan.trialDays}-day free trial
              </Button>
            )}
            <SaveButton productId={p.id} signedIn={Boolean(me.data)} hintId="save-hint" />
            <CompareToggle id={p.id} name={p.name} />
          </div>
          {!me.data && (
            <p id="save-hint" className="text-sm text-muted-foreground">
              <Link to={paths.login()} className="font-medium text-primary hover:underline">
                Log in
              </Link>{" "}
              to save products for later.
            </p>
          )}
        </div>

        <div className="lg:col-start-1 lg:row-span-2 lg:row-start-1">
          <ProductImage src={main} alt={p.name} eager className="rounded-lg border border-border" />
          {images.length > 1 && (
            <ul className="mt-4 grid grid-cols-4 gap-3" aria-label="Product pictures">
              {images.slice(0, MAX_THUMBNAILS).map((src, index) => (
                <li key={src}>
                  <button
                    type="button"
                    onClick={() => setSelected(index)}
                    aria-label={`Show picture ${index + 1} of ${Math.min(images.length, MAX_THUMBNAILS)}`}
                    aria-pressed={index === selected}
                    className={cn(
                      "block w-full overflow-hidden rounded-md border-2",
                      index === selected
                        ? "border-primary"
                        : "border-transparent opacity-80 hover:opacity-100",
                    )}
                    data-testid="thumbnail"
                  >
                    <ProductImage src={src} alt="" />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>

        {p.description && (
          <p
            className="leading-relaxed text-muted-foreground lg:col-start-2"
            data-testid="product-description"
          >
            {p.description}
          </p>
        )}
      </div>

      {(p.features.length > 0 || p.specifications.length > 0) && (
        <div className="mt-12 grid gap-8 lg:grid-cols-2">
          {p.features.length > 0 && (
            <Card asChild className="p-6" flat>
              <section aria-labelledby="features-heading">
                <h2 id="features-heading" className="text-xl font-semibold">
                  Key Features
                </h2>
                <ul className="mt-4 space-y-3">
                  {p.features.map((f) => (
                    <li key={f.id} className="flex gap-3">
                      <Check
                        className="mt-0.5 size-5 shrink-0 text-emerald-600 dark:text-emerald-400"
                        aria-hidden
                      />
                      <span>{f.feature}</span>
                    </li>
                  ))}
                </ul>
              </section>
            </Card>
          )}
          {p.specifications.length > 0 && (
            <Card asChild className="p-6" flat>
              <section aria-labelledby="specs-heading">
                <h2 id="specs-heading" className="text-xl font-semibold">
                  Specifications
                </h2>
                <dl className="mt-4 divide-y divide-border">
                  {p.specifications.map((s) => (
                    <div
                      key={s.id}
                      className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)] gap-4 py-3 text-sm"
                    >
                      <dt className="font-medium text-muted-foreground">{s.key}</dt>
                      <dd>{s.value}</dd>
                    </div>
                  ))}
                </dl>
              </section>
            </Card>
          )}
        </div>
      )}

      {/*
        Reviews and questions come before the related products (on a phone those are eight cards, a
        long scroll to get past); their code (forms, dialogs, zod) loads as the visitor gets near.
      */}
      <div ref={belowTheFold}>
        {near ? (
          <Suspense fallback={null}>
            <ReviewSection productId={p.id} rating={p.rating} reviewsCount={p.reviewsCount} />
            <QuestionSection productId={p.id} />
          </Suspense>
        ) : (
          <>
            <div data-testid="reviews" className="mt-12 min-h-40" />
            <div data-testid="questions" className="min-h-40" />
          </>
        )}
      </div>
      <RelatedProducts productId={p.id} />
      <CompareTray />
    </article>
  );
}
