import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router";
import { Spinner } from "#web/components/ui/spinner";
import { isAdmin, useMe } from "#web/features/auth/api/get-me";
import { UnauthorizedScreen } from "#web/features/auth/components/unauthorized-screen";
import { paths } from "#web/paths";

/** Signed-in wrapper: spinner while the session loads, else to /login remembering where the visitor was. */
export function RequireUser({ children }: { children: ReactNode }) {
  const location = useLocation();
  const { data: me, isPending } = useMe();
  if (isPending) return <Spinner label="Checking your session" />;
  if (!me) return <Navigate to={paths.login()} replace state={{ from: location }} />;
  return children;
}

/** Admin wrapper: as above, and a signed-in non-admin sees the unauthorized screen. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const location = useLocation();
  const { data: me, isPending } = useMe();
  if (isPending) return <Spinner label="Checking your permissions" />;
  if (!me) return <Navigate to={paths.login()} replace state={{ from: location }} />;
  if (!isAdmin(me)) return <UnauthorizedScreen signedIn />;
  return children;
}
