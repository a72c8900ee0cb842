import { hasRole } from "#domain/accounts";
import type { AdminUser, AdminUserUpdate } from "#domain/admin-users";
import type { UserRow as Actor } from "#server/auth/guards";
import type { Database } from "#server/db/client";
import { Conflict, Forbidden, NotFound } from "#server/errors";
import { recordAudit } from "#server/lib/audit";
import { ensureStorefront } from "#server/modules/storefronts/repository";
import {
  deleteSessions,
  lockUser,
  otherActiveSuperAdmins,
  toAdminUser,
  type UserRow,
  updateUserFlags,
} from "#server/modules/users/repository";

/** What the audit trail records of an account: the flags this screen changes. */
const snapshot = (row: UserRow) => ({
  isSeller: row.isSeller,
  isReseller: row.isReseller,
  isAdmin: row.isAdmin,
  isSuperAdmin: row.isSuperAdmin,
  disabled: row.banned,
});

/**
 * Changes a user's roles or disabled state, with the rules that keep Stackbay administrable: admin
 * rights are given and taken by super admins only (the route is super-admin only today; the rule stays
 * here so it holds if admins get the screen), at least one super admin who can sign in remains, and
 * nobody disables themselves. Disabling ends every session of the account in the same transaction.
 */
export async function updateUserAccess(
  db: Database,
  actor: Actor,
  id: string,
  patch: AdminUserUpdate,
): Promise<{ user: AdminUser; sessionsEnded: number }> {
  if ((patch.isAdmin !== undefined || patch.isSuperAdmin !== undefined) && !hasRole(actor, "superAdmin")) {
    throw new Forbidden("Only a super admin can grant or revoke admin rights.", "SUPER_ADMIN_REQUIRED");
  }
  return db.transaction(async (tx) => {
    const before = await lockUser(tx, id);
    if (!before) throw new NotFound("This user does not exist.", "USER_NOT_FOUND");

    if (patch.disabled === true && before.id === actor.id) {
      throw new Conflict(
        "You can't disable your own account. Ask another super admin if it must be disabled.",
        "CANNOT_DISABLE_SELF",
      );
    }
    const losesSuperAdmin =
      before.isSuperAdmin && !before.banned && (patch.isSuperAdmin === false || patch.disabled === true);
    if (losesSuperAdmin && (await otherActiveSuperAdmins(tx, before.id)) === 0) {
      throw new Conflict(
        `${before.email} is the only active super admin. Make someone else a super admin first.`,
        "LAST_SUPER_ADMIN",
      );
    }

    const after = await updateUserFlags(tx, id, {
      isSeller: patch.isSeller,
      isReseller: patch.isReseller,
      isAdmin: patch.isAdmin,
      isSuperAdmin: patch.isSuperAdmin,
      banned: patch.disabled,
    });
    // Every seller has a storefront, from the moment they become one.
    if (after.isSeller && !before.isSeller) await ensureStorefront(tx, after);
    const sessionsEnded = patch.disabled === true ? await deleteSessions(tx, id) : 0;
    await recordAudit(tx, actor, {
      action: "update",
      entityType: "user",
      entityId: id,
      entityLabel: before.email,
      before: snapshot(before),
      after: snapshot(after),
    });
    return { user: toAdminUser(after), sessionsEnded };
  });
}
