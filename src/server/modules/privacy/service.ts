import { randomUUID } from "node:crypto";
import { type AccountExport, type DeletionBlocker, hasRole } from "#domain/accounts";
import { accountId } from "#domain/ledger";
import type { UserRow } from "#server/auth/guards";
import type { Database } from "#server/db/client";
import { AppError } from "#server/errors";
import type { JobDefinition, JobQueue } from "#server/jobs/queue";
import { recordAudit } from "#server/lib/audit";
import type { Clock } from "#server/lib/clock";
import type { Mailer } from "#server/mail/mailer";
import { toMe } from "#server/modules/account/repository";
import { lockMethodsOf } from "#server/modules/payment-methods/repository";
import { forgetAtProvider } from "#server/modules/payment-methods/service";
import {
  anonymiseAuditTrail,
  anonymiseDormantTrials,
  anonymiseOrders,
  closeShop,
  commissionsOf,
  eraseIdentity,
  firstOpenOrder,
  firstOpenRefund,
  firstUndeliveredShipment,
  ledgerBalances,
  licensesOf,
  ordersWithItems,
  ownAuditTrail,
  payoutInTransit,
  payoutMethodOf,
  payoutsOf,
  questionsOf,
  refundRequestsOf,
  removeOwnedRows,
  reviewsOf,
  savedProductsOf,
  storefrontOf,
} from "#server/modules/privacy/repository";
import {
  endSubscriptionsOfDeletedAccount,
  stopSubscriptionsOfDeletedSeller,
} from "#server/modules/subscriptions/service";

type Earner = "seller" | "reseller";
const earnerAccounts = (role: Earner, userId: string) => [
  accountId({ kind: role === "seller" ? "seller_pending" : "reseller_pending", owner: userId }),
  accountId({ kind: role === "seller" ? "seller_available" : "reseller_available", owner: userId }),
];

/** A license key is a credential: the export shows enough to tell keys apart, not to use one. */
export function maskKey(key: string) {
  return key.length <= 4 ? "••••" : `••••${key.slice(-4)}`;
}

/**
 * Everything we hold about the account, read only through the signed-in user's id. Balances are
 * read from the ledger for both earner roles (a former seller may still have lines).
 */
export async function exportAccount(db: Database, me: UserRow, now = new Date()): Promise<AccountExport> {
  const balances = await ledgerBalances(db, [
    ...earnerAccounts("seller", me.id),
    ...earnerAccounts("reseller", me.id),
  ]);
  const earnings = (["seller", "reseller"] as const)
    .filter((role) => hasRole(me, role) || earnerAccounts(role, me.id).some((id) => balances.has(id)))
    .map((role) => {
      const [pending = "", available = ""] = earnerAccounts(role, me.id);
      return {
        role,
        pendingUnits: balances.get(pending) ?? 0,
        availableUnits: balances.get(available) ?? 0,
      };
    });
  const [
    orders,
    licenses,
    refundRequests,
    reviews,
    questions,
    savedProducts,
    storefront,
    commissions,
    payouts,
    payoutMethod,
    auditTrail,
  ] = await Promise.all([
    ordersWithItems(db, me.id),
    licensesOf(db, me.id),
    refundRequestsOf(db, me.id),
    reviewsOf(db, me.id),
    questionsOf(db, me.id),
    savedProductsOf(db, me.id),
    storefrontOf(db, me.id),
    commissionsOf(db, me.id),
    payoutsOf(db, me.id),
    payoutMethodOf(db, me.id),
    ownAuditTrail(db, me.id),
  ]);
  return {
    exportedAt: now.toISOString(),
    profile: toMe(me),
    orders,
    licenses: licenses.map((license) => ({ ...license, key: maskKey(license.key) })),
    refundRequests,
    reviews,
    questions,
    savedProducts,
    storefront,
    earnings,
    commissions,
    payouts,
    payoutMethod,
    auditTrail,
  };
}

const blockerMessages: Record<DeletionBlocker, (ref: string) => string> = {
  order_in_progress: (ref) =>
    `Your order ${ref} is still awaiting payment. Your account can be deleted once it is paid, cancelled or expired.`,
  refund_open: (ref) =>
    `A refund request for order ${ref} is still open. Your account can be deleted once it is decided.`,
  shipment_undelivered: (ref) =>
    `A shipment of order ${ref} has not been delivered yet. Your account can be deleted once it arrives.`,
  balance_not_zero: () =>
    "Your earnings balance is not zero. Your account can be deleted once everything owed to you has been paid out.",
  payout_in_transit: () =>
    "A payout to you is still on its way. Your account can be deleted once it has arrived.",
};

