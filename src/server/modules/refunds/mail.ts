import { formatDateTime } from "#domain/dates";
import { REFUND_PAYOUT_NOTE } from "#domain/refunds";
import { message } from "#server/mail/templates";

type Link = { label: string; url: string };

/** To the seller: a buyer asked for a refund and the seller's deadline. */
export function refundRequestedMail(product: string, reason: string, dueAt: Date, link: Link) {
  return {
    subject: `Refund requested: ${product}`,
    ...message(
      [
        `A buyer asked for a refund of ${product}.`,
        `Their reason: ${reason}`,
        `Please approve or decline it by ${formatDateTime(dueAt)} (3 business days). If you don't answer, the buyer can take it to Stackbay for a final review.`,
      ],
      link,
    ),
  };
}

/** To the buyer: the outcome of a step in their refund request. */
export function refundOutcomeMail(
  outcome: "approved" | "seller_rejected" | "rejected",
  product: string,
  note: string | null,
  link: Link,
) {
  const because = note ? [`Note: ${note}`] : [];
  if (outcome === "approved") {
    return {
      subject: `Your refund for ${product} is approved`,
      ...message([`Your refund for ${product} has been approved.`, ...because, REFUND_PAYOUT_NOTE], link),
    };
  }
  if (outcome === "seller_rejected") {
    return {
      subject: `The seller declined your refund for ${product}`,
      ...message(
        [
          `The seller declined your refund request for ${product}.`,
          ...because,
          "If you disagree, you can ask Stackbay for a final review from the order in your dashboard.",
        ],
        link,
      ),
    };
  }
  return {
    subject: `Your refund request for ${product} was declined`,
    ...message(
      [`After reviewing both sides, Stackbay declined the refund for ${product}.`, ...because],
      link,
    ),
  };
}
