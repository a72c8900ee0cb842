import { formatDateTime } from "#domain/dates";
import type { NotificationInput } from "#domain/notifications";
import { REFUND_PAYOUT_NOTE, type RefundMessageAuthor } from "#domain/refunds";
import { paths } from "#domain/routes";

/**
 * What each step of a refund request tells the person who acts next; `notify` shows it in their list
 * and e-mails it.
 */

/** To the seller (or, for an item Stackbay sells itself, the admins): a buyer asked for a refund and the deadline. */
export function refundRequestedNotice(
  product: string,
  reason: string,
  dueAt: Date,
  answeredBy: "seller" | "admin",
): NotificationInput {
  return {
    kind: "refund_requested",
    title: `Refund requested: ${product}`,
    body: [
      `A buyer asked for a refund of ${product}.`,
      `Their reason: ${reason}`,
      `Please approve or decline it by ${formatDateTime(dueAt)} (3 business days), or write to the buyer in the request's messages to offer a fix or explain why. If you don't answer, the buyer can take it to Stackbay for a final review.`,
    ],
    link: answeredBy === "seller" ? paths.dashboard("refunds") : paths.admin.refunds(),
    action: "Answer the request",
  };
}

/** To the admins: a buyer took a declined or unanswered request to Stackbay for the final decision. */
export function refundEscalatedNotice(product: string, reason: string): NotificationInput {
  return {
    kind: "refund_escalated",
    title: `Refund to review: ${product}`,
    body: [
      `A buyer asked Stackbay for a final review of their refund request for ${product}.`,
      `Their reason: ${reason}`,
      "Read the request and its messages, then approve or decline it.",
    ],
    link: paths.admin.refunds(),
    action: "Review the request",
  };
}

/** To the buyer: the outcome of a step in their refund request. */
export function refundOutcomeNotice(
  outcome: "approved" | "seller_rejected" | "rejected",
  product: string,
  note: string | null,
): NotificationInput {
  const because = note ? [`Note: ${note}`] : [];
  const base = {
    kind: "refund_decided" as const,
    link: paths.dashboard("refunds"),
    action: "See your request",
  };
  if (outcome === "approved") {
    return {
      ...base,
      title: `Your refund for ${product} is approved`,
      body: [`Your refund for ${product} has been approved.`, ...because, REFUND_PAYOUT_NOTE],
    };
  }
  if (outcome === "seller_rejected") {
    return {
      ...base,
      title: `The seller declined your refund for ${product}`,
      body: [
        `The seller declined your refund request for ${product}.`,
        ...because,
        "If you disagree, you can ask Stackbay for a final review from your refund requests.",
      ],
    };
  }
  return {
    ...base,
    title: `Your refund request for ${product} was declined`,
    body: [`After reviewing both sides, Stackbay declined the refund for ${product}.`, ...because],
  };
}

const writerName: Record<RefundMessageAuthor, string> = {
  buyer: "The buyer",
  seller: "The seller",
  admin: "Stackbay",
};

/** To the other parties of a refund request: a new message in its thread. */
export function refundMessageNotice(
  product: string,
  from: RefundMessageAuthor,
  body: string,
  readerSees: "buyer" | "seller" | "admin",
): NotificationInput {
  return {
    kind: "refund_message",
    title: `New message about the refund of ${product}`,
    body: [`${writerName[from]} wrote about the refund request for ${product}:`, body],
    link: readerSees === "admin" ? paths.admin.refunds() : paths.dashboard("refunds"),
    action: "Read and reply",
  };
}
