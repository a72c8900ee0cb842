import { PageHeader } from "#web/components/layout/page-header";
import { ViewCard } from "#web/components/layout/view-card";
import { RequireRole } from "#web/features/auth/components/guards";
import { SynonymsEditor } from "#web/features/search/components/synonyms-editor";

export function Component() {
  return (
    <RequireRole allow="admin">
      <PageHeader
        title="Search"
        subtitle="Words that search treats alike: a search for the word also finds products with its synonyms."
      />
      <div className="mx-auto grid max-w-3xl grid-cols-1 gap-6 px-4 py-8 sm:px-6">
        <ViewCard title="Synonyms" description="Changes apply to the next search.">
          <SynonymsEditor />
        </ViewCard>
      </div>
    </RequireRole>
  );
}
