import { type PayoutDestination, payoutBuyerText } from "#domain/refunds";
import { message } from "#server/mail/templates";

/**
 * To the buyer when the money of an approved refund has gone back: how much, where and when, in the
 * words their order page uses.
 */
export function refundSentMail(input: {
  name: string;
  productName: string;
  amountCents: number;
  destination: PayoutDestination;
  sentAt: string;
  link: { label: string; url: string };
}) {
  const sent = payoutBuyerText({
    state: "succeeded",
    amountCents: input.amountCents,
    destination: input.destination,
    completedAt: input.sentAt,
  });
  const arrives =
    input.destination === "bank"
      ? "Bank transfers usually arrive within 1–3 business days."
      : "It can take 5–10 business days to appear on your statement.";
  return {
    subject: `Your refund for ${input.productName} has been sent`,
    ...message(
      [input.name ? `Hi ${input.name},` : "Hi,", `${sent}, for ${input.productName}.`, arrives],
      input.link,
    ),
  };
}
