import { Star } from "lucide-react";
import { groupThousands } from "#domain/money";
import { cn } from "#web/lib/utils";

/**
 * Five stars, filled up to the floored rating, with the number and review count beside them; `compact`
 * (product cards) is one star, the number and the count.
 */
export function StarRating({
  rating,
  reviewsCount,
  size = "sm",
  compact = false,
}: {
  rating: number | null;
  reviewsCount: number;
  size?: "sm" | "md";
  compact?: boolean;
}) {
  if (rating === null) return null;
  if (compact) {
    return (
      <span className="flex shrink-0 items-center gap-1 text-xs" data-testid="rating">
        <Star className="size-3.5 fill-amber-400 text-amber-400" aria-hidden />
        <span className="font-medium">
          <span className="sr-only">Rated </span>
          {rating.toFixed(1)}
          <span className="sr-only"> out of 5</span>
        </span>
        <span className="text-muted-foreground">
          ({groupThousands(reviewsCount)}
          <span className="sr-only"> {reviewsCount === 1 ? "review" : "reviews"}</span>)
        </span>
      </span>
    );
  }
  const filled = Math.floor(rating);
  const icon = size === "sm" ? "size-3.5" : "size-5";
  return (
    <div className="flex items-center gap-1.5" data-testid="rating">
      <span className="flex" role="img" aria-label={`Rated ${rating.toFixed(1)} out of 5`}>
        {[1, 2, 3, 4, 5].map((n) => (
          <Star
            key={n}
            className={cn(icon, n <= filled ? "fill-amber-400 text-amber-400" : "text-muted-foreground/40")}
            aria-hidden
          />
        ))}
      </span>
      <span className={cn("font-medium", size === "sm" ? "text-xs" : "text-sm")}>{rating.toFixed(1)}</span>
      <span className={cn("text-muted-foreground", size === "sm" ? "text-xs" : "text-sm")}>
        ({groupThousands(reviewsCount)} {reviewsCount === 1 ? "review" : "reviews"})
      </span>
    </div>
  );
}
