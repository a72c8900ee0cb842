import { LayoutDashboard, LogOut, Shield } from "lucide-react";
import { Link } from "react-router";
import type { Me } from "#domain/accounts";
import { paths } from "#domain/routes";
import { Button } from "#web/components/ui/button";
import { isAdmin } from "#web/features/auth/api/get-me";
import { useSignOut } from "#web/features/auth/api/sign-out";
import { cn } from "#web/lib/utils";

/** The header's entries for a signed-in person (see `AccountLinks` in the navbar). */
export function SignedInLinks({
  me,
  onNavigate,
  stacked,
}: {
  me: Me;
  onNavigate?: () => void;
  stacked: boolean;
}) {
  const signOut = useSignOut();
  // In the phone menu the entries line up with the page links above them.
  const entry = stacked ? "h-11 justify-start px-3 text-base" : undefined;
  return (
    <div className={cn("flex gap-1", stacked && "flex-col items-stretch")}>
      <Button asChild variant="ghost" size="sm" className={entry} onClick={onNavigate}>
        <Link to={paths.dashboard()}>
          <LayoutDashboard aria-hidden /> Dashboard
        </Link>
      </Button>
      {isAdmin(me) && (
        <Button asChild variant="ghost" size="sm" className={entry} onClick={onNavigate}>
          <Link to={paths.admin.overview()}>
            <Shield aria-hidden /> Admin Panel
          </Link>
        </Button>
      )}
      <Button
        variant="ghost"
        size="sm"
        className={entry}
        disabled={!signOut.isIdle}
        onClick={() => signOut.mutate(undefined, { onSettled: onNavigate })}
      >
        <LogOut aria-hidden /> {signOut.isIdle ? "Log out" : "Logging out..."}
      </Button>
    </div>
  );
}
