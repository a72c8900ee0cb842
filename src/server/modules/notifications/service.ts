import { formatUsd, lineTotal } from "#domain/money";
import type { NotificationInput } from "#domain/notifications";
import { absoluteUrl, paths } from "#domain/routes";
import type { Database, Transaction } from "#server/db/client";
import type { JobQueue } from "#server/jobs/queue";
import { MAIL_QUEUE, type Mail, type MailJob } from "#server/mail/mailer";
import { notificationMail } from "#server/mail/notification-mail";
import {
  adminIds,
  findNotificationMail,
  insertNotifications,
  sellerLinesOfOrder,
} from "#server/modules/notifications/repository";

/**
 * Records a notification for each recipient and queues its e-mail, in the caller's transaction: if the
 * event that causes it rolls back, neither the notification nor the e-mail exists. The e-mail is
 * rendered from the stored notification when the mail job sends it (to the reader's address then).
 */
export async function notify(
  jobs: JobQueue,
  tx: Transaction,
  recipients: string | readonly (string | null | undefined)[] | null | undefined,
  input: NotificationInput,
  now = new Date(),
): Promise<void> {
  const list = typeof recipients === "string" ? [recipients] : (recipients ?? []);
  const userIds = [...new Set(list.filter((id): id is string => Boolean(id)))];
  const rows = await insertNotifications(
    tx,
    userIds.map((userId) => ({
      userId,
      kind: input.kind,
      title: input.title,
      body: input.body.join("\n\n"),
      link: input.link,
      action: input.action,
      createdAt: now,
    })),
  );
  for (const row of rows) {
    const job: MailJob = { kind: "notification", notificationId: row.id };
    await jobs.send(MAIL_QUEUE, job, { tx });
  }
}

/** Notifies every admin (not `except`, the admin whose own step caused it). */
export async function notifyAdmins(
  jobs: JobQueue,
  tx: Transaction,
  input: NotificationInput,
  options: { except?: string; now?: Date } = {},
): Promise<void> {
  const ids = (await adminIds(tx)).filter((id) => id !== options.except);
  await notify(jobs, tx, ids, input, options.now);
}

/** The e-mail of a stored notification; null if it is gone (its account was deleted before it was sent). */
export async function renderNotificationMail(
  db: Database,
  baseUrl: string,
  notificationId: string,
): Promise<Mail | null> {
  const row = await findNotificationMail(db, notificationId);
  if (!row) return null;
  return {
    to: row.email,
    ...notificationMail({
      firstName: row.firstName,
      title: row.title,
      body: row.body,
      action: { label: row.action, url: absoluteUrl(baseUrl, row.link) },
    }),
  };
}

/**
 * A paid order tells each of its sellers what they sold, in the delivery's transaction; a seller with
 * items to ship is asked to ship them, with a link to their To ship list.
 */
export async function notifySellersOfSale(jobs: JobQueue, tx: Transaction, orderId: string, now: Date) {
  const lines = await sellerLinesOfOrder(tx, orderId);
  const bySeller = new Map<string, typeof lines>();
  for (const line of lines) {
    if (line.sellerId) bySeller.set(line.sellerId, [...(bySeller.get(line.sellerId) ?? []), line]);
  }
  const order = orderId.slice(0, 8).toUpperCase();
  for (const [sellerId, sold] of bySeller) {
    const toShip = sold.filter((line) => line.shippingState === "awaiting_shipment");
    const first = sold[0]?.productName ?? "";
    const what = sold.length === 1 ? first : `${first} and ${sold.length - 1} more`;
    await notify(
      jobs,
      tx,
      sellerId,
      {
        kind: "sale",
        title: toShip.length > 0 ? `New order to ship: ${what}` : `New sale: ${what}`,
        body: [
          `A buyer paid for order ${order}:`,
          sold
            .map(
              (line) =>
                `${line.productName} × ${line.quantity}: ${formatUsd(lineTotal(line.price, line.quantity))}`,
            )
            .join("\n"),
          ...(toShip.length > 0
            ? [
                `Please ship ${toShip.length === 1 ? "this item" : "these items"} to the buyer and mark ${toShip.length === 1 ? "it" : "them"} shipped with the tracking details: ${toShip.map((line) => line.productName).join(", ")}.`,
              ]
            : []),
        ],
        link: toShip.length > 0 ? paths.dashboard("shipping") : paths.dashboard("earnings"),
        action: toShip.length > 0 ? "Ship the order" : "See your earnings",
      },
      now,
    );
  }
}
