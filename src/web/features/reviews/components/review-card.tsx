import { Activity, BadgeCheck, Flag, Star, Undo2 } from "lucide-react";
import { useState } from "react";
import type { Review } from "#domain/reviews";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { FormField, Textarea } from "#web/components/ui/form-field";
import { HideRestoreDialog } from "#web/components/ui/hide-restore-dialog";
import { useModerateReview } from "#web/features/reviews/api/moderate-review";
import { useReplyToReview } from "#web/features/reviews/api/reply-to-review";
import { useReportReview } from "#web/features/reviews/api/report-review";
import { ReviewForm } from "#web/features/reviews/components/review-form";
import { runMutation } from "#web/lib/mutation";
import { cn } from "#web/lib/utils";

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });
const formatDate = (iso: string) => dateFormat.format(new Date(iso));

function Stars({ rating }: { rating: number }) {
  return (
    <span className="flex" role="img" aria-label={`${rating} out of 5 stars`}>
      {[1, 2, 3, 4, 5].map((i) => (
        <Star
          key={i}
          aria-hidden
          className={cn("size-4", i <= rating ? "fill-amber-400 text-amber-400" : "text-muted-foreground")}
        />
      ))}
    </span>
  );
}

function ReplyForm({ review, productId }: { review: Review; productId: string }) {
  const reply = useReplyToReview(productId);
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  const [error, setError] = useState<string | undefined>();
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (text.trim() === "") {
      setError("Reply is required");
      return;
    }
    setError(undefined);
    const result = await runMutation(reply.mutateAsync({ reviewId: review.id, text }), {
      success: { title: "Reply posted" },
      error: { title: "Your reply could not be posted" },
    });
    if (result.ok) {
      setText("");
      setOpen(false);
    }
  };
  if (!open)
    return (
      <Button size="sm" variant="outline" className="self-start" onClick={() => setOpen(true)}>
        Reply
      </Button>
    );
  return (
    <form
      onSubmit={submit}
      noValidate
      className="mt-3 flex flex-col gap-2"
      aria-label={`Reply to ${review.authorFirstName}`}
    >
      <FormField label="Your public reply" error={error} hint="You can reply once.">
        <Textarea
          rows={2}
          maxLength={2000}
          value={text}
          // Opened by a click on Reply, so the keyboard lands where the reply is typed.
          autoFocus
          onChange={(e) => setText(e.target.value)}
        />
      </FormField>
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={reply.isPending}>
          {reply.isPending ? "Posting..." : "Post reply"}
        </Button>
        <Button
          type="button"
          size="sm"
          variant="outline"
          disabled={reply.isPending}
          onClick={() => setOpen(false)}
        >
          Cancel
        </Button>
      </div>
    </form>
  );
}

function Moderation({ review, productId }: { review: Review; productId: string }) {
  const moderate = useModerateReview(productId);
  return (
    <HideRestoreDialog
      noun="review"
      writer="author"
      published={review.status === "published"}
      subject={`Review "${review.title}" by ${review.authorFirstName}`}
      effect={{
        hide: "It leaves the product page and its rating; the author is e-mailed the reason.",
        restore: "It shows on the product page and counts toward the rating again; the author is e-mailed.",
      }}
      pending={moderate.isPending}
      decide={(action, reason) => moderate.mutateAsync({ reviewId: review.id, action, reason })}
    />
  );
}

/** One review: stars, title, text, who and when, its badges, the seller's reply and what the reader may do. */
export function ReviewCard({
  review,
  productId,
  signedIn,
  isSeller,
  isAdmin,
}: {
  review: Review;
  productId: string;
  signedIn: boolean;
  isSeller: boolean;
  isAdmin: boolean;
}) {
  const report = useReportReview(productId);
  const [editing, setEditing] = useState(false);
  const canEdit =
    review.isMine && review.editableUntil !== null && new Date(review.editableUntil).getTime() > Date.now();

  return (
    <li
      className={cn("flex flex-col gap-2 py-5", review.status === "hidden" && "opacity-80")}
      data-testid="review"
    >
      {review.status === "hidden" && (
        <p className="rounded-md border border-destructive/40 px-3 py-2 text-sm" role="note">
          <span className="font-semibold">Hidden</span>
          {review.hiddenReason ? `: ${review.hiddenReason}` : ""}
        </p>
      )}
      {editing ? (
        <ReviewForm productId={productId} existing={review} onDone={() => setEditing(false)} />
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <Stars rating={review.rating} />
            <h3 className="font-semibold">{review.title}</h3>
          </div>
          <p className="whitespace-pre-line break-words text-sm leading-relaxed">{review.body}</p>
          <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
            <span>
              {review.authorFirstName} ·{" "}
              <time dateTime={review.createdAt}>{formatDate(review.createdAt)}</time>
            </span>
            {review.verifiedPurchase && (
              <Badge variant="success" className="gap-1">
                <BadgeCheck className="size-3.5" aria-hidden /> Verified purchase
              </Badge>
            )}
            {review.refunded && (
              <Badge
                variant="outline"
                className="gap-1 text-muted-foreground"
                title="The purchase was refunded, so this review does not count toward the rating"
              >
                <Undo2 className="size-3.5" aria-hidden /> Refunded purchase
              </Badge>
            )}
            {review.verifiedActiveUse && (
              <Badge
                variant="secondary"
                className="gap-1"
                title="License validated on at least 7 different days"
              >
                <Activity className="size-3.5" aria-hidden /> Verified active use
              </Badge>
            )}
          </div>
        </>
      )}

      {review.sellerReply && (
        <div className="ml-4 border-l-2 border-border pl-4 text-sm" data-testid="seller-reply">
          <p className="font-medium">
            Reply from the seller ·{" "}
            <time dateTime={review.sellerReply.createdAt} className="font-normal text-muted-foreground">
              {formatDate(review.sellerReply.createdAt)}
            </time>
          </p>
          <p className="whitespace-pre-line break-words text-muted-foreground">{review.sellerReply.text}</p>
        </div>
      )}
      {isSeller && !review.sellerReply && review.status === "published" && (
        <ReplyForm review={review} productId={productId} />
      )}

      <div className="flex flex-wrap items-center gap-2">
        {canEdit && !editing && (
          <Button size="sm" variant="outline" onClick={() => setEditing(true)}>
            Edit review
          </Button>
        )}
        {signedIn && !review.isMine && review.status === "published" && (
          <Button
            size="sm"
            variant="ghost"
            disabled={review.reportedByMe || report.isPending}
            aria-label={review.reportedByMe ? "Reported" : `Report review "${review.title}"`}
            onClick={() =>
              runMutation(report.mutateAsync(review.id), {
                success: { title: "Thanks, our team will look at this review" },
                error: { title: "The review could not be reported" },
              })
            }
          >
            <Flag aria-hidden /> {review.reportedByMe ? "Reported" : "Report"}
          </Button>
        )}
        {isAdmin && review.reportsCount !== null && review.reportsCount > 0 && (
          <span className="text-sm text-muted-foreground">
            {review.reportsCount} {review.reportsCount === 1 ? "report" : "reports"}
          </span>
        )}
        {isAdmin && <Moderation review={review} productId={productId} />}
      </div>
    </li>
  );
}
