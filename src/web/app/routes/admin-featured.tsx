import { PageHeader } from "#web/components/layout/page-header";
import { RequireAdmin } from "#web/features/auth/components/guards";
import { FeaturedPicker } from "#web/features/moderation/components/featured-picker";

export function Component() {
  return (
    <RequireAdmin>
      <PageHeader
        title="Featured Products"
        subtitle="Choose and order the products that lead the home page and the catalogue's Featured sort. Only active, approved products can be featured."
      />
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        <FeaturedPicker />
      </div>
    </RequireAdmin>
  );
}
