import { ShieldAlert } from "lucide-react";
import { Link } from "react-router";
import { paths } from "#domain/routes";
import { Button } from "#web/components/ui/button";

export function UnauthorizedScreen({
  signedIn = false,
  message = "You don't have permission to access this page.",
}: {
  signedIn?: boolean;
  message?: string;
}) {
  return (
    <section className="mx-auto flex max-w-lg flex-col items-center px-4 py-24 text-center">
      <ShieldAlert className="size-14 text-destructive" aria-hidden />
      <h1 className="mt-6 text-3xl font-bold">Unauthorized Access</h1>
      <p className="mt-3 text-muted-foreground">{message}</p>
      <Button asChild className="mt-8">
        {signedIn ? (
          <Link to={paths.dashboard()}>Go to Dashboard</Link>
        ) : (
          <Link to={paths.home()}>Go to Home</Link>
        )}
      </Button>
    </section>
  );
}
