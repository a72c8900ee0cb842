import { formatUsd } from "#domain/money";
import { message } from "#server/mail/templates";

type Link = { label: string; url: string };

/** To the payee, when a batch approves their payout. */
export function payoutSentMail(amount: number, destination: string, link: Link) {
  return {
    subject: `A payout of ${formatUsd(amount)} is on its way`,
    ...message(
      [
        `Stackbay approved a payout of ${formatUsd(amount)} to ${destination}.`,
        "We will e-mail you again when it has arrived or if the transfer fails.",
      ],
      link,
    ),
  };
}

/** To the payee: the money arrived. */
export function payoutPaidMail(amount: number, destination: string, reference: string, link: Link) {
  return {
    subject: `Your payout of ${formatUsd(amount)} was paid`,
    ...message(
      [`Your payout of ${formatUsd(amount)} to ${destination} was paid.`, `Reference: ${reference}`],
      link,
    ),
  };
}

/** To the payee: the transfer failed and the money is back in their balance. */
export function payoutFailedMail(amount: number, destination: string, reason: string, link: Link) {
  return {
    subject: `Your payout of ${formatUsd(amount)} could not be made`,
    ...message(
      [
        `We could not pay ${formatUsd(amount)} to ${destination}.`,
        `Reason: ${reason}`,
        "The amount is back in your available balance and will be paid in the next payout. Please check your payout details.",
      ],
      link,
    ),
  };
}
