import { ExternalLink, Pencil, Plus, Search, Trash2 } from "lucide-react";
import { Link } from "react-router";
import type { PageListItem } from "#domain/cms";
import { formatDateTime, formatRelativeTime } from "#domain/dates";
import { paths } from "#domain/routes";
import { PageHeader } from "#web/components/layout/page-header";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "#web/components/ui/alert-dialog";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { Input } from "#web/components/ui/input";
import { LoadError } from "#web/components/ui/load-error";
import { Spinner } from "#web/components/ui/spinner";
import {
  Table,
  TableBody,
  TableCell,
  TableFrame,
  TableHead,
  TableHeader,
  TableRow,
} from "#web/components/ui/table";
import { RequireAdmin } from "#web/features/auth/components/guards";
import { useDeletePage } from "#web/features/pages/api/delete-page";
import { useAdminPages } from "#web/features/pages/api/get-admin-pages";
import { runMutation } from "#web/lib/mutation";
import { useDebouncedInput } from "#web/lib/use-debounced";
import { useSearchState } from "#web/lib/use-search-state";
import { cn } from "#web/lib/utils";

const columns = ["Title", "Slug", "Status", "Updated", "Actions"];

export function Component() {
  return (
    <RequireAdmin>
      <PagesScreen />
    </RequireAdmin>
  );
}

function PagesScreen() {
  const { params, go } = useSearchState();
  const search = params.get("search") ?? "";
  const [text, setText] = useDebouncedInput(search, (typed) => go({ search: typed }));

  return (
    <>
      <PageHeader
        title="Pages"
        subtitle="The site's content pages. Drafts stay hidden from visitors until you publish them."
      />
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <search className="relative w-full sm:max-w-sm">
            <Search
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
              aria-hidden
            />
            <Input
              type="search"
              aria-label="Search pages by title or slug"
              placeholder="Search by title or slug"
              className="pl-9"
              value={text}
              maxLength={200}
              onChange={(e) => setText(e.target.value)}
            />
          </search>
          <Button asChild>
            <Link to={paths.admin.addPage()}>
              <Plus aria-hidden /> Add Page
            </Link>
          </Button>
        </div>
        <PagesList search={search} />
      </div>
    </>
  );
}

function PagesList({ search }: { search: string }) {
  const pages = useAdminPages(search);
  if (pages.isPending) return <Spinner label="Loading pages" />;
  if (pages.isError) {
    return <LoadError what="pages" error={pages.error} onRetry={() => pages.refetch()} />;
  }
  if (pages.data.length === 0) {
    return (
      <p className="py-16 text-center text-muted-foreground" data-testid="pages-empty">
        {search ? `No pages match "${search}".` : "No pages yet. Add the first one with Add Page."}
      </p>
    );
  }
  return (
    <TableFrame aria-label="Pages" className={cn(pages.isFetching && "opacity-70 transition-opacity")}>
      <Table className="min-w-[48rem]" data-testid="admin-pages-table">
        <TableHeader>
          {columns.map((column) => (
            <TableHead key={column} className={cn(column === "Actions" && "text-right")}>
              {column}
            </TableHead>
          ))}
        </TableHeader>
        <TableBody>
          {pages.data.map((page) => (
            <PageRow key={page.id} page={page} />
          ))}
        </TableBody>
      </Table>
    </TableFrame>
  );
}

function PageRow({ page }: { page: PageListItem }) {
  const remove = useDeletePage();
  const onDelete = () =>
    runMutation(remove.mutateAsync(page.id), {
      success: { title: "Success", description: "Page deleted successfully!" },
      error: { title: "Failed to delete page", placement: "title" },
    });

  return (
    <TableRow data-testid="admin-page-row">
      <TableHead scope="row" className="max-w-xs break-words">
        {page.title}
      </TableHead>
      <TableCell className="font-mono text-xs break-all">{page.slug}</TableCell>
      <TableCell>
        {page.isActive ? <Badge variant="success">Active</Badge> : <Badge variant="outline">Inactive</Badge>}
      </TableCell>
      <TableCell className="whitespace-nowrap">
        <time dateTime={page.updatedAt} title={formatDateTime(page.updatedAt)}>
          {formatRelativeTime(page.updatedAt)}
        </time>
      </TableCell>
      <TableCell className="py-2">
        <div className="flex justify-end gap-1">
          <Button asChild variant="ghost" size="sm">
            <Link
              to={paths.page(page.slug)}
              title={page.isActive ? undefined : "Inactive: visitors see 'Page Not Found'"}
            >
              <ExternalLink aria-hidden /> View<span className="sr-only"> {page.title}</span>
            </Link>
          </Button>
          <Button asChild variant="ghost" size="sm">
            <Link to={paths.admin.editPage(page.id)}>
              <Pencil aria-hidden /> Edit<span className="sr-only"> {page.title}</span>
            </Link>
          </Button>
          <AlertDialog>
            <AlertDialogTrigger asChild>
              <Button
                variant="ghost"
                size="sm"
                className="text-destructive hover:text-destructive"
                disabled={remove.isPending}
              >
                <Trash2 aria-hidden /> Delete<span className="sr-only"> {page.title}</span>
              </Button>
            </AlertDialogTrigger>
            <AlertDialogContent>
              <AlertDialogHeader>
                <AlertDialogTitle>Are you sure?</AlertDialogTitle>
                <AlertDialogDescription>
                  This permanently deletes the page "{page.title}" ({paths.page(page.slug)}). Visitors will
                  see 'Page Not Found' there. This cannot be undone.
                </AlertDialogDescription>
              </AlertDialogHeader>
              <AlertDialogFooter>
                <AlertDialogCancel>Cancel</AlertDialogCancel>
                <AlertDialogAction variant="destructive" onClick={onDelete}>
                  Delete
                </AlertDialogAction>
              </AlertDialogFooter>
            </AlertDialogContent>
          </AlertDialog>
        </div>
      </TableCell>
    </TableRow>
  );
}
