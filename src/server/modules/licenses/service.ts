import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { DAY_MS } from "#domain/dates";
import type {
  License,
  LicenseActivationAnswer,
  LicenseCheckAnswer,
  LicenseCheckStatus,
  LicenseFile,
  LicenseFilePayload,
  LicenseStatus,
  SellerLicense,
  SellerLicenseDetail,
  SellerLicensePage,
} from "#domain/license-schemas";
import {
  generateLicenseKey,
  LICENSE_KEY_PATTERN,
  licenseCheckStatus,
  licenseFileExpiresAt,
  normaliseLicenseKey,
  VALID_LICENSE_STATUSES,
} from "#domain/licenses";
import { CAP_ALERT_LEVELS, capLevelsReached, rateUsage, usagePeriodAt } from "#domain/metering";
import { utcDay } from "#domain/reviews";
import { subscriptionStatusAt } from "#domain/subscriptions";
import type { UserRow } from "#server/auth/guards";
import type { Database, Db, Transaction } from "#server/db/client";
import { Conflict, NotFound } from "#server/errors";
import type { JobDefinition } from "#server/jobs/queue";
import { recordAudit } from "#server/lib/audit";
import type { Clock } from "#server/lib/clock";
import type { LicenseSigner } from "#server/lib/license-signing";
import {
  activationOfMachine,
  activationsOf,
  activeLicensesOfItem,
  deleteActivation,
  deleteActivationOfMachine,
  deleteStaleActivations,
  findLicenseByKey,
  insertActivation,
  insertLicensesSkippingTakenKeys,
  itemsWithLicenses,
  type LicenseRow,
  type LicenseSubscription,
  licensedItemsOf,
  licenseForCheck,
  licenseOfSeller,
  licenseOfUser,
  licensesOfSeller,
  lockLicenseByKey,
  orderBuyer,
  recordValidationDay,
  revokeActiveLicensesOfItem,
  revokeLicenses,
  seatsUsed,
  subscriptionOfItem,
  toActivation,
  toLicense,
  touchActivation,
  updateActivation,
  updateLicense,
  usageInPeriod,
} from "#server/modules/licenses/repository";
import { licenseEvent } from "#server/modules/seller-webhooks/events";

/** What the licences module needs from the app; `licenseDepsOf(app)` builds it. */
export type LicenseDeps = { db: Database; clock: Clock; signer: LicenseSigner; staleDays: number };

export function licenseDepsOf(app: FastifyInstance): LicenseDeps {
  return {
    db: app.database.db,
    clock: app.clock,
    signer: app.licenseSigner,
    staleDays: app.env.LICENSE_ACTIVATION_STALE_DAYS,
  };
}

const unknownKey: LicenseCheckAnswer = {
  valid: false,
  status: "unknown",
  product: null,
  renewsAt: null,
  seats: null,
  seatsUsed: null,
  activated: null,
};

const notFound = () => new NotFound("No license has this key.", "LICENSE_NOT_FOUND");
const yoursNotFound = () => new NotFound("That license does not exist.", "LICENSE_NOT_FOUND");
const activationNotFound = () =>
  new NotFound("This license is not activated on that machine.", "LICENSE_ACTIVATION_NOT_FOUND");

/** The key as typed, normalised; null when it cannot be a key (it then answers like an unknown one). */
function wellFormedKey(input: string): string | null {
  const key = normaliseLicenseKey(input);
  return LICENSE_KEY_PATTERN.test(key) ? key : null;
}

/** The licence's state at `now`, read with the subscription its item started (if any). */
async function stateOf(db: Db, license: LicenseRow, now: Date) {
  return stateWith(db, license, await subscriptionOfItem(db, license.orderItemId), now);
}

async function stateWith(db: Db, license: LicenseRow, subscription: LicenseSubscription | null, now: Date) {
  const period = subscription && isCapped(subscription) ? usagePeriodAt(subscription, now).index : null;
  const used = subscription && period !== null ? await usageInPeriod(db, subscription.id, period) : 0;
  return stateFrom(license, subscription, used, now);
}

/** The licence's state at `now`, from its subscription (if any) and that subscription's use this period. */
function stateFrom(license: LicenseRow, subscription: LicenseSubscription | null, used: number, now: Date) {
  const status = licenseCheckStatus(
    license.status as LicenseStatus,
    subscription ? subscriptionStatusAt(subscription, now) : null,
    { overCap: subscription ? overCap(subscription, used) : false },
  );
  return { status, valid: VALID_LICENSE_STATUSES.has(status), subscription };
}

