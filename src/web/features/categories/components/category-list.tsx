import { FolderTree, Trash2 } from "lucide-react";
import { type AdminCategory, productCountLabel } from "#domain/category-admin";
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
import { LoadError } from "#web/components/ui/load-error";
import { Spinner } from "#web/components/ui/spinner";
import { useDeleteCategory } from "#web/features/categories/api/delete-category";
import { useAdminCategories } from "#web/features/categories/api/get-admin-categories";
import { runMutation } from "#web/lib/mutation";
import { cn } from "#web/lib/utils";

/** Every category in a fixed-height scrolling area, each with its product count and a delete button. */
export function CategoryList() {
  const query = useAdminCategories();
  if (query.isPending) return <Spinner label="Loading categories" className="py-16" />;
  if (query.isError) {
    return <LoadError what="categories" error={query.error} onRetry={() => query.refetch()} />;
  }
  const { items } = query.data;
  if (items.length === 0) {
    return (
      <div className="flex flex-col items-center gap-2 py-16 text-center text-muted-foreground">
        <FolderTree className="size-8" aria-hidden />
        <p>No categories yet. Add the first one above.</p>
      </div>
    );
  }
  return (
    <section
      aria-label="Category list"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
      tabIndex={0}
      className={cn(
        "max-h-96 overflow-y-auto rounded-lg border border-border focus-visible:outline-2 focus-visible:outline-ring",
        query.isFetching && "opacity-70 transition-opacity",
      )}
    >
      <ul className="divide-y divide-border">
        {items.map((category) => (
          <CategoryRow key={category.id} category={category} />
        ))}
      </ul>
    </section>
  );
}

function CategoryRow({ category }: { category: AdminCategory }) {
  const remove = useDeleteCategory();

  const confirm = () =>
    runMutation(remove.mutateAsync(category.id), {
      success: { title: "Success", description: "Category deleted successfully" },
      error: { title: "Failed to delete category" },
    });

  return (
    <li className="flex items-center gap-3 px-4 py-3" data-testid="category-row">
      <div className="min-w-0 flex-1">
        <p className="font-medium break-words">{category.name}</p>
        <p className="font-mono text-xs break-all text-muted-foreground">{category.slug}</p>
      </div>
      <Badge variant="secondary" className="shrink-0 whitespace-nowrap">
        {productCountLabel(category.productCount)}
      </Badge>
      <AlertDialog>
        <AlertDialogTrigger asChild>
          <Button
            variant="ghost"
            size="icon"
            className="text-destructive hover:bg-destructive/10 hover:text-destructive"
            disabled={remove.isPending}
            aria-label={`Delete ${category.name}`}
          >
            <Trash2 aria-hidden />
          </Button>
        </AlertDialogTrigger>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Are you sure?</AlertDialogTitle>
            <AlertDialogDescription>
              This will permanently delete the category “{category.name}”. This action cannot be undone.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction variant="destructive" onClick={confirm}>
              Delete
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </li>
  );
}
