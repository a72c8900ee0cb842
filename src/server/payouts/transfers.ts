import { createHmac } from "node:crypto";
import { paths } from "#domain/routes";
import { type Env, publicUrl } from "#server/env";

/**
 * The provider calls that pay sellers and resellers: opening a Stripe Connect (Express) account and its
 * hosted onboarding, and transferring money to a connected account. The payout batches call
 * `createTransfer`; the payout-accounts module calls the rest. Built from configuration at boot
 * (`payoutRailsFromEnv`) and available as `app.payoutRails`: Stripe when STRIPE_SECRET_KEY is set,
 * else test mode, which follows the same path with our own hosted onboarding page.
 */

export type ConnectAccountStart = {
  userId: string;
  email: string;
  /** ISO 3166-1 alpha-2; Stripe asks for the rest on its onboarding page. */
  country: string;
  /** Kept on our row from the first attempt, so a retry opens no second account. */
  idempotencyKey: string;
};

export type TransferRequest = {
  /** Our payout's id, echoed in the transfer's metadata. */
  payoutId: string;
  /** The connected account (`acct_…`) the money goes to. */
  accountId: string;
  /** Whole US cents, positive. */
  amountCents: number;
  /** The same key for every retry of one payout, so it is never paid twice. */
  idempotencyKey: string;
};

/** Thrown by `createTransfer` when the provider refuses it; `reason` is the provider's own words. */
export class TransferRefused extends Error {
  readonly reason: string;

  constructor(reason: string) {
    super(`transfer refused: ${reason}`);
    this.name = "TransferRefused";
    this.reason = reason;
  }
}

export type PayoutRails = {
  readonly mode: "stripe" | "test";
  /** Opens (or, for the same key, answers again) an Express account able to receive transfers. */
  createAccount(start: ConnectAccountStart): Promise<{ accountId: string }>;
  /** A one-time link to the account's hosted onboarding; it returns the user to `returnUrl`. */
  onboardingUrl(accountId: string, urls: { returnUrl: string; refreshUrl: string }): Promise<string>;
  /**
   * Moves money from the platform's balance to the connected account. Throws `TransferRefused` with
   * the provider's reason when it refuses; anything else thrown (network, outage) is worth a retry
   * with the same idempotency key.
   */
  createTransfer(transfer: TransferRequest): Promise<{ transferId: string }>;
  /** Test mode only: what tests (or a person trying failure paths) can make the rails do. */
  test: TestRailsControls | null;
};

export type TestRailsControls = {
  /** The next transfer is refused with this reason. */
  failNextTransfer: string | null;
  /** Every transfer answered so far, by idempotency key, as Stripe would keep them. */
  transfers: Map<string, TransferRequest & { transferId: string }>;
};

const digest = (secret: string, purpose: string, key: string) =>
  createHmac("sha256", secret).update(`${purpose}:${key}`).digest("hex").slice(0, 24);

/**
 * Test mode: accounts `acct_test_…` derived from their idempotency key (the same key, the same
 * account, as Stripe answers), onboarding on our own page `/pay/test/connect/:accountId`, and transfers
 * that succeed at once (`tr_test_…`, again one per key) unless `failNextTransfer` is set or the amount
 * is not a positive whole number of cents. No money moves.
 */
export function createTestPayoutRails(deps: { secret: string; publicUrl: string }): PayoutRails {
  const base = deps.publicUrl.replace(/\/$/, "");
  const controls: TestRailsControls = { failNextTransfer: null, transfers: new Map() };
  return {
    mode: "test",
    test: controls,
    async createAccount(start) {
      return { accountId: `acct_test_${digest(deps.secret, "account", start.idempotencyKey)}` };
    },
    async onboardingUrl(accountId) {
      return `${base}${paths.testConnect(accountId)}`;
    },
    async createTransfer(transfer) {
      const done = controls.transfers.get(transfer.idempotencyKey);
      if (done) return { transferId: done.transferId };
      if (controls.failNextTransfer !== null) {
        const reason = controls.failNextTransfer;
        controls.failNextTransfer = null;
        throw new TransferRefused(reason);
      }
      if (!Number.isSafeInteger(transfer.amountCents) || transfer.amountCents <= 0)
        throw new TransferRefused(`Invalid amount: ${transfer.amountCents} cents (test mode)`);
      if (!transfer.accountId.startsWith("acct_test_"))
        throw new TransferRefused(`No such destination: '${transfer.accountId}' (test mode)`);
      const transferId = `tr_test_${digest(deps.secret, "transfer", transfer.idempotencyKey)}`;
      controls.transfers.set(transfer.idempotencyKey, { ...transfer, transferId });
      return { transferId };
    },
  };
}

export type StripeRailsConfig = { secretKey: string; apiBase?: string };

/** Stripe when its key is set (the Stripe adapter passed in, so tests can point it elsewhere), else test mode. */
export function payoutRailsFromEnv(
  env: Env,
  deps: { testSecret: string; stripe: (config: StripeRailsConfig) => PayoutRails },
): PayoutRails {
  if (env.STRIPE_SECRET_KEY)
    return deps.stripe({
      secretKey: env.STRIPE_SECRET_KEY,
      ...(env.STRIPE_API_BASE ? { apiBase: env.STRIPE_API_BASE } : {}),
    });
  return createTestPayoutRails({ secret: deps.testSecret, publicUrl: publicUrl(env) });
}