/** A metered subscription with a spending cap: its use decides whether its key reads `over_cap`. */
const isCapped = (s: LicenseSubscription) => !!s.meterUnit && !!s.usageTiers && s.spendingCap !== null;

/**
 * Whether a metered subscription's use this period (`used`) has reached its buyer's spending cap
 * (decision 0029): its seller's software is then told `over_cap`, to stop or slow the service.
 */
function overCap(subscription: LicenseSubscription, used: number) {
  const { usageTiers, spendingCap } = subscription;
  if (!isCapped(subscription) || !usageTiers || spendingCap === null) return false;
  return capLevelsReached(rateUsage(used, usageTiers), spendingCap) === CAP_ALERT_LEVELS.length;
}

/**
 * What a check reads of a key: the licence, its subscription and seats in use (`licenseForCheck`), and
 * for a capped subscription its use in the period `usage.periodIndex`. Kept per key by the app's
 * `LicenseCheckCache`, which forgets it when any of these change.
 */
export type LicenseCheckFacts = NonNullable<Awaited<ReturnType<typeof licenseForCheck>>> & {
  usage: { periodIndex: number; quantity: number } | null;
};

export type LicenseCheckFactsCache = {
  get(
    key: string,
    load: () => Promise<LicenseCheckFacts | undefined>,
  ): Promise<LicenseCheckFacts | undefined>;
};

/** Reads the facts of a check from the database, for `now`'s period of use. */
async function readCheckFacts(db: Database, key: string, now: Date): Promise<LicenseCheckFacts | undefined> {
  const found = await licenseForCheck(db, key);
  if (!found) return undefined;
  const { subscription } = found;
  if (!subscription || !isCapped(subscription)) return { ...found, usage: null };
  const periodIndex = usagePeriodAt(subscription, now).index;
  return {
    ...found,
    usage: { periodIndex, quantity: await usageInPeriod(db, subscription.id, periodIndex) },
  };
}

/** Facts read afresh each time: no cache. */
const uncached: LicenseCheckFactsCache = { get: (_key, load) => load() };

/**
 * The licences this process has recorded a validation day for, with the day: a key checked every few
 * seconds writes its day once, not on every check. Bounded (forgotten whole when full); another instance
 * or a restart records the day again, which the table's key makes harmless.
 */
const validationDays = (() => {
  const recorded = new Map<string, string>();
  return {
    first(licenseId: string, now: Date): boolean {
      const day = utcDay(now);
      if (recorded.get(licenseId) === day) return false;
      if (recorded.size >= 100_000) recorded.clear();
      recorded.set(licenseId, day);
      return true;
    },
  };
})();

/**
 * The public check of a key (`POST /licenses/validate`): its status at `now` (`licenseCheckStatus`), its
 * product, its seats, and when a live subscription renews. With `machine`, says whether that machine is
 * activated and records it as seen now. Case and surrounding spaces are ignored; a malformed key answers
 * like an unknown one. A valid check counts toward its holder's "verified active use". What it reads of the
 * key comes through `cache` (the app's, on the route), which is told of every change to it.
 */
export async function checkLicense(
  db: Database,
  input: { key: string; machine?: string | undefined },
  now: Date,
  cache: LicenseCheckFactsCache = uncached,
): Promise<LicenseCheckAnswer> {
  const key = wellFormedKey(input.key);
  const found = key ? await cache.get(key, () => readCheckFacts(db, key, now)) : undefined;
  if (!found) return unknownKey;
  const { license } = found;
  // A capped subscription's use is read again once its period has turned since the facts were read.
  let used = found.usage?.quantity ?? 0;
  if (found.subscription && found.usage) {
    const periodIndex = usagePeriodAt(found.subscription, now).index;
    if (periodIndex !== found.usage.periodIndex)
      used = await usageInPeriod(db, found.subscription.id, periodIndex);
  }
  const { status, valid, subscription } = stateFrom(license, found.subscription, used, now);
  if (valid && validationDays.first(license.id, now)) await recordValidationDay(db, license.id, now);
  const activated =
    input.machine === undefined ? null : await touchActivation(db, license.id, input.machine, now);
  const renewsAt = subscription ? (subscription.endedAt ? null : subscription.paidThrough) : license.renewsAt;
  return {
    valid,
    status,
    product: license.productName,
    renewsAt: valid ? (renewsAt?.toISOString() ?? null) : null,
    seats: license.seats,
    seatsUsed: found.seatsUsed,
    activated,
  };
}

