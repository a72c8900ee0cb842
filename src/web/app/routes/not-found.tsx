import { useEffect } from "react";
import { Link, useLocation } from "react-router";
import { paths } from "#domain/routes";
import { Button } from "#web/components/ui/button";

export function Component() {
  const location = useLocation();
  useEffect(() => console.warn(`404: no page at ${location.pathname}`), [location.pathname]);
  return (
    <section
      className="mx-auto flex max-w-lg flex-col items-center px-4 py-24 text-center"
      data-testid="not-found"
    >
      <title>Page not found | Stackbay</title>
      <p className="text-7xl font-extrabold text-primary">404</p>
      <h1 className="mt-4 text-2xl font-bold">Oops! Page not found</h1>
      <p className="mt-2 text-muted-foreground">The page you asked for has moved or never existed.</p>
      <Button asChild className="mt-8">
        <Link to={paths.home()}>Return to Home</Link>
      </Button>
    </section>
  );
}
