import { ArrowLeft } from "lucide-react";
import { Link, useNavigate, useParams } from "react-router";
import type { PageValues } from "#domain/cms";
import { paths } from "#domain/routes";
import { PageHeader } from "#web/components/layout/page-header";
import { LoadError } from "#web/components/ui/load-error";
import { Spinner } from "#web/components/ui/spinner";
import { RequireAdmin } from "#web/features/auth/components/guards";
import { useCreatePage } from "#web/features/pages/api/create-page";
import { useAdminPage } from "#web/features/pages/api/get-admin-page";
import { useUpdatePage } from "#web/features/pages/api/update-page";
import { PageForm } from "#web/features/pages/components/page-form";
import { ApiError } from "#web/lib/api";
import { type OnApiError, runMutation } from "#web/lib/mutation";

/** /admin/pages/add creates a page; /admin/pages/:id edits the page with that id. */
export function Component() {
  const { id } = useParams();
  return <RequireAdmin>{id ? <EditPage id={id} /> : <AddPage />}</RequireAdmin>;
}

function BackToPages() {
  return (
    <Link
      to={paths.admin.pages()}
      className="mt-4 inline-flex items-center gap-2 text-sm font-medium text-primary hover:underline"
    >
      <ArrowLeft className="size-4" aria-hidden /> Back to Pages
    </Link>
  );
}

function AddPage() {
  const create = useCreatePage();
  const navigate = useNavigate();
  const save = async (values: PageValues, on: OnApiError) => {
    const result = await runMutation(create.mutateAsync(values), {
      success: { title: "Success", description: "Page created successfully!" },
      error: { title: "Failed to create page", placement: "title" },
      on,
    });
    if (result.ok) navigate(paths.admin.pages());
  };
  return (
    <>
      <PageHeader
        title="Add Page"
        subtitle="Write a content page. It stays a draft until you mark it active."
      >
        <BackToPages />
      </PageHeader>
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        <PageForm submitLabel="Create Page" onSave={save} />
      </div>
    </>
  );
}

function EditPage({ id }: { id: string }) {
  const page = useAdminPage(id);
  const update = useUpdatePage();
  const navigate = useNavigate();

  if (page.isPending) return <Spinner label="Loading page" />;
  if (page.isError) {
    if (!(page.error instanceof ApiError && page.error.status === 404)) {
      return (
        <LoadError
          page
          title="This page could not be loaded"
          error={page.error}
          onRetry={() => page.refetch()}
        >
          <BackToPages />
        </LoadError>
      );
    }
    return (
      <section className="mx-auto max-w-lg px-4 py-24 text-center">
        <title>Page not found | Stackbay</title>
        <h1 className="text-2xl font-bold">Page not found</h1>
        <p className="mt-3 text-muted-foreground">There is no page with this id; it may have been deleted.</p>
        <div className="mt-6">
          <BackToPages />
        </div>
      </section>
    );
  }

  const save = async (values: PageValues, on: OnApiError) => {
    const result = await runMutation(update.mutateAsync({ id, values }), {
      success: { title: "Success", description: "Page updated successfully!" },
      error: { title: "Failed to update page", placement: "title" },
      on,
    });
    if (result.ok) navigate(paths.admin.pages());
  };
  return (
    <>
      <PageHeader title="Edit Page" subtitle={page.data.title}>
        <BackToPages />
      </PageHeader>
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        <PageForm key={page.data.id} page={page.data} submitLabel="Save Changes" onSave={save} />
      </div>
    </>
  );
}