/**
 * Activates a valid key on a machine (`POST /licenses/activate`). The licence's row is locked while its
 * seats are counted, so activations made at once never pass its seats. A machine already activated is
 * refreshed (label, last seen) and takes no new seat.
 */
export async function activateLicense(
  { db, clock }: LicenseDeps,
  input: { key: string; machine: string; label: string },
): Promise<LicenseActivationAnswer> {
  const key = wellFormedKey(input.key);
  if (!key) throw notFound();
  const now = clock.now();
  return db.transaction(async (tx) => {
    const license = await lockLicenseByKey(tx, key);
    if (!license) throw notFound();
    const { status, valid } = await stateOf(tx, license, now);
    if (!valid)
      throw new Conflict(
        `This license cannot be activated: it is ${status.replace("_", " ")}.`,
        "LICENSE_NOT_VALID",
      );
    const existing = await activationOfMachine(tx, license.id, input.machine);
    let activation: Awaited<ReturnType<typeof insertActivation>>;
    if (existing) {
      activation = await updateActivation(tx, existing.id, { label: input.label, lastSeenAt: now });
    } else {
      const used = await seatsUsed(tx, license.id);
      if (used >= license.seats)
        throw new Conflict(
          `All ${license.seats} of this license's seats are in use. Deactivate a machine first.`,
          "LICENSE_SEATS_FULL",
        );
      activation = await insertActivation(tx, {
        licenseId: license.id,
        machine: input.machine,
        label: input.label,
        activatedAt: now,
        lastSeenAt: now,
      });
      await licenseEvent(tx, license.id, "license.activated", now, {
        machine: input.machine,
        label: input.label,
        seatsUsed: used + 1,
        seats: license.seats,
      });
    }
    const { id: _id, ...recorded } = toActivation(activation);
    return {
      valid: true as const,
      status,
      product: license.productName,
      seats: license.seats,
      seatsUsed: await seatsUsed(tx, license.id),
      activation: recorded,
    };
  });
}

/** Deactivates a machine by the key (`POST /licenses/deactivate`), whatever the licence's state. */
export async function deactivateMachine(
  { db }: LicenseDeps,
  input: { key: string; machine: string },
): Promise<{ seats: number; seatsUsed: number }> {
  const key = wellFormedKey(input.key);
  const license = key ? await findLicenseByKey(db, key) : undefined;
  if (!license) throw notFound();
  if (!(await deleteActivationOfMachine(db, license.id, input.machine))) throw activationNotFound();
  return { seats: license.seats, seatsUsed: await seatsUsed(db, license.id) };
}

/** The buyer frees a seat of their own licence; another buyer's licence answers 404. */
export async function deactivateOwnActivation(
  { db }: LicenseDeps,
  userId: string,
  licenseId: string,
  activationId: string,
): Promise<License> {
  const license = await licenseOfUser(db, userId, licenseId);
  if (!license) throw yoursNotFound();
  if (!(await deleteActivation(db, license.id, activationId))) throw activationNotFound();
  const activations = await activationsOf(db, [license.id]);
  return toLicense(license, activations.get(license.id));
}

/** Statuses whose licence file is refused: nothing valid to carry offline. */
const NO_FILE: ReadonlySet<LicenseCheckStatus> = new Set(["revoked", "suspended", "expired", "over_cap"]);

/**
 * The buyer's signed offline licence (`GET /licenses/:id/file`): the payload as JSON text and its
 * Ed25519 signature over those exact bytes. It expires with the subscription's paid period plus its
 * grace (`licenseFileExpiresAt`); a perpetual licence's never does. A revoked, suspended or ended
 * licence gets none.
 */
export async function licenseFile(
  { db, clock, signer }: LicenseDeps,
  userId: string,
  licenseId: string,
): Promise<LicenseFile> {
  const license = await licenseOfUser(db, userId, licenseId);
  if (!license) throw yoursNotFound();
  const now = clock.now();
  const { status, subscription } = await stateOf(db, license, now);
  if (NO_FILE.has(status))
    throw new Conflict(
      `This license is ${status.replace("_", " ")}, so it has no offline license file.`,
      "LICENSE_NOT_VALID",
    );
  const expiresAt = licenseFileExpiresAt(subscription);
  const payload: LicenseFilePayload = {
    licenseId: license.id,
    key: license.key,
    productId: license.productId,
    productName: license.productName,
    seats: license.seats,
    status,
    issuedAt: now.toISOString(),
    expiresAt: expiresAt?.toISOString() ?? null,
  };
  const text = JSON.stringify(payload);
  return {
    format: "stackbay-license/1",
    kid: signer.kid,
    alg: "EdDSA",
    payload: text,
    signature: signer.sign(Buffer.from(text, "utf8")),
  };
}

