import { Link } from "react-router";
import { paths } from "#domain/routes";
import { buttonVariants } from "#web/components/ui/button";

/** The error screen: shown when a screen throws or its code fails to load (`RouteErrorBoundary`). */
export function RouteError({ error }: { error: unknown }) {
  const detail = error instanceof Error ? error.message : String(error);
  return (
    <div
      role="alert"
      className="mx-auto flex min-h-dvh max-w-xl flex-col items-center justify-center gap-4 px-4 text-center"
    >
      <title>Error | Stackbay</title>
      <h1 className="text-3xl font-bold">Unexpected Application Error!</h1>
      <p className="text-muted-foreground" data-testid="route-error-detail">
        {detail}
      </p>
      <div className="flex gap-3">
        <button type="button" className={buttonVariants()} onClick={() => window.location.reload()}>
          Reload the page
        </button>
        <Link to={paths.home()} className={buttonVariants({ variant: "outline" })}>
          Go to Home
        </Link>
      </div>
    </div>
  );
}
