import { and, count, eq, gte, inArray, lt, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Database } from "#server/db/client";
import { refundPayouts, refundRequests } from "#server/db/schema/after-sale";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { contactMessages, partnerApplications } from "#server/db/schema/inbound";

async function countOf(db: Database, table: PgTable, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ n: count() }).from(table).where(where);
  return row?.n ?? 0;
}

/**
 * The overview's counts, each read from an index: users by `created_at`, the moderation queue's partial
 * index, refunds by `(status, created_at)`, messages by `created_at`.
 */
export async function overviewCounts(db: Database, bounds: { today: Date; month: Date; end: Date }) {
  const { today, month, end } = bounds;
  const [
    newUsersToday,
    newUsersMonth,
    pendingModeration,
    escalatedRefunds,
    payoutsToFix,
    messagesThisMonth,
    openApplications,
  ] = await Promise.all([
    countOf(db, user, and(gte(user.createdAt, today), lt(user.createdAt, end))),
    countOf(db, user, and(gte(user.createdAt, month), lt(user.createdAt, end))),
    countOf(db, products, eq(products.moderationStatus, "pending")),
    countOf(db, refundRequests, eq(refundRequests.status, "escalated")),
    countOf(db, refundPayouts, inArray(refundPayouts.state, ["failed", "awaiting_transfer"])),
    countOf(
      db,
      contactMessages,
      and(gte(contactMessages.createdAt, month), lt(contactMessages.createdAt, end)),
    ),
    countOf(db, partnerApplications, inArray(partnerApplications.status, ["new", "reviewing"])),
  ]);
  return {
    newUsersToday,
    newUsersMonth,
    pendingModeration,
    escalatedRefunds,
    payoutsToFix,
    messagesThisMonth,
    openApplications,
  };
}
