import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Button } from "#web/components/ui/button";
import { LoadError } from "#web/components/ui/load-error";
import { Spinner } from "#web/components/ui/spinner";
import { cn } from "#web/lib/utils";

export type Page<T> = { items: T[]; total: number; page: number; pageSize: number };

/**
 * One page of an admin list with its states: spinner while loading, the error with a retry, the empty
 * text, and Previous/Next with "N in all · page x of y". `what` names the list in those messages.
 */
export function PagedList<T>({
  query,
  what,
  empty,
  onPage,
  children,
}: {
  query: UseQueryResult<Page<T>>;
  what: string;
  empty: string;
  onPage: (page: number) => void;
  children: (items: T[]) => ReactNode;
}) {
  if (query.isPending) return <Spinner label={`Loading ${what}`} />;
  if (query.isError) {
    return <LoadError what={what} error={query.error} onRetry={() => query.refetch()} />;
  }
  const { items, total, page, pageSize } = query.data;
  if (total === 0) return <p className="py-16 text-center text-muted-foreground">{empty}</p>;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <div className={cn(query.isFetching && "opacity-70 transition-opacity")}>
      {children(items)}
      <div className="mt-6 flex items-center justify-between gap-4 text-sm">
        <span className="text-muted-foreground">
          {total} in all · page {page} of {pages}
        </span>
        <div className="flex gap-2">
          <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
            Previous
          </Button>
          <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
            Next
          </Button>
        </div>
      </div>
    </div>
  );
}
