import { and, count, desc, eq, ilike, ne, or, type SQL } from "drizzle-orm";
import { ADMIN_USERS_PAGE_SIZE, type AdminUser, type UserRoleFilter } from "#domain/admin-users";
import type { Database } from "#server/db/client";
import { session, user } from "#server/db/schema/auth";
import { containsPattern } from "#server/lib/like";

/** A database or an open transaction. */
type Reader = Pick<Database, "select" | "update" | "delete">;

export type UserRow = typeof user.$inferSelect;

export function toAdminUser(row: UserRow): AdminUser {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    emailVerified: row.emailVerified,
    isBuyer: row.isBuyer,
    isSeller: row.isSeller,
    isReseller: row.isReseller,
    isAdmin: row.isAdmin,
    isSuperAdmin: row.isSuperAdmin,
    isTrustedSeller: row.isTrustedSeller,
    disabled: row.banned,
    createdAt: row.createdAt.toISOString(),
  };
}

const roleCondition: Record<UserRoleFilter, SQL> = {
  seller: eq(user.isSeller, true),
  reseller: eq(user.isReseller, true),
  admin: eq(user.isAdmin, true),
  superAdmin: eq(user.isSuperAdmin, true),
  disabled: eq(user.banned, true),
};

/** LIKE wildcards typed by a person are matched literally. */
export async function listUsers(
  db: Database,
  query: { search?: string; role?: UserRoleFilter; page: number },
) {
  const conditions: SQL[] = [];
  if (query.search) {
    const pattern = containsPattern(query.search);
    const match = or(
      ilike(user.email, pattern),
      ilike(user.firstName, pattern),
      ilike(user.lastName, pattern),
      ilike(user.name, pattern),
    );
    if (match) conditions.push(match);
  }
  if (query.role) conditions.push(roleCondition[query.role]);
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(user)
      .where(where)
      .orderBy(desc(user.createdAt), desc(user.id))
      .limit(ADMIN_USERS_PAGE_SIZE)
      .offset((query.page - 1) * ADMIN_USERS_PAGE_SIZE),
    db.select({ n: count() }).from(user).where(where),
  ]);
  return {
    items: rows.map(toAdminUser),
    total: counted?.n ?? 0,
    page: query.page,
    pageSize: ADMIN_USERS_PAGE_SIZE,
  };
}

/** The user's row, locked until the transaction ends. */
export async function lockUser(tx: Reader, id: string): Promise<UserRow | undefined> {
  const [row] = await tx.select().from(user).where(eq(user.id, id)).for("update");
  return row;
}

/**
 * How many other super admins can still sign in. Their rows are locked, so two super admins revoking
 * each other at once cannot both succeed and leave nobody.
 */
export async function otherActiveSuperAdmins(tx: Reader, exceptId: string): Promise<number> {
  const rows = await tx
    .select({ id: user.id })
    .from(user)
    .where(and(eq(user.isSuperAdmin, true), eq(user.banned, false), ne(user.id, exceptId)))
    .for("update");
  return rows.length;
}

export async function updateUserFlags(
  tx: Reader,
  id: string,
  values: Partial<Pick<UserRow, "isSeller" | "isReseller" | "isAdmin" | "isSuperAdmin" | "banned">>,
): Promise<UserRow> {
  const [row] = await tx
    .update(user)
    .set({
      ...values,
      ...(values.banned === undefined
        ? {}
        : { banReason: values.banned ? "Disabled by a super admin" : null, banExpires: null }),
      updatedAt: new Date(),
    })
    .where(eq(user.id, id))
    .returning();
  if (!row) throw new Error(`user ${id} vanished inside its own transaction`);
  return row;
}

/** Signs the user out everywhere. */
export async function deleteSessions(tx: Reader, userId: string): Promise<number> {
  const deleted = await tx.delete(session).where(eq(session.userId, userId)).returning({ id: session.id });
  return deleted.length;
}
