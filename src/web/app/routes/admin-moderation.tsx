import { PageHeader } from "#web/components/layout/page-header";
import { RequireAdmin } from "#web/features/auth/components/guards";
import { ModerationQueue } from "#web/features/moderation/components/moderation-queue";
import { StorefrontChangeQueue } from "#web/features/moderation/components/storefront-change-queue";
import { useSearchState } from "#web/lib/use-search-state";

export function Component() {
  return (
    <RequireAdmin>
      <ModerationScreen />
    </RequireAdmin>
  );
}

/** Sellers' listings wait here until an admin approves them, or rejects them with a reason. */
function ModerationScreen() {
  const { page, go } = useSearchState();
  return (
    <>
      <PageHeader
        title="Listing review"
        subtitle="Listings by sellers who are not trusted yet, and material edits of their listings, wait here, oldest first. Approve them to publish them, or reject them with a reason the seller sees."
      />
      <div className="mx-auto flex max-w-5xl flex-col gap-10 px-4 py-8 sm:px-6">
        <ModerationQueue page={page} onPage={(p) => go({ page: String(p) })} />
        <section aria-labelledby="storefront-changes" className="flex flex-col gap-4">
          <div>
            <h2 id="storefront-changes" className="text-xl font-semibold">
              Storefront names and logos
            </h2>
            <p className="text-sm text-muted-foreground">
              A new name is the vendor of every product of the seller: it shows only once you approve it.
            </p>
          </div>
          <StorefrontChangeQueue />
        </section>
      </div>
    </>
  );
}
