import { cn } from "#web/lib/utils";

export function Spinner({ className, label = "Loading" }: { className?: string; label?: string }) {
  return (
    <div role="status" className={cn("flex items-center justify-center py-24", className)}>
      <span
        className="size-8 animate-spin rounded-full border-4 border-primary/25 border-t-primary"
        aria-hidden
      />
      <span className="sr-only">{label}</span>
    </div>
  );
}
