import type { ReactNode } from "react";
import { Button } from "#web/components/ui/button";
import { cn } from "#web/lib/utils";

/**
 * The one load-error state: something that could not be loaded, the reason, and a retry that refetches.
 * Every screen shows a failed read through this; `load-error.test.ts` fails on a route or feature file
 * that draws its own.
 */
export function LoadError({
  what,
  title,
  text,
  error,
  onRetry,
  page = false,
  className,
  children,
}: {
  /** Names the data in "The … could not be loaded." */
  what?: string;
  /** The spec's own heading instead of "The … could not be loaded." */
  title?: string;
  /** The spec's own words instead of the error's message. */
  text?: ReactNode;
  error: Error;
  onRetry: () => void;
  /** The whole page failed: a page heading and the document title. */
  page?: boolean;
  className?: string;
  /** Another way on, beside the retry (a link elsewhere). */
  children?: ReactNode;
}) {
  const heading = title ?? `The ${what ?? "data"} could not be loaded.`;
  const Heading = page ? "h1" : "p";
  return (
    <div
      role="alert"
      className={cn(
        page
          ? "mx-auto flex max-w-lg flex-col items-center px-4 py-24 text-center"
          : "rounded-lg border border-destructive/40 p-6",
        className,
      )}
    >
      {page && <title>{`${heading.replace(/\.$/, "")} | Stackbay`}</title>}
      <Heading className={page ? "text-2xl font-bold" : "font-semibold"}>{heading}</Heading>
      <p className={cn("text-muted-foreground", page ? "mt-3" : "mt-1 text-sm")}>{text ?? error.message}</p>
      <div className={cn("mt-4 flex flex-wrap items-center gap-3", page && "justify-center")}>
        <Button variant="outline" onClick={onRetry}>
          Try again
        </Button>
        {children}
      </div>
    </div>
  );
}
