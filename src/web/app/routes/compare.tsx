import { ArrowLeft } from "lucide-react";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { compareQuery } from "#domain/compare";
import { MIN_COMPARE, splitIds } from "#domain/compare-ids";
import { paths } from "#domain/routes";
import { Button } from "#web/components/ui/button";
import { LoadError } from "#web/components/ui/load-error";
import { useCompare } from "#web/features/compare/api/get-compare";
import { compareActions, useCompareTray } from "#web/features/compare/compare-store";
import { CompareTable } from "#web/features/compare/components/compare-table";

function BackLink() {
  return (
    <Link
      to={paths.products()}
      className="inline-flex items-center gap-2 text-sm font-medium text-primary hover:underline"
    >
      <ArrowLeft className="size-4" aria-hidden /> Back to Products
    </Link>
  );
}

/** Fewer than two products (or a broken link): what to do next, and the tray's products when it holds enough. */
function PickMore({ title = "Pick at least two products", reason }: { title?: string; reason?: string }) {
  const tray = useCompareTray();
  return (
    <div
      className="rounded-lg border border-dashed border-border p-8 text-center"
      data-testid="compare-empty"
    >
      <h2 className="text-xl font-semibold">{title}</h2>
      <p className="mx-auto mt-2 max-w-md text-muted-foreground">
        {reason ?? "Use Compare on a product's page to add it here. You can compare up to four products."}
      </p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        {tray.length >= MIN_COMPARE && (
          <Button asChild>
            <Link to={paths.compare(tray.map((i) => i.id))}>
              Compare the {tray.length} products you picked
            </Link>
          </Button>
        )}
        <Button asChild variant="outline">
          <Link to={paths.products()}>Browse products</Link>
        </Button>
      </div>
    </div>
  );
}

function TableSkeleton() {
  return (
    <div className="space-y-3" aria-busy="true" role="status">
      <span className="sr-only">Loading the comparison</span>
      <div className="grid grid-cols-3 gap-4">
        {[0, 1, 2].map((n) => (
          <div key={n} className="aspect-[4/3] animate-pulse rounded-md bg-muted" />
        ))}
      </div>
      {[0, 1, 2, 3, 4].map((n) => (
        <div key={n} className="h-10 animate-pulse rounded bg-muted" />
      ))}
    </div>
  );
}

export function Component() {
  const [params, setParams] = useSearchParams();
  const raw = params.get("ids");
  const ids = splitIds(raw);
  const parsed = compareQuery.safeParse({ ids: raw ?? "" });
  const compare = useCompare(parsed.data?.ids ?? ids, parsed.success);
  const [onlyDifferences, setOnlyDifferences] = useState(false);

  const remove = (id: string) => {
    compareActions.remove(id);
    const rest = ids.filter((other) => other !== id);
    setParams(rest.length > 0 ? { ids: rest.join(",") } : {});
  };

  let body: React.ReactNode;
  if (!parsed.success) {
    // Too few is the ordinary empty state; a malformed or too long link says what is wrong with it.
    const issue = parsed.error.issues[0]?.message;
    body =
      ids.length >= MIN_COMPARE ? (
        <PickMore title="This comparison cannot be shown" reason={issue} />
      ) : (
        <PickMore />
      );
  } else if (compare.isPending) {
    body = <TableSkeleton />;
  } else if (compare.isError) {
    body = <LoadError what="comparison" error={compare.error} onRetry={() => void compare.refetch()} />;
  } else {
    const answer = compare.data;
    const gone = answer.missing.length;
    body = (
      <div className="space-y-4">
        {gone > 0 && (
          <p className="rounded-lg border border-border bg-muted/50 p-4 text-sm" role="status">
            {gone === 1
              ? "One of the products you picked is no longer available."
              : `${gone} of the products you picked are no longer available.`}
          </p>
        )}
        {answer.products.length < MIN_COMPARE ? (
          <PickMore />
        ) : (
          <>
            <label className="inline-flex cursor-pointer items-center gap-2 text-sm font-medium">
              <input
                type="checkbox"
                className="size-4 accent-primary"
                checked={onlyDifferences}
                onChange={(event) => setOnlyDifferences(event.target.checked)}
                data-testid="only-differences"
              />
              Show only differences
            </label>
            <CompareTable answer={answer} onlyDifferences={onlyDifferences} onRemove={remove} />
          </>
        )}
      </div>
    );
  }

  return (
    <section className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
      <title>Compare products | Stackbay</title>
      <BackLink />
      <h1 className="mt-6 mb-6 text-3xl font-bold tracking-tight">Compare products</h1>
      {body}
    </section>
  );
}
