import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { formatDateTime } from "#domain/dates";
import {
  type BankAccount,
  maskAccount,
  maskBankAccount,
  type PayoutAccount,
  payoutHoldEnds,
  type StripeAccountStatus,
  type TestConnectAccount,
  type TestOnboardingChoice,
  testConnectAccountSchema,
} from "#domain/payouts";
import { absoluteUrl, paths } from "#domain/routes";
import type { Database, Transaction } from "#server/db/client";
import { publicUrl } from "#server/env";
import { AppError, NotFound } from "#server/errors";
import { type AuditActor, recordAudit } from "#server/lib/audit";
import { seal, unseal } from "#server/lib/sealed";
import type { Mailer } from "#server/mail/mailer";
import { payoutDetailsChangedMail } from "#server/mail/payout-mail";
import {
  accountContact,
  applyStripeStatus,
  deletePayoutAccount,
  findPayoutAccount,
  lockPayoutAccount,
  type PayoutAccountRow,
  setStripeAccountId,
  writeBankAccount,
  writeStripeStart,
} from "#server/modules/payout-accounts/repository";
import type { TestAccountEvent } from "#server/payments/test-provider";
import type { PayoutRails } from "#server/payouts/transfers";

/** The purpose bank details are sealed under: a key of its own, derived from AUTH_SECRET. */
const SEAL_PURPOSE = "payout-bank-account";

export type PayoutAccountDeps = {
  db: Database;
  rails: PayoutRails;
  /** AUTH_SECRET: the sealing key is derived from it. */
  secret: string;
  mailer: Mailer;
  /** The site's public origin: Stripe sends the user back to it after onboarding. */
  origin: string;
  supportEmail: string;
  /** PAYOUT_COOLING_OFF_HOURS: how long after a change payouts wait. */
  coolingOffHours: number;
};

export function payoutAccountDepsOf(app: FastifyInstance): PayoutAccountDeps {
  if (!app.env.AUTH_SECRET) throw new Error("AUTH_SECRET must be set to keep payout details");
  return {
    db: app.database.db,
    rails: app.payoutRails,
    secret: app.env.AUTH_SECRET,
    mailer: app.mailer,
    origin: publicUrl(app.env),
    supportEmail: app.env.SUPPORT_EMAIL,
    coolingOffHours: app.env.PAYOUT_COOLING_OFF_HOURS,
  };
}

export type Owner = AuditActor;

