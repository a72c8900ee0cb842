import { Button } from "#web/components/ui/button";
import { cn } from "#web/lib/utils";

/** A list or figures that could not be loaded: what, the reason, and a retry. */
export function LoadError({
  what,
  error,
  onRetry,
  className,
}: {
  /** Names the data in "The … could not be loaded." */
  what: string;
  error: Error;
  onRetry: () => void;
  className?: string;
}) {
  return (
    <div role="alert" className={cn("rounded-lg border border-destructive/40 p-6", className)}>
      <p className="font-semibold">{`The ${what} could not be loaded.`}</p>
      <p className="mt-1 text-sm text-muted-foreground">{error.message}</p>
      <Button variant="outline" className="mt-4" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
