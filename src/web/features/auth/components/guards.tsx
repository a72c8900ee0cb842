import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router";
import { hasRole, type Role } from "#domain/accounts";
import { paths } from "#domain/routes";
import { Spinner } from "#web/components/ui/spinner";
import { useMe } from "#web/features/auth/api/get-me";
import { UnauthorizedScreen } from "#web/features/auth/components/unauthorized-screen";

/** Signed-in wrapper: spinner while the session loads, else to /login remembering where the visitor was. */
export function RequireUser({ children }: { children: ReactNode }) {
  const location = useLocation();
  const { data: me, isPending } = useMe();
  if (isPending) return <Spinner label="Checking your session" />;
  if (!me) return <Navigate to={paths.login()} replace state={{ from: location }} />;
  return children;
}

/**
 * Role wrapper: as above, and a signed-in user without the role sees the unauthorized screen. The
 * server checks the same role on every call; this only spares people a screen they cannot use.
 */
export function RequireRole({ allow, children }: { allow: Role; children: ReactNode }) {
  const location = useLocation();
  const { data: me, isPending } = useMe();
  if (isPending) return <Spinner label="Checking your permissions" />;
  if (!me) return <Navigate to={paths.login()} replace state={{ from: location }} />;
  if (!hasRole(me.roles, allow)) return <UnauthorizedScreen signedIn />;
  return children;
}

/** Admin wrapper: admins and super admins see the content. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  return <RequireRole allow="admin">{children}</RequireRole>;
}