/** Frees the seats of machines not seen for `staleDays` days, once a day across all instances. */
export function staleActivationsJob(deps: LicenseDeps): JobDefinition {
  return {
    name: "license-activations-free",
    cron: "47 3 * * *",
    retryLimit: 2,
    retryDelaySeconds: 300,
    describe: () => `Free license activations not seen for ${deps.staleDays} days`,
    async run() {
      await deleteStaleActivations(deps.db, new Date(deps.clock.now().getTime() - deps.staleDays * DAY_MS));
    },
  };
}

// The seller API's licence operations (decision 0028), scoped to the seller's own items.

/** The seller API's page size for licences. */
const SELLER_LICENSES_PAGE_SIZE = 50;

function sellerLicense(row: LicenseRow, used: number): SellerLicense {
  return {
    id: row.id,
    key: row.key,
    productId: row.productId,
    productName: row.productName,
    orderId: row.orderId,
    status: row.status as LicenseStatus,
    seats: row.seats,
    seatsUsed: used,
    issuedAt: row.issuedAt.toISOString(),
    renewsAt: row.renewsAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    suspendedAt: row.suspendedAt?.toISOString() ?? null,
  };
}

async function sellerLicenseDetail(db: Db, row: LicenseRow): Promise<SellerLicenseDetail> {
  const activations = (await activationsOf(db, [row.id])).get(row.id) ?? [];
  return { ...sellerLicense(row, activations.length), activations };
}

export async function sellerLicensesPage(
  { db }: LicenseDeps,
  sellerId: string,
  page: number,
): Promise<SellerLicensePage> {
  const { items, total } = await licensesOfSeller(db, sellerId, page, SELLER_LICENSES_PAGE_SIZE);
  return {
    items: items.map((item) => sellerLicense(item.license, Number(item.seatsUsed))),
    total,
    page,
    pageSize: SELLER_LICENSES_PAGE_SIZE,
  };
}

export async function sellerLicenseOf(
  { db }: LicenseDeps,
  sellerId: string,
  id: string,
): Promise<SellerLicenseDetail> {
  const license = await licenseOfSeller(db, sellerId, id);
  if (!license) throw yoursNotFound();
  return sellerLicenseDetail(db, license);
}

/**
 * Suspends (or reinstates) one of the seller's licences: checks answer `suspended` meanwhile, and it
 * cannot be activated or downloaded. Doing it twice changes nothing; a revoked licence answers 409
 * `LICENSE_REVOKED`. Audited.
 */
export async function setLicenseSuspended(
  { db, clock }: LicenseDeps,
  me: UserRow,
  id: string,
  suspend: boolean,
): Promise<SellerLicenseDetail> {
  return db.transaction(async (tx) => {
    const license = await licenseOfSeller(tx, me.id, id, true);
    if (!license) throw yoursNotFound();
    if (license.status === "revoked")
      throw new Conflict(
        "This license was revoked for good; it cannot be suspended or reinstated.",
        "LICENSE_REVOKED",
      );
    const target = suspend ? "suspended" : "active";
    if (license.status === target) return sellerLicenseDetail(tx, license);
    const updated = await updateLicense(tx, license.id, {
      status: target,
      suspendedAt: suspend ? clock.now() : null,
    });
    if (suspend) await licenseEvent(tx, license.id, "license.suspended", clock.now());
    await recordAudit(tx, me, {
      action: "update",
      entityType: "license",
      entityId: license.id,
      entityLabel: `${license.productName} (••••${license.key.slice(-4)})`,
      before: { status: license.status },
      after: { status: updated.status },
    });
    return sellerLicenseDetail(tx, updated);
  });
}

/** The seller frees a seat of one of their licences. */
export async function deactivateSellerActivation(
  { db }: LicenseDeps,
  sellerId: string,
  id: string,
  activationId: string,
): Promise<SellerLicenseDetail> {
  const license = await licenseOfSeller(db, sellerId, id);
  if (!license) throw yoursNotFound();
  if (!(await deleteActivation(db, license.id, activationId))) throw activationNotFound();
  return sellerLicenseDetail(db, license);
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
  const license = {
    ...template,
    status: "active",
    issuedAt: now,
    renewsAt,
    revokedAt: null,
    suspendedAt: null,
  };
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
