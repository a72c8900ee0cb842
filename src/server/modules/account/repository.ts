import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import {
  defaultNotificationSettings,
  type Me,
  type NotificationSettings,
  notificationSettingsSchema,
  RESEND_COOLDOWN_SECONDS,
  type Theme,
  themeSchema,
} from "#domain/accounts";
import { DEFAULT_CURRENCY, isCurrencyCode } from "#domain/currency";
import type { UserRow } from "#server/auth/guards";
import type { Database } from "#server/db/client";
import { account, emailCodeSends, signInFailures, user, verification } from "#server/db/schema/auth";

export type CodePurpose = "verify" | "reset";

/**
 * Takes the one-per-minute sending slot for (email, purpose) atomically: one statement, so two
 * instances or two clicks cannot both send. Returns 0 when taken, else the seconds left to wait.
 */
export async function claimSendSlot(db: Database, email: string, purpose: CodePurpose, now = new Date()) {
  const threshold = new Date(now.getTime() - RESEND_COOLDOWN_SECONDS * 1000);
  const claimed = await db
    .insert(emailCodeSends)
    .values({ email, purpose, sentAt: now })
    .onConflictDoUpdate({
      target: [emailCodeSends.email, emailCodeSends.purpose],
      set: { sentAt: now },
      setWhere: sql`${emailCodeSends.sentAt} <= ${threshold.toISOString()}`,
    })
    .returning({ sentAt: emailCodeSends.sentAt });
  if (claimed.length > 0) return 0;
  const [row] = await db
    .select({ sentAt: emailCodeSends.sentAt })
    .from(emailCodeSends)
    .where(and(eq(emailCodeSends.email, email), eq(emailCodeSends.purpose, purpose)));
  const waited = row ? (now.getTime() - row.sentAt.getTime()) / 1000 : RESEND_COOLDOWN_SECONDS;
  return Math.max(1, Math.ceil(RESEND_COOLDOWN_SECONDS - waited));
}

/** Gives the slot back when the mail could not be sent, so the user may try again at once. */
export async function releaseSendSlot(db: Database, email: string, purpose: CodePurpose) {
  await db
    .delete(emailCodeSends)
    .where(and(eq(emailCodeSends.email, email), eq(emailCodeSends.purpose, purpose)));
}

export type SignInFailures = typeof signInFailures.$inferSelect;

export async function readSignInFailures(db: Database, key: string) {
  const [row] = await db.select().from(signInFailures).where(eq(signInFailures.key, key));
  return row ?? null;
}

/**
 * Moves the count from `expected` to `next.failures` only if no other attempt moved it first (compare
 * and set), so parallel guesses from many addresses cannot slip past a delay together.
 */
export async function advanceSignInFailures(
  db: Database,
  key: string,
  expected: number,
  next: { failures: number; nextAttemptAt: Date | null; updatedAt: Date },
) {
  const moved =
    expected === 0
      ? await db
          .insert(signInFailures)
          .values({ key, ...next })
          .onConflictDoNothing()
          .returning({ key: signInFailures.key })
      : await db
          .update(signInFailures)
          .set(next)
          .where(and(eq(signInFailures.key, key), eq(signInFailures.failures, expected)))
          .returning({ key: signInFailures.key });
  return moved.length > 0;
}

export async function clearSignInFailures(db: Database, key: string) {
  await db.delete(signInFailures).where(eq(signInFailures.key, key));
}

/**
 * The e-mail verification code still waiting for `email`, if it can still be used: not expired and
 * not used up by wrong guesses (better-auth keeps "<encrypted code>:<attempts>" in the row).
 */
export async function pendingVerification(db: Database, email: string, attemptsAllowed: number, now: Date) {
  const [row] = await db
    .select({ value: verification.value, expiresAt: verification.expiresAt })
    .from(verification)
    .where(eq(verification.identifier, `email-verification-otp-${email}`))
    .orderBy(sql`${verification.createdAt} desc`)
    .limit(1);
  if (!row || row.expiresAt <= now) return null;
  const attempts = Number(row.value.slice(row.value.lastIndexOf(":") + 1)) || 0;
  return attempts < attemptsAllowed ? { expiresAt: row.expiresAt } : null;
}

export async function findUserByEmail(db: Database, email: string) {
  const [row] = await db.select().from(user).where(eq(user.email, email));
  return row ?? null;
}

export async function findUserById(db: Database, id: string) {
  const [row] = await db.select().from(user).where(eq(user.id, id));
  return row ?? null;
}

export async function setCredentialPassword(db: Database, userId: string, passwordHash: string) {
  await db
    .update(account)
    .set({ password: passwordHash, updatedAt: new Date() })
    .where(and(eq(account.userId, userId), eq(account.providerId, "credential")));
}

export async function updateUser(db: Database, id: string, values: Partial<typeof user.$inferInsert>) {
  const [row] = await db
    .update(user)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(user.id, id))
    .returning();
  if (!row) throw new Error(`user ${id} vanished during an update`);
  return row;
}

/** What we keep in `users.settings`; anything else there is ignored. */
const storedSettings = z.object({
  theme: themeSchema.nullable().catch(null).default(null),
  notifications: notificationSettingsSchema
    .catch(defaultNotificationSettings)
    .default(defaultNotificationSettings),
});

export function readSettings(row: UserRow): {
  theme: Theme | null;
  notifications: NotificationSettings;
} {
  return storedSettings.parse(row.settings ?? {});
}

export function toMe(row: UserRow): Me {
  const settings = readSettings(row);
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    phone: row.phone,
    address: row.address,
    city: row.city,
    country: row.country,
    emailVerified: row.emailVerified,
    twoFactorEnabled: row.twoFactorEnabled,
    createdAt: row.createdAt.toISOString(),
    roles: {
      isBuyer: row.isBuyer,
      isSeller: row.isSeller,
      isReseller: row.isReseller,
      isAdmin: row.isAdmin,
      isSuperAdmin: row.isSuperAdmin,
    },
    preferences: {
      currency: isCurrencyCode(row.preferredCurrency) ? row.preferredCurrency : DEFAULT_CURRENCY,
      theme: settings.theme,
      notifications: settings.notifications,
    },
  };
}
