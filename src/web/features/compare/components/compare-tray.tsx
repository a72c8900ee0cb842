import { X } from "lucide-react";
import { Link } from "react-router";
import { MAX_COMPARE, MIN_COMPARE } from "#domain/compare-ids";
import { paths } from "#domain/routes";
import { Button } from "#web/components/ui/button";
import { compareActions, useCompareTray } from "#web/features/compare/compare-store";

/**
 * The bar that follows the buyer down the page while the compare tray holds something: what is in it,
 * a way to take each out, and the link to the comparison once there are two.
 */
export function CompareTray() {
  const items = useCompareTray();
  if (items.length === 0) return null;
  const ready = items.length >= MIN_COMPARE;
  return (
    <section
      aria-label="Compare tray"
      className="sticky bottom-0 z-30 mt-8 border-t border-border bg-background/95 shadow-[0_-4px_12px_rgb(0_0_0/0.08)] backdrop-blur supports-[backdrop-filter]:bg-background/80"
      data-testid="compare-tray"
    >
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 sm:px-6">
        <p className="text-sm font-medium">
          Compare {items.length} of {MAX_COMPARE}
        </p>
        {/* On a phone the bar stays one line: the names are on the comparison itself. */}
        <ul className="hidden min-w-0 flex-1 flex-wrap gap-2 sm:flex">
          {items.map((item) => (
            <li
              key={item.id}
              className="inline-flex max-w-full items-center gap-1 rounded-full border border-border py-0.5 pr-1 pl-3 text-xs"
            >
              <span className="truncate">{item.name}</span>
              <button
                type="button"
                onClick={() => compareActions.remove(item.id)}
                aria-label={`Remove ${item.name} from compare`}
                className="rounded-full p-1 text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
              >
                <X className="size-3.5" aria-hidden />
              </button>
            </li>
          ))}
        </ul>
        <div className="ml-auto flex items-center gap-2">
          <Button variant="ghost" size="sm" onClick={compareActions.clear}>
            Clear
          </Button>
          {ready ? (
            <Button asChild size="sm">
              <Link to={paths.compare(items.map((i) => i.id))} data-testid="compare-link">
                Compare now
              </Link>
            </Button>
          ) : (
            <p className="text-xs text-muted-foreground">Add one more product to compare</p>
          )}
        </div>
      </div>
    </section>
  );
}
