import { count, desc, eq } from "drizzle-orm";
import { type ApplicationStatus, INBOX_PAGE_SIZE } from "#domain/inbound";
import type { Db } from "#server/db/client";
import { user } from "#server/db/schema/auth";
import { contactMessages, newsletterSubscriptions, partnerApplications } from "#server/db/schema/inbound";

export type PartnerApplicationRow = typeof partnerApplications.$inferSelect;
export type SubscriptionRow = typeof newsletterSubscriptions.$inferSelect;

const offsetOf = (page: number) => (page - 1) * INBOX_PAGE_SIZE;
const totalOf = async (query: Promise<{ n: number }[]>) => (await query)[0]?.n ?? 0;

/** One page of contact messages, newest first, and how many there are. */
export async function listContactMessages(db: Db, page: number) {
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(contactMessages)
      .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
      .limit(INBOX_PAGE_SIZE)
      .offset(offsetOf(page)),
    totalOf(db.select({ n: count() }).from(contactMessages)),
  ]);
  return { rows, total };
}

/** One page of partner applications, newest first, optionally of one status, and how many match. */
export async function listPartnerApplications(db: Db, page: number, status?: ApplicationStatus) {
  const where = status ? eq(partnerApplications.status, status) : undefined;
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(partnerApplications)
      .where(where)
      .orderBy(desc(partnerApplications.createdAt), desc(partnerApplications.id))
      .limit(INBOX_PAGE_SIZE)
      .offset(offsetOf(page)),
    totalOf(db.select({ n: count() }).from(partnerApplications).where(where)),
  ]);
  return { rows, total };
}

/** The application's current status, locked until the transaction ends, or undefined. */
export async function lockPartnerApplicationStatus(tx: Db, id: string) {
  const [row] = await tx
    .select({ status: partnerApplications.status })
    .from(partnerApplications)
    .where(eq(partnerApplications.id, id))
    .for("update");
  return row;
}

export async function setPartnerApplicationStatus(tx: Db, id: string, status: ApplicationStatus) {
  const [row] = await tx
    .update(partnerApplications)
    .set({ status, updatedAt: new Date() })
    .where(eq(partnerApplications.id, id))
    .returning();
  return row;
}

/** The account registered with this (lower-cased) e-mail address, or undefined. */
export async function findAccountByEmail(tx: Db, email: string) {
  const [account] = await tx
    .select({ id: user.id, email: user.email, isSeller: user.isSeller })
    .from(user)
    .where(eq(user.email, email));
  return account;
}

export async function grantSeller(tx: Db, userId: string) {
  await tx.update(user).set({ isSeller: true, updatedAt: new Date() }).where(eq(user.id, userId));
}

/** One page of newsletter subscriptions, newest first, and how many there are. */
export async function listSubscriptions(db: Db, page: number) {
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(newsletterSubscriptions)
      .orderBy(desc(newsletterSubscriptions.createdAt), desc(newsletterSubscriptions.id))
      .limit(INBOX_PAGE_SIZE)
      .offset(offsetOf(page)),
    totalOf(db.select({ n: count() }).from(newsletterSubscriptions)),
  ]);
  return { rows, total };
}

/** Every subscription, by e-mail address (the CSV export filters the confirmed ones). */
export async function listAllSubscriptions(db: Db) {
  return db.select().from(newsletterSubscriptions).orderBy(newsletterSubscriptions.email);
}
