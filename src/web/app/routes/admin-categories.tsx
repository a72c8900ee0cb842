import { PageHeader } from "#web/components/layout/page-header";
import { ViewCard } from "#web/components/layout/view-card";
import { RequireRole } from "#web/features/auth/components/guards";
import { AddCategoryForm } from "#web/features/categories/components/add-category-form";
import { CategoryList } from "#web/features/categories/components/category-list";

export function Component() {
  return (
    <RequireRole allow="admin">
      <PageHeader
        title="Categories"
        subtitle="The categories products are filed under. A category can be deleted once no product uses it."
      />
      <div className="mx-auto grid max-w-3xl grid-cols-1 gap-6 px-4 py-8 sm:px-6">
        <ViewCard title="Add Category" description="The slug used in links is made from the name.">
          <AddCategoryForm />
        </ViewCard>
        <ViewCard title="All categories" description="Newest first, with how many products each holds.">
          <CategoryList />
        </ViewCard>
      </div>
    </RequireRole>
  );
}
