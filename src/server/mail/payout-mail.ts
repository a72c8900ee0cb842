import { message } from "#server/mail/templates";

/**
 * To the account's own address whenever its payout details change: money sent to someone else's
 * account is the loss this notice exists to stop, so it says what changed and what to do if it
 * wasn't them. It names the account only by its last four characters.
 */
export function payoutDetailsChangedMail(input: {
  firstName: string;
  change: string;
  /** Where payouts went before the change (masked), or null when there were no payout details. */
  previous: string | null;
  /** The first moment payouts go to the new details, or null when nothing new will be paid. */
  heldUntil: string | null;
  walletUrl: string;
  supportEmail: string;
}) {
  return {
    subject: "Your payout details were changed",
    ...message(
      [
        input.firstName ? `Hi ${input.firstName},` : "Hi,",
        `The payout details of your Stackbay account were just changed: ${input.change}.`,
        input.previous
          ? `Before this change, payouts went to ${input.previous}.`
          : "You had no payout details before this change.",
        ...(input.heldUntil
          ? [`For your safety, no payout is made to the new details before ${input.heldUntil}.`]
          : []),
        `If you didn't do this, sign in and check your payout method at once, change your password and write to ${input.supportEmail}.`,
      ],
      { label: "Review your payout method", url: input.walletUrl },
    ),
  };
}
