import { z } from "zod";
import { paged } from "#domain/paging";

/** What a notification is about; each asks its reader to act, or tells them the outcome of their request. */
export const notificationKinds = [
  "sale",
  "refund_requested",
  "refund_escalated",
  "refund_decided",
  "refund_message",
  "listing_decided",
  "storefront_decided",
  "listing_review",
  "storefront_review",
  "payout_sent",
  "payout_failed",
  "question_asked",
  "usage_alert",
  "webhook_disabled",
] as const;
export type NotificationKind = (typeof notificationKinds)[number];

/** What a notification says: a title (also its e-mail's subject), paragraphs, and where to act. */
export type NotificationInput = {
  kind: NotificationKind;
  title: string;
  body: string[];
  /** A path of the app (`paths.…`). */
  link: string;
  /** The words of the link, e.g. "Answer the request". */
  action: string;
};

export const notificationSchema = z.object({
  id: z.string(),
  kind: z.enum(notificationKinds),
  title: z.string(),
  body: z.string(),
  /** A path of the app, where the reader acts on it. */
  link: z.string(),
  action: z.string(),
  read: z.boolean(),
  createdAt: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationListSchema = paged(notificationSchema);
export type NotificationList = z.infer<typeof notificationListSchema>;

export const unreadCountSchema = z.object({ unread: z.number() });
export type UnreadCount = z.infer<typeof unreadCountSchema>;

export const NOTIFICATIONS_PAGE_SIZE = 20;
