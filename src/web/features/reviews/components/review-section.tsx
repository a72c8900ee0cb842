import { useState } from "react";
import { Link } from "react-router";
import { paths } from "#domain/routes";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { LoadError } from "#web/components/ui/load-error";
import { StarRating } from "#web/features/catalog/components/star-rating";
import { useReviews } from "#web/features/reviews/api/get-reviews";
import { ReviewCard } from "#web/features/reviews/components/review-card";
import { ReviewForm } from "#web/features/reviews/components/review-form";

function ListSkeleton() {
  return (
    <div role="status" className="space-y-4 py-4">
      <span className="sr-only">Loading reviews</span>
      {[0, 1].map((i) => (
        <div key={i} className="space-y-2">
          <div className="h-4 w-40 animate-pulse rounded bg-muted" />
          <div className="h-4 w-3/4 animate-pulse rounded bg-muted" />
        </div>
      ))}
    </div>
  );
}

/** The product page's reviews: the summary, the visitor's own review or form, and the list with its pages. */
export function ReviewSection({
  productId,
  rating,
  reviewsCount,
}: {
  productId: string;
  rating: number | null;
  reviewsCount: number;
}) {
  const [page, setPage] = useState(1);
  const reviews = useReviews(productId, page);
  const viewer = reviews.data?.viewer;
  const own = viewer?.ownReview ?? null;
  const others = reviews.data?.items.filter((r) => r.id !== own?.id) ?? [];
  const pages = reviews.data ? Math.max(1, Math.ceil(reviews.data.total / reviews.data.pageSize)) : 1;

  return (
    <Card asChild className="mt-12 p-6" flat>
      <section aria-labelledby="reviews-heading" data-testid="reviews">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="reviews-heading" className="text-xl font-semibold">
            Reviews
          </h2>
          <StarRating rating={rating} reviewsCount={reviewsCount} size="md" />
        </div>

        {viewer && (
          <div className="mt-4">
            {!viewer.signedIn && (
              <p className="text-sm text-muted-foreground">
                <Link to={paths.login()} className="font-medium text-primary hover:underline">
                  Log in
                </Link>{" "}
                to review a product you bought.
              </p>
            )}
            {viewer.canReview && (
              <div className="rounded-lg border border-border p-4">
                <h3 className="mb-3 font-semibold">Write a review</h3>
                <ReviewForm productId={productId} />
              </div>
            )}
            {own && (
              <div className="rounded-lg border border-border px-4">
                <h3 className="pt-4 font-semibold">Your review</h3>
                <ul>
                  <ReviewCard
                    review={own}
                    productId={productId}
                    signedIn
                    isSeller={false}
                    isAdmin={viewer.isAdmin}
                  />
                </ul>
              </div>
            )}
            {viewer.signedIn && !viewer.canReview && !own && !viewer.isSeller && (
              <p className="text-sm text-muted-foreground">
                Only buyers who paid for and received this product can review it.
              </p>
            )}
          </div>
        )}

        {reviews.isPending ? (
          <ListSkeleton />
        ) : reviews.isError ? (
          <LoadError
            what="reviews"
            error={reviews.error}
            onRetry={() => reviews.refetch()}
            className="mt-4"
          />
        ) : others.length === 0 && !own ? (
          <p className="mt-4 text-muted-foreground">No reviews yet.</p>
        ) : (
          <ul className="divide-y divide-border" aria-label="Reviews of this product">
            {others.map((review) => (
              <ReviewCard
                key={review.id}
                review={review}
                productId={productId}
                signedIn={viewer?.signedIn ?? false}
                isSeller={viewer?.isSeller ?? false}
                isAdmin={viewer?.isAdmin ?? false}
              />
            ))}
          </ul>
        )}

        {pages > 1 && (
          <nav className="mt-4 flex items-center justify-between gap-3" aria-label="Review pages">
            <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
              Previous
            </Button>
            <span className="text-sm text-muted-foreground">
              Page {page} of {pages}
            </span>
            <Button
              variant="outline"
              size="sm"
              disabled={page >= pages}
              onClick={() => setPage((p) => p + 1)}
            >
              Next
            </Button>
          </nav>
        )}
      </section>
    </Card>
  );
}