/** What the owner sees: the method, Stripe's status or the masked account; never the number. */
export function viewOf(row: PayoutAccountRow | undefined): PayoutAccount | null {
  if (!row) return null;
  if (row.method === "stripe")
    return {
      method: "stripe",
      status: (row.stripeStatus ?? "onboarding") as StripeAccountStatus,
      requirements: row.stripeRequirements,
      updatedAt: row.updatedAt.toISOString(),
    };
  return {
    method: "bank",
    country: row.country ?? "",
    masked: row.bankMasked ?? "",
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The audit trail's picture of the row: which method and which account, never the number itself. */
function auditSnapshot(row: PayoutAccountRow | undefined): Record<string, unknown> | null {
  if (!row) return null;
  return row.method === "stripe"
    ? { method: "stripe", stripeAccountId: row.stripeAccountId, status: row.stripeStatus }
    : { method: "bank", account: row.bankMasked, country: row.country };
}

/** Where a row sends payouts, masked, for the change notice. */
function describe(row: PayoutAccountRow): string {
  if (row.method === "bank") return `the bank account ${row.bankMasked}`;
  return row.stripeAccountId
    ? `the Stripe account ${maskAccount(row.stripeAccountId)}`
    : "a Stripe account being set up";
}

async function auditAndNotify(
  deps: PayoutAccountDeps,
  tx: Transaction,
  actor: AuditActor,
  before: PayoutAccountRow | undefined,
  after: PayoutAccountRow | undefined,
  change: string,
) {
  await recordAudit(tx, actor, {
    action: !before ? "create" : !after ? "delete" : "update",
    entityType: "payout_account",
    entityId: actor.id,
    entityLabel: actor.email,
    before: auditSnapshot(before),
    after: auditSnapshot(after),
  });
  const contact = await accountContact(tx, actor.id);
  if (!contact) return;
  // Queued in the same transaction: the notice goes exactly when the change is kept.
  await deps.mailer.send(
    {
      to: contact.email,
      ...payoutDetailsChangedMail({
        firstName: contact.firstName,
        change,
        previous: before ? describe(before) : null,
        heldUntil:
          after && deps.coolingOffHours > 0
            ? formatDateTime(payoutHoldEnds(after.detailsChangedAt, deps.coolingOffHours))
            : null,
        walletUrl: absoluteUrl(deps.origin, paths.dashboard("wallet")),
        supportEmail: deps.supportEmail,
      }),
    },
    { tx },
  );
}

export async function myPayoutAccount(
  deps: PayoutAccountDeps,
  userId: string,
): Promise<PayoutAccount | null> {
  return viewOf(await findPayoutAccount(deps.db, userId));
}

/** Saves a bank account in place of whatever the owner had; the details are sealed, the number masked. */
export async function saveBankAccount(
  deps: PayoutAccountDeps,
  owner: Owner,
  account: BankAccount,
  now = new Date(),
): Promise<PayoutAccount> {
  const masked = maskBankAccount(account);
  const row = await deps.db.transaction(async (tx) => {
    const before = await lockPayoutAccount(tx, owner.id);
    const after = await writeBankAccount(tx, owner.id, {
      sealed: seal(deps.secret, SEAL_PURPOSE, JSON.stringify(account)),
      masked,
      country: account.country,
      now,
    });
    await auditAndNotify(deps, tx, owner, before, after, `payouts now go to the bank account ${masked}`);
    return after;
  });
  const view = viewOf(row);
  if (!view) throw new Error("saved payout account has no view");
  return view;
}

export class CountryRequired extends AppError {
  constructor() {
    super(400, "COUNTRY_REQUIRED", "Choose the country you live in or your business is registered in.");
  }
}

/**
 * Sends the owner to Stripe's onboarding: for the connected account they have, or a new Express
 * account (in `country`) that replaces a bank account. The account's key is written first, so a retry
 * after a crash or a second click opens the same Stripe account, not another one.
 */
export async function startOnboarding(
  deps: PayoutAccountDeps,
  owner: Owner,
  country: string | undefined,
  now = new Date(),
): Promise<string> {
  const row = await deps.db.transaction(async (tx) => {
    const before = await lockPayoutAccount(tx, owner.id);
    if (before?.method === "stripe") return before;
    if (!country) throw new CountryRequired();
    const after = await writeStripeStart(tx, owner.id, {
      key: `connect-account:${owner.id}:${randomUUID()}`,
      country,
      now,
    });
    await auditAndNotify(deps, tx, owner, before, after, "payouts now go to a Stripe account being set up");
    return after;
  });
  let accountId = row.stripeAccountId;
  if (!accountId) {
    const key = row.stripeAccountKey;
    if (!key || !row.country) throw new Error("a Stripe payout account without its key or country");
    const contact = await accountContact(deps.db, owner.id);
    ({ accountId } = await deps.rails.createAccount({
      userId: owner.id,
      email: contact?.email ?? owner.email,
      // The first attempt's country: Stripe answers a retried key only for the same parameters.
      country: row.country,
      idempotencyKey: key,
    }));
    await setStripeAccountId(deps.db, owner.id, key, accountId);
  }
  const wallet = absoluteUrl(deps.origin, paths.dashboard("wallet"));
  return deps.rails.onboardingUrl(accountId, {
    returnUrl: `${wallet}?stripe=return`,
    refreshUrl: `${wallet}?stripe=refresh`,
  });
}

const noPayoutAccount = () =>
  new NotFound("You have no payout method to remove.", "PAYOUT_ACCOUNT_NOT_FOUND");

export async function removePayoutAccount(deps: PayoutAccountDeps, owner: Owner): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const before = await lockPayoutAccount(tx, owner.id);
    if (!before) throw noPayoutAccount();
    await deletePayoutAccount(tx, owner.id);
    const what = before.method === "bank" ? `the bank account ${before.bankMasked}` : "your Stripe account";
    await auditAndNotify(deps, tx, owner, before, undefined, `${what} was removed`);
  });
}

/** A verified `account.updated` from the webhook route, in its transaction (the event is stored once). */
export async function applyAccountEvent(
  tx: Transaction,
  event: { accountId: string; status: StripeAccountStatus; requirements: string[]; occurredAt: Date },
): Promise<"applied" | "stale" | "unknown"> {
  return applyStripeStatus(tx, event);
}

/**
 * Bank details sealed as this module seals them (on the payout details, or the copy a payout batch
 * keeps of them): for the bank payment file only, never for an answer or a log line.
 */
export function unsealBankAccount(secret: string, sealed: string): BankAccount {
  return JSON.parse(unseal(secret, SEAL_PURPOSE, sealed)) as BankAccount;
}

const testAccountNotFound = () => new NotFound("Connected account not found.", "CONNECT_ACCOUNT_NOT_FOUND");

/** Test mode's onboarding page: the owner's own test account only; anyone else's is as absent as none. */
export async function testConnectAccount(
  deps: PayoutAccountDeps,
  userId: string,
  accountId: string,
): Promise<TestConnectAccount> {
  const row = await findPayoutAccount(deps.db, userId);
  if (row?.method !== "stripe" || row.stripeAccountId !== accountId) throw testAccountNotFound();
  return testConnectAccountSchema.parse({ accountId, status: row.stripeStatus ?? "onboarding" });
}

/**
 * The owner finishes (or leaves) test onboarding: answers where to send them (the return URL, as
 * Stripe does) and the `account.updated` event test mode's Stripe sends about it.
 */
export async function decideTestOnboarding(
  deps: PayoutAccountDeps,
  userId: string,
  accountId: string,
  choice: TestOnboardingChoice,
  now = new Date(),
): Promise<{ redirectUrl: string; event: TestAccountEvent }> {
  await testConnectAccount(deps, userId, accountId);
  const complete = choice === "complete";
  return {
    redirectUrl: `${absoluteUrl(deps.origin, paths.dashboard("wallet"))}?stripe=return`,
    event: {
      id: `evt_test_${randomUUID()}`,
      type: "account.updated",
      created: Math.floor(now.getTime() / 1000),
      data: {
        accountId,
        payoutsEnabled: complete,
        detailsSubmitted: complete,
        currentlyDue: complete ? [] : ["external_account", "individual.verification.document"],
      },
    },
  };
}
