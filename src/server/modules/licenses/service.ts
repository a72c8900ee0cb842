import { randomBytes } from "node:crypto";
import type { LicenseCheckAnswer, LicenseStatus } from "#domain/license-schemas";
import {
  generateLicenseKey,
  LICENSE_KEY_PATTERN,
  licenseCheckStatus,
  normaliseLicenseKey,
  VALID_LICENSE_STATUSES,
} from "#domain/licenses";
import { subscriptionStatusAt } from "#domain/subscriptions";
import type { Database, Transaction } from "#server/db/client";
import {
  activeLicensesOfItem,
  findLicenseForCheck,
  insertLicensesSkippingTakenKeys,
  itemsWithLicenses,
  licensedItemsOf,
  orderBuyer,
  recordValidationDay,
  revokeActiveLicensesOfItem,
  revokeLicenses,
} from "#server/modules/licenses/repository";

const unknownKey: LicenseCheckAnswer = { valid: false, status: "unknown", product: null, renewsAt: null };

/**
 * The public check of a key (`POST /licenses/validate`): its status at `now` (`licenseCheckStatus`), its
 * product, and when a live subscription renews. Case and surrounding spaces are ignored; a malformed key
 * answers like an unknown one. A valid check counts toward its holder's "verified active use".
 */
export async function checkLicense(db: Database, input: string, now: Date): Promise<LicenseCheckAnswer> {
  const key = normaliseLicenseKey(input);
  const found = LICENSE_KEY_PATTERN.test(key) ? await findLicenseForCheck(db, key) : null;
  if (!found) return unknownKey;
  const { license, subscription } = found;
  const status = licenseCheckStatus(
    license.status as LicenseStatus,
    subscription ? subscriptionStatusAt(subscription, now) : null,
  );
  const valid = VALID_LICENSE_STATUSES.has(status);
  if (valid) await recordValidationDay(db, license.id, now);
  const renewsAt = subscription ? (subscription.endedAt ? null : subscription.paidThrough) : license.renewsAt;
  return {
    valid,
    status,
    product: license.productName,
    renewsAt: valid ? (renewsAt?.toISOString() ?? null) : null,
  };
}

/** A clash needs two equal 79-bit keys; a run of clashes means something else is wrong, so stop. */
const MAX_KEY_ATTEMPTS = 5;

function oneYearAfter(date: Date): Date {
  const next = new Date(date);
  next.setUTCFullYear(next.getUTCFullYear() + 1);
  return next;
}

/**
 * Issues one license key per unit of each licensed item of a just-confirmed order. Items that already
 * have keys are skipped, so confirming the same order twice (a refused payment retried) issues once.
 */
export async function issueLicenses(tx: Transaction, orderId: string, now: Date): Promise<void> {
  const userId = await orderBuyer(tx, orderId);
  if (!userId) throw new Error(`order ${orderId} not found while issuing licenses`);
  const items = await licensedItemsOf(tx, orderId);
  if (items.length === 0) return;
  const issued = await itemsWithLicenses(tx, orderId);

  for (const item of items) {
    if (issued.has(item.id)) continue;
    const license = {
      orderItemId: item.id,
      orderId,
      userId,
      productId: item.productId,
      productName: item.productName,
      status: "active",
      issuedAt: now,
      renewsAt: item.category === "saas" ? oneYearAfter(now) : null,
    };
    // A key already taken is skipped by the insert and drawn again, never dropped silently.
    let missing = item.quantity;
    for (let attempt = 1; missing > 0; attempt++) {
      if (attempt > MAX_KEY_ATTEMPTS) throw new Error(`could not draw unique license keys for ${item.id}`);
      missing -= await insertLicensesSkippingTakenKeys(
        tx,
        Array.from({ length: missing }, () => ({ ...license, key: generateLicenseKey(randomBytes) })),
      );
    }
  }
}

/**
 * Makes a subscription item's active keys one per seat after a change of seats: new keys like its
 * others (renewing at `renewsAt`), or the newest ones revoked. An item that never had keys (hardware)
 * gets none.
 */
export async function matchLicensesToSeats(
  tx: Transaction,
  orderItemId: string,
  seats: number,
  renewsAt: Date,
  now: Date,
): Promise<void> {
  const active = await activeLicensesOfItem(tx, orderItemId);
  const model = active[0];
  if (!model) return;
  if (active.length > seats) {
    await revokeLicenses(
      tx,
      active.slice(seats).map((license) => license.id),
      now,
    );
    return;
  }
  const { id: _id, key: _key, ...template } = model;
  const license = { ...template, issuedAt: now, renewsAt, revokedAt: null };
  for (let missing = seats - active.length, attempt = 1; missing > 0; attempt++) {
    if (attempt > MAX_KEY_ATTEMPTS) throw new Error(`could not draw unique license keys for ${orderItemId}`);
    missing -= await insertLicensesSkippingTakenKeys(
      tx,
      Array.from({ length: missing }, () => ({ ...license, key: generateLicenseKey(randomBytes) })),
    );
  }
}

/** Revokes every active license of a refunded order item; answers how many were revoked. */
export async function revokeLicensesForItem(
  tx: Transaction,
  orderItemId: string,
  now: Date,
): Promise<number> {
  return revokeActiveLicensesOfItem(tx, orderItemId, now);
}
