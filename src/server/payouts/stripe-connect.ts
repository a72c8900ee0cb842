import Stripe from "stripe";
import { addressOf, firstLine } from "#server/payments/stripe";
import { type PayoutRails, type StripeRailsConfig, TransferRefused } from "#server/payouts/transfers";

/**
 * Payouts through Stripe Connect with the official SDK: Express accounts able to receive transfers,
 * their hosted onboarding (Account Links), and transfers from the platform's balance. The accounts'
 * status arrives as `account.updated` at the Stripe webhook route (see `payments/stripe.ts`).
 */
export function createStripePayoutRails(config: StripeRailsConfig): PayoutRails {
  const stripe = new Stripe(config.secretKey, {
    timeout: 20_000,
    ...(config.apiBase ? addressOf(config.apiBase) : {}),
  });
  return {
    mode: "stripe",
    test: null,

    async createAccount(start) {
      const account = await stripe.accounts.create(
        {
          type: "express",
          email: start.email,
          country: start.country,
          capabilities: { transfers: { requested: true } },
          metadata: { userId: start.userId },
        },
        { idempotencyKey: start.idempotencyKey },
      );
      return { accountId: account.id };
    },

    async onboardingUrl(accountId, urls) {
      const link = await stripe.accountLinks.create({
        account: accountId,
        type: "account_onboarding",
        refresh_url: urls.refreshUrl,
        return_url: urls.returnUrl,
      });
      return link.url;
    },

    async createTransfer(transfer) {
      try {
        const created = await stripe.transfers.create(
          {
            amount: transfer.amountCents,
            currency: "usd",
            destination: transfer.accountId,
            metadata: { payoutId: transfer.payoutId },
          },
          { idempotencyKey: transfer.idempotencyKey },
        );
        return { transferId: created.id };
      } catch (error) {
        // Stripe refusing (no such account, transfers not enabled, too little balance) is an answer;
        // a network failure, an outage or a wrong key is thrown as it is, for a retry.
        if (error instanceof Stripe.errors.StripeInvalidRequestError)
          throw new TransferRefused(firstLine(error.message));
        throw error;
      }
    },
  };
}
