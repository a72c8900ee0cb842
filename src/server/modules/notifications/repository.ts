import { and, count, desc, eq, isNotNull, isNull, or } from "drizzle-orm";
import { NOTIFICATIONS_PAGE_SIZE, type Notification, type NotificationKind } from "#domain/notifications";
import type { Db, Transaction } from "#server/db/client";
import { user } from "#server/db/schema/auth";
import { notifications } from "#server/db/schema/notifications";
import { orderItems } from "#server/db/schema/orders";

export type NewNotification = typeof notifications.$inferInsert;

export async function insertNotifications(tx: Transaction, rows: NewNotification[]) {
  if (rows.length === 0) return [];
  return tx.insert(notifications).values(rows).returning({ id: notifications.id });
}

/** Every account that works the admin queues (moderation, escalated refunds, the inbox); banned ones left out. */
export async function adminIds(db: Db): Promise<string[]> {
  const rows = await db
    .select({ id: user.id })
    .from(user)
    .where(and(or(eq(user.isAdmin, true), eq(user.isSuperAdmin, true)), eq(user.banned, false)));
  return rows.map((row) => row.id);
}

const toNotification = (row: typeof notifications.$inferSelect): Notification => ({
  id: row.id,
  kind: row.kind as NotificationKind,
  title: row.title,
  body: row.body,
  link: row.link,
  action: row.action,
  read: row.readAt !== null,
  createdAt: row.createdAt.toISOString(),
});

/** One page of a person's own notifications, newest first. */
export async function listNotifications(db: Db, userId: string, page: number) {
  const mine = eq(notifications.userId, userId);
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(notifications)
      .where(mine)
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(NOTIFICATIONS_PAGE_SIZE)
      .offset((page - 1) * NOTIFICATIONS_PAGE_SIZE),
    db.select({ n: count() }).from(notifications).where(mine),
  ]);
  return {
    items: rows.map(toNotification),
    total: counted?.n ?? 0,
    page,
    pageSize: NOTIFICATIONS_PAGE_SIZE,
  };
}

export async function unreadCount(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

/** Marks one of the person's own notifications read; false when it is not theirs (or does not exist). */
export async function markRead(db: Db, userId: string, id: string, now: Date): Promise<boolean> {
  const [own] = await db
    .select({ readAt: notifications.readAt })
    .from(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)));
  if (!own) return false;
  if (own.readAt === null)
    await db
      .update(notifications)
      .set({ readAt: now })
      .where(and(eq(notifications.id, id), eq(notifications.userId, userId), isNull(notifications.readAt)));
  return true;
}

export async function markAllRead(db: Db, userId: string, now: Date) {
  await db
    .update(notifications)
    .set({ readAt: now })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
}

/** What the e-mail of a notification is made from, with its reader's current address. */
export async function findNotificationMail(db: Db, id: string) {
  const [row] = await db
    .select({
      title: notifications.title,
      body: notifications.body,
      link: notifications.link,
      action: notifications.action,
      email: user.email,
      firstName: user.firstName,
    })
    .from(notifications)
    .innerJoin(user, eq(user.id, notifications.userId))
    .where(eq(notifications.id, id));
  return row ?? null;
}

/** The lines of an order that have a seller: what each seller sold, and whether it ships. */
export async function sellerLinesOfOrder(db: Db, orderId: string) {
  return db
    .select({
      sellerId: orderItems.sellerId,
      productName: orderItems.productName,
      quantity: orderItems.quantity,
      price: orderItems.price,
      shippingState: orderItems.shippingState,
    })
    .from(orderItems)
    .where(and(eq(orderItems.orderId, orderId), isNotNull(orderItems.sellerId)))
    .orderBy(orderItems.id);
}