export class AccountDeletionBlocked extends AppError {
  constructor(reason: DeletionBlocker, ref = "") {
    super(409, "ACCOUNT_DELETION_BLOCKED", blockerMessages[reason](ref), { reason });
  }
}

const shortRef = (id: string) => `#${id.slice(0, 8).toUpperCase()}`;

/** The first reason the account cannot go yet, checked in the deletion's own transaction. */
async function assertDeletable(db: Parameters<typeof firstOpenOrder>[0], userId: string) {
  const order = await firstOpenOrder(db, userId);
  if (order) throw new AccountDeletionBlocked("order_in_progress", shortRef(order.id));
  const refund = await firstOpenRefund(db, userId);
  if (refund) throw new AccountDeletionBlocked("refund_open", shortRef(refund.orderId));
  const shipment = await firstUndeliveredShipment(db, userId);
  if (shipment) throw new AccountDeletionBlocked("shipment_undelivered", shortRef(shipment.orderId));
  const balances = await ledgerBalances(db, [
    ...earnerAccounts("seller", userId),
    ...earnerAccounts("reseller", userId),
  ]);
  if ([...balances.values()].some((owed) => owed !== 0)) throw new AccountDeletionBlocked("balance_not_zero");
  if (await payoutInTransit(db, userId)) throw new AccountDeletionBlocked("payout_in_transit");
}

/**
 * What deleting an account needs besides the database: the mailer and where the renewal desk is (to tell a
 * leaving seller's subscribers), and the job queue (to remove the person's saved methods at their providers).
 */
export type Leaving = { mailer: Mailer; deskUrl: string; jobs: Pick<JobQueue, "send"> };

/**
 * Deletes the person's account in one transaction (decision 0016): refused while anything is open;
 * otherwise subscriptions ended, identity, sign-in and sessions erased, orders anonymised except issued invoices, what only
 * served the person removed (payout details, saved products, reports, reseller rows), a seller's
 * listings taken off sale and their subscribers' renewals stopped, and one audit entry that names no one. `privacy.test.ts` says for every
 * column that references a person what happens to it.
 */
export async function deleteAccount(db: Database, me: UserRow, leaving: Leaving) {
  const tombstone = `deleted-${randomUUID()}@deleted.stackbay.invalid`;
  return db.transaction(async (tx) => {
    const now = new Date();
    // Subscriptions end first, with their unpaid renewals: those are not open orders of the buyer's.
    await endSubscriptionsOfDeletedAccount(tx, me.id, now);
    await assertDeletable(tx, me.id);
    await anonymiseOrders(tx, me.id, tombstone);
    // Their saved cards and PayPal accounts leave the providers too, not only our rows.
    await forgetAtProvider(leaving.jobs, tx, await lockMethodsOf(tx, me.id));
    await removeOwnedRows(tx, me.id);
    const listingsClosed = await closeShop(tx, me.id);
    // Subscriptions to what they sold run to their period's end and stop, their buyers told.
    await stopSubscriptionsOfDeletedSeller(tx, leaving.mailer, me.id, leaving.deskUrl, now);
    await anonymiseAuditTrail(tx, me.id, tombstone);
    await eraseIdentity(tx, me.id, me.email, tombstone);
    await recordAudit(
      tx,
      { id: me.id, email: tombstone },
      {
        action: "delete",
        entityType: "user",
        entityId: me.id,
        entityLabel: "Former customer",
        before: { deleted: false },
        after: { deleted: true, listingsClosed },
      },
    );
    return { listingsClosed };
  });
}

/** How long a free trial that never converted keeps its checkout details after it ended (the terms: 12 months). */
export const DORMANT_TRIAL_MONTHS = 12;

/**
 * Anonymises the checkout details of the free trials that never converted and ended more than
 * `DORMANT_TRIAL_MONTHS` ago (see `anonymiseDormantTrials`), at `now` by the money clock.
 */
export async function anonymiseTrials(db: Database, now: Date): Promise<number> {
  const endedBefore = new Date(now);
  endedBefore.setUTCMonth(endedBefore.getUTCMonth() - DORMANT_TRIAL_MONTHS);
  return db.transaction((tx) => anonymiseDormantTrials(tx, endedBefore));
}

/** The anonymisation as a job, once a day across all instances. */
export function trialAnonymiseJob(db: Database, clock: Clock): JobDefinition {
  return {
    name: "trials-anonymise",
    cron: "23 3 * * *",
    retryLimit: 2,
    retryDelaySeconds: 300,
    describe: () => "Anonymise the checkout details of free trials that ended unconverted a year ago",
    async run() {
      await anonymiseTrials(db, clock.now());
    },
  };
}
