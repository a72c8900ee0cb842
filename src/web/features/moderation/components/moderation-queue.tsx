import { Package } from "lucide-react";
import { Link } from "react-router";
import { formatDate } from "#domain/dates";
import { type ModerationQueueItem, REJECT_REASON_MIN } from "#domain/moderation";
import { formatUnitPrice } from "#domain/money";
import { paths } from "#domain/routes";
import { PagedList } from "#web/components/layout/paged-list";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { DecisionDialog } from "#web/components/ui/decision-dialog";
import { useDecideListing } from "#web/features/moderation/api/decide-listing";
import { useModerationQueue } from "#web/features/moderation/api/get-moderation-queue";
import { useTrustSeller } from "#web/features/users/api/trust-seller";
import { runMutation } from "#web/lib/mutation";

/**
 * Listings waiting for review, as cards that stack on a phone: what the seller wrote, and Approve or
 * Reject (with a reason the seller reads and is e-mailed). Edit opens the admin's product form.
 */
export function ModerationQueue({ page, onPage }: { page: number; onPage: (page: number) => void }) {
  return (
    <PagedList
      query={useModerationQueue(page)}
      what="listings waiting for review"
      empty="No listings are waiting for review. New listings by sellers who are not trusted appear here."
      onPage={onPage}
    >
      {(items) => (
        <ul
          className="flex flex-col gap-4"
          aria-label="Listings waiting for review"
          data-testid="moderation-queue"
        >
          {items.map((item) => (
            <li key={item.id}>
              <QueueCard item={item} />
            </li>
          ))}
        </ul>
      )}
    </PagedList>
  );
}

function QueueCard({ item }: { item: ModerationQueueItem }) {
  const { approve, reject } = useDecideListing();
  const trust = useTrustSeller();
  const pending = approve.isPending || reject.isPending || trust.isPending;
  const sellerId = item.sellerId;
  const sellerName = item.sellerName ?? "this seller";
  return (
    <Card className="flex flex-col gap-4 p-4 sm:flex-row" data-testid="moderation-item">
      {item.imageUrl ? (
        <img
          src={item.imageUrl}
          alt=""
          width={96}
          height={96}
          loading="lazy"
          className="size-24 shrink-0 rounded-md bg-muted object-cover"
        />
      ) : (
        <div className="flex size-24 shrink-0 items-center justify-center rounded-md bg-muted text-muted-foreground">
          <Package className="size-6" aria-hidden />
        </div>
      )}
      <div className="min-w-0 flex-1">
        <h2 className="text-lg font-semibold break-words">{item.name}</h2>
        <p className="text-sm text-muted-foreground">
          {item.vendor ?? "No vendor"} · {item.categoryName ?? item.category} · {formatUnitPrice(item.price)}
        </p>
        <p className="text-sm text-muted-foreground">
          Seller: {item.sellerName ?? "deleted account"} · submitted{" "}
          <time dateTime={item.submittedAt}>{formatDate(item.submittedAt)}</time>
        </p>
        {item.description && <p className="mt-2 line-clamp-4 text-sm break-words">{item.description}</p>}
      </div>
      <div className="flex flex-wrap items-start gap-2 sm:flex-col sm:items-stretch">
        <DecisionDialog
          words={{
            button: "Approve",
            title: "Approve this listing?",
            body: "It goes public at once if it is active.",
          }}
          subject={item.name}
          triggerVariant="default"
          pending={pending}
          onConfirm={async () =>
            (
              await runMutation(approve.mutateAsync(item.id), {
                success: { title: "Listing approved", description: item.name },
                error: { title: "The listing could not be approved" },
              })
            ).ok
          }
        />
        <DecisionDialog
          words={{
            button: "Reject",
            title: "Reject this listing?",
            body: `The seller sees the reason beside the product and is e-mailed it; they can fix the listing and resubmit it. At least ${REJECT_REASON_MIN} characters.`,
          }}
          subject={item.name}
          triggerVariant="outline"
          confirmVariant="destructive"
          noteLabel="Reason (shown to the seller)"
          pending={pending}
          onConfirm={async (reason) =>
            (
              await runMutation(reject.mutateAsync({ id: item.id, reason: reason ?? "" }), {
                success: { title: "Listing rejected", description: item.name },
                error: { title: "The listing could not be rejected" },
              })
            ).ok
          }
        />
        {sellerId && (
          <DecisionDialog
            words={{
              button: "Trust seller",
              title: "Trust this seller?",
              body: `${sellerName}'s future listings and edits go public without review. Listings already waiting here still need your decision. You can withdraw trust later; it is recorded in the audit log.`,
            }}
            subject={sellerName}
            triggerVariant="outline"
            pending={pending}
            onConfirm={async () =>
              (
                await runMutation(trust.mutateAsync({ userId: sellerId, trusted: true }), {
                  success: { title: "Seller trusted", description: sellerName },
                  error: { title: "The seller could not be marked trusted" },
                })
              ).ok
            }
          />
        )}
        <Button asChild variant="ghost" size="sm">
          <Link to={paths.admin.editProduct(item.id)}>
            Edit<span className="sr-only"> {item.name}</span>
          </Link>
        </Button>
      </div>
    </Card>
  );
}
