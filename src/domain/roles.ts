import type { Roles } from "#domain/accounts";

/*
 * Kept apart from accounts.ts (which builds zod schemas) so the header and admin bar, on every page,
 * can ask about roles without loading zod into the first paint's JavaScript.
 */

export type Role = "buyer" | "seller" | "reseller" | "admin" | "superAdmin";

/** Whether a user with these flags acts as `role`; a super admin is an admin too. */
export function hasRole(roles: Roles, role: Role): boolean {
  switch (role) {
    case "buyer":
      return roles.isBuyer;
    case "seller":
      return roles.isSeller;
    case "reseller":
      return roles.isReseller;
    case "admin":
      return roles.isAdmin || roles.isSuperAdmin;
    case "superAdmin":
      return roles.isSuperAdmin;
  }
}
