import { ArrowRight, Store } from "lucide-react";
import { Link } from "react-router";
import { formatDate } from "#domain/dates";
import { REJECT_REASON_MIN } from "#domain/moderation";
import { paths } from "#domain/routes";
import type { StorefrontChangeQueueItem } from "#domain/storefronts";
import { Badge } from "#web/components/ui/badge";
import { Card } from "#web/components/ui/card";
import { DecisionDialog } from "#web/components/ui/decision-dialog";
import { LoadError } from "#web/components/ui/load-error";
import { Spinner } from "#web/components/ui/spinner";
import {
  useDecideStorefrontChange,
  useStorefrontChanges,
} from "#web/features/moderation/api/storefront-changes";
import { runMutation } from "#web/lib/mutation";

/**
 * New storefront names and logos waiting for review (decision 0015): the approved identity beside the
 * one asked for, and Approve or Reject with a reason the seller reads.
 */
export function StorefrontChangeQueue() {
  const query = useStorefrontChanges();
  if (query.isPending) return <Spinner label="Loading storefront changes" />;
  if (query.isError) {
    return <LoadError what="storefront changes" error={query.error} onRetry={() => query.refetch()} />;
  }
  const { items } = query.data;
  if (items.length === 0) {
    return (
      <p className="text-sm text-muted-foreground">
        No storefront names or logos are waiting for review. A seller who is not trusted changing theirs
        appears here.
      </p>
    );
  }
  return (
    <ul className="flex flex-col gap-4" aria-label="Storefront changes waiting for review">
      {items.map((item) => (
        <li key={item.slug}>
          <ChangeCard item={item} />
        </li>
      ))}
    </ul>
  );
}

function Logo({ url, label }: { url: string | null; label: string }) {
  return url ? (
    <img src={url} alt={label} width={48} height={48} className="size-12 rounded-md bg-muted object-cover" />
  ) : (
    <div
      role="img"
      aria-label={`${label}: none`}
      className="flex size-12 items-center justify-center rounded-md bg-muted text-muted-foreground"
    >
      <Store className="size-5" aria-hidden />
    </div>
  );
}

function ChangeCard({ item }: { item: StorefrontChangeQueueItem }) {
  const { approve, reject } = useDecideStorefrontChange();
  const pending = approve.isPending || reject.isPending;
  return (
    <Card className="flex flex-col gap-4 p-4 sm:flex-row sm:items-center" data-testid="storefront-change">
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <div className="flex flex-wrap items-center gap-3">
          <Logo url={item.currentLogoUrl} label="Approved logo" />
          <span className="font-medium break-words">{item.currentName}</span>
          <ArrowRight className="size-4 text-muted-foreground" aria-label="becomes" />
          <Logo url={item.logoUrl} label="Logo asked for" />
          <span className="text-lg font-semibold break-words">{item.name}</span>
        </div>
        <p className="text-sm text-muted-foreground">
          <Link className="underline underline-offset-2" to={paths.vendor(item.slug)}>
            {paths.vendor(item.slug)}
          </Link>{" "}
          · submitted <time dateTime={item.submittedAt}>{formatDate(item.submittedAt)}</time>
          {item.isVerified && (
            <>
              {" "}
              · <Badge variant="outline">Verified badge hidden until decided</Badge>
            </>
          )}
        </p>
      </div>
      <div className="flex flex-wrap items-start gap-2 sm:flex-col sm:items-stretch">
        <DecisionDialog
          words={{
            button: "Approve",
            title: "Approve this name and logo?",
            body: "They become the storefront's and the vendor of every product of the seller at once.",
          }}
          subject={item.name}
          triggerVariant="default"
          pending={pending}
          onConfirm={async () =>
            (
              await runMutation(approve.mutateAsync(item.slug), {
                success: { title: "Storefront change approved", description: item.name },
                error: { title: "The storefront change could not be approved" },
              })
            ).ok
          }
        />
        <DecisionDialog
          words={{
            button: "Reject",
            title: "Reject this name and logo?",
            body: `The storefront keeps "${item.currentName}". The seller sees the reason in their storefront settings. At least ${REJECT_REASON_MIN} characters.`,
          }}
          subject={item.name}
          triggerVariant="outline"
          confirmVariant="destructive"
          noteLabel="Reason (shown to the seller)"
          pending={pending}
          onConfirm={async (reason) =>
            (
              await runMutation(reject.mutateAsync({ slug: item.slug, reason: reason ?? "" }), {
                success: { title: "Storefront change rejected", description: item.name },
                error: { title: "The storefront change could not be rejected" },
              })
            ).ok
          }
        />
      </div>
    </Card>
  );
}
