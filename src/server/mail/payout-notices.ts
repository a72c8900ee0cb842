import { formatUsd } from "#domain/money";
import type { NotificationInput } from "#domain/notifications";
import { paths } from "#domain/routes";

/** Every payout notice leads to the wallet, where balances and payouts are. */
const wallet = { link: paths.dashboard("wallet"), action: "View your earnings" };

/** To the payee, when a batch approves their payout. */
export function payoutSentNotice(amount: number, destination: string): NotificationInput {
  return {
    kind: "payout_sent",
    title: `A payout of ${formatUsd(amount)} is on its way`,
    body: [
      `Stackbay approved a payout of ${formatUsd(amount)} to ${destination}.`,
      "We will tell you again when it has arrived or if the transfer fails.",
    ],
    ...wallet,
  };
}

/** To the payee: the money arrived. */
export function payoutPaidNotice(amount: number, destination: string, reference: string): NotificationInput {
  return {
    kind: "payout_sent",
    title: `Your payout of ${formatUsd(amount)} was paid`,
    body: [`Your payout of ${formatUsd(amount)} to ${destination} was paid.`, `Reference: ${reference}`],
    ...wallet,
  };
}

/** To the payee: the transfer failed and the money is back in their balance. */
export function payoutFailedNotice(amount: number, destination: string, reason: string): NotificationInput {
  return {
    kind: "payout_failed",
    title: `Your payout of ${formatUsd(amount)} could not be made`,
    body: [
      `We could not pay ${formatUsd(amount)} to ${destination}.`,
      `Reason: ${reason}`,
      "The amount is back in your available balance and will be paid in the next payout. Please check your payout details.",
    ],
    ...wallet,
  };
}
