import { randomBytes } from "node:crypto";
import {
  type BuyerSignalHashes,
  HELD_COMMISSIONS_PAGE_SIZE,
  type HeldCommission,
  selfReferralReasons,
} from "#domain/commission-holds";
import { type CommissionStatus, commissionUnits, decideHeldCommission } from "#domain/commissions";
import { DAY_MS } from "#domain/dates";
import { fromUnits, lineTotal } from "#domain/money";
import {
  generateReferralCode,
  type ResellerLinks,
  type ResellerLinksQuery,
  withinAttribution,
} from "#domain/referrals";
import { absoluteUrl, paths, REFERRAL_PARAM } from "#domain/routes";
import type { Database, Transaction } from "#server/db/client";
import { Conflict, NotFound } from "#server/errors";
import type { JobDefinition } from "#server/jobs/queue";
import { type AuditActor, recordAudit } from "#server/lib/audit";
import type { Clock } from "#server/lib/clock";
import { bookCommissionApproved, bookCommissionRejected } from "#server/modules/ledger/bookings";
import {
  approveDueCommissions,
  cancelPendingCommission,
  clickCounts,
  commissionSums,
  earnedAtOfItem,
  findBuyerEmails,
  findCode,
  findCodeOwner,
  findCommissionForUpdate,
  findProductState,
  findReseller,
  heldCommissionRows,
  insertClick,
  insertCode,
  insertCommissions,
  linkProducts,
  lockItemCommission,
  resellableItems,
  updateCommissionStatus,
} from "#server/modules/referrals/repository";
import { recordResellerSighting, resellerSignalHashes, visitorKey } from "#server/modules/referrals/signals";

/**
 * The reseller whose link the buyer followed last, and when, with the checkout's keyed-hash signals
 * (plain strings, so the referral can be kept as JSON on the order; absent on older orders).
 */
export type Referral = { resellerId: string; clickedAt: Date; signals?: BuyerSignalHashes };

/**
 * Crawlers and link-preview fetchers, which are not people following a link. "HeadlessChrome" is
 * deliberately not listed: our own Playwright journeys browse with it, and a scripted visitor is held
 * to one click a day like anyone else. A request without a user agent is not a browser and not counted.
 */
const BOT_USER_AGENT =
  /bot|crawl|spider|slurp|facebookexternalhit|bingpreview|embedly|curl|wget|python-requests|go-http-client/i;

export function isBot(userAgent: string | undefined): boolean {
  return !userAgent || BOT_USER_AGENT.test(userAgent);
}

/** The reseller's code, created on first need; a collision with another reseller's code draws again. */
export async function ensureResellerCode(db: Database, userId: string): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const existing = await findCode(db, userId);
    if (existing) return existing;
    await insertCode(db, userId, generateReferralCode(randomBytes));
  }
  throw new Error(`could not create a unique reseller code for ${userId}`);
}

export type VisitOutcome =
  /** Nothing to attribute: unknown code, product not on offer, a bot or the reseller themself. */
  { attribute: false; counted: false } | { attribute: true; counted: boolean; resellerId: string };

/**
 * A visit through a reseller link. A click counts at most once per visitor, product and day; a valid
 * visit attributes (sets the cookie) even when the click was already counted today, so the last
 * reseller followed wins.
 */
export async function recordVisit(
  db: Database,
  visit: {
    code: string;
    productId: string;
    viewerId: string | null;
    ip: string;
    userAgent: string | undefined;
    secret: string;
    now: Date;
  },
): Promise<VisitOutcome> {
  const none = { attribute: false, counted: false } as const;
  if (isBot(visit.userAgent)) return none;
  const [owner, product] = await Promise.all([
    findCodeOwner(db, visit.code),
    findProductState(db, visit.productId),
  ]);
  if (!owner?.isReseller || owner.banned) return none;
  if (!product?.isActive || !product.isResellable) return none;
  if (visit.viewerId === owner.id) {
    // Not a click, but where the reseller was: a second account buying from here is worth a look.
    await recordResellerSighting(
      db,
      visit.secret,
      { userId: owner.id, ip: visit.ip, userAgent: visit.userAgent },
      visit.now,
    );
    return none;
  }
  const counted = await insertClick(db, {
    resellerId: owner.id,
    productId: visit.productId,
    visitorKey: visitorKey(visit.secret, visit.ip, visit.userAgent ?? ""),
    day: visit.now.toISOString().slice(0, 10),
    createdAt: visit.now,
  });
  return { attribute: true, counted, resellerId: owner.id };
}

/**
 * Records a pending commission for each resellable item of a confirmed order the referral earns. The
 * click must fall within the attribution window before `attributedAt`: the order's own time, or for a
 * subscription's renewal the time of the order that started it.
 * Nothing for a buyer's own link, an expired click or an account that is no longer a reseller. The
 * commission is approved once `windowDays` (the refund window, `app.env.REFUND_WINDOW_DAYS`) have
 * passed. Recording twice for the same item keeps the first.
 *
 * When the order looks like the reseller's own purchase from a second account (the checkout's signals
 * match where the reseller was seen, or the buyer's address is on the reseller's own domain), the
 * commissions are recorded `held` with the reasons, for an admin to release or reject.
 */
export async function recordCommissions(
  tx: Transaction,
  orderId: string,
  buyerId: string,
  referral: Referral | null,
  now: Date,
  windowDays: number,
  { attributedAt = now }: { attributedAt?: Date } = {},
): Promise<void> {
  if (!referral || referral.resellerId === buyerId) return;
  if (!withinAttribution(referral.clickedAt, attributedAt)) return;
  const reseller = await findReseller(tx, referral.resellerId);
  if (!reseller?.isReseller || reseller.banned) return;
  const eligibleAt = new Date(now.getTime() + windowDays * DAY_MS);
  const items = await resellableItems(tx, orderId);
  if (items.length === 0) return;
  const [buyerEmails, resellerHashes] = await Promise.all([
    findBuyerEmails(tx, orderId, buyerId),
    resellerSignalHashes(tx, referral.resellerId),
  ]);
  const reasons = selfReferralReasons(
    { hashes: referral.signals ?? {}, emails: buyerEmails },
    { hashes: resellerHashes, email: reseller.email },
  );
  const rows = items.flatMap((item) => {
    const amount = commissionUnits(lineTotal(item.price, item.quantity), Number(item.rate));
    if (amount === 0) return [];
    return [
      {
        orderItemId: item.id,
        orderId,
        resellerId: referral.resellerId,
        productId: item.productId,
        rate: item.rate,
        amount: fromUnits(amount),
        status: reasons.length > 0 ? "held" : "pending",
        holdReasons: reasons.length > 0 ? reasons : null,
        eligibleAt,
        createdAt: now,
        updatedAt: now,
      },
    ];
  });
  await insertCommissions(tx, rows);
}

/**
 * Approves pending commissions whose refund window has passed. One whose item has an open refund
 * request stays pending: the refund decision settles it (cancelled if refunded, approved on the next
 * settlement otherwise).
 */
export async function settleCommissions(db: Database, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const approved = await approveDueCommissions(tx, now);
    for (const commission of approved) await bookCommissionApproved(tx, commission, now);
    return approved.length;
  });
}

/** The approval as a job, every five minutes across all instances. */
export function commissionReleaseJob(db: Database, clock: Clock): JobDefinition {
  return {
    name: "commissions-release",
    cron: "*/5 * * * *",
    retryLimit: 2,
    retryDelaySeconds: 60,
    describe: () => "Approve commissions past the refund window",
    async run() {
      await settleCommissions(db, clock.now());
    },
  };
}

/**
 * Cancels the commission on a refunded order item, if it is still pending or held, and answers it as it
 * stood before, for the refund's ledger entry. An approved one stays
 * approved: that cannot happen in practice, as an open refund request holds its commission pending
 * and refunds are only requested within the window the commission waits out.
 */
export async function cancelCommissionForItem(tx: Transaction, orderItemId: string, now: Date) {
  const before = await lockItemCommission(tx, orderItemId);
  await cancelPendingCommission(tx, orderItemId, now);
  return before;
}

const usd = (amount: string | undefined) => Number(amount ?? 0);

/** The reseller's links with clicks, orders and commission per product and in total. */
export async function resellerLinks(
  db: Database,
  resellerId: string,
  baseUrl: string,
  refundWindowDays: number,
  query: ResellerLinksQuery,
): Promise<ResellerLinks> {
  const code = await ensureResellerCode(db, resellerId);
  const [{ rows: list, total }, clicks, sums] = await Promise.all([
    linkProducts(db, resellerId, query),
    clickCounts(db, resellerId),
    commissionSums(db, resellerId),
  ]);
  const clicksOf = new Map(clicks.map((row) => [row.productId, row.clicks]));
  const sumsOf = new Map(sums.perProduct.map((row) => [row.productId, row]));
  const items = list.map((product) => {
    const earned = sumsOf.get(product.id);
    return {
      productId: product.id,
      name: product.name,
      imageUrl: product.imageUrl,
      category: product.category,
      price: Number(product.price),
      commissionRate: Number(product.commissionRate),
      linkable: product.isActive && product.isResellable,
      link: `${absoluteUrl(baseUrl, paths.product(product.id))}?${REFERRAL_PARAM}=${code}`,
      clicks: clicksOf.get(product.id) ?? 0,
      orders: earned?.orders ?? 0,
      commission: {
        pending: usd(earned?.pending),
        held: usd(earned?.held),
        approved: usd(earned?.approved),
        cancelled: usd(earned?.cancelled),
      },
    };
  });
  return {
    code,
    items,
    total,
    page: query.page,
    pageSize: query.pageSize,
    totals: {
      clicks: clicks.reduce((sum, row) => sum + row.clicks, 0),
      orders: sums.total?.orders ?? 0,
      pending: usd(sums.total?.pending),
      held: usd(sums.total?.held),
      approved: usd(sums.total?.approved),
      cancelled: usd(sums.total?.cancelled),
    },
    refundWindowDays,
  };
}

/** Commissions of one status for the admin review, newest first, a page at a time. */
export async function listCommissionsForReview(db: Database, status: CommissionStatus, page: number) {
  const { rows, total } = await heldCommissionRows(db, status, page, HELD_COMMISSIONS_PAGE_SIZE);
  const items: HeldCommission[] = rows.map((row) => ({
    id: row.id,
    orderId: row.orderId,
    resellerName: row.resellerName,
    resellerEmail: row.resellerEmail,
    buyerName: row.buyerName,
    buyerEmail: row.buyerEmail,
    productName: row.productName,
    amount: usd(row.amount),
    status: row.status as CommissionStatus,
    reasons: row.holdReasons ?? [],
    createdAt: row.createdAt.toISOString(),
  }));
  return { items, total, page, pageSize: HELD_COMMISSIONS_PAGE_SIZE };
}

/**
 * An admin's decision on a held commission. Released, it is pending with its refund-window date kept:
 * the next settlement approves it once that date has passed (at once if it already has). Rejected, it
 * is cancelled. Anything but a held commission is a conflict; the decision is audited with its note.
 */
export async function decideCommission(
  db: Database,
  actor: AuditActor,
  id: string,
  decision: "release" | "reject",
  note: string | undefined,
  now = new Date(),
) {
  return db.transaction(async (tx) => {
    const row = await findCommissionForUpdate(tx, id);
    if (!row) throw new NotFound("Commission not found.", "COMMISSION_NOT_FOUND");
    const next = decideHeldCommission(row.status as CommissionStatus, decision);
    if (!next) throw new Conflict("This commission is not on hold.", "COMMISSION_NOT_HELD");
    await updateCommissionStatus(tx, id, next, now);
    if (next === "cancelled") await bookCommissionRejected(tx, row, now);
    await recordAudit(tx, actor, {
      action: "update",
      entityType: "commission",
      entityId: id,
      entityLabel: `order ${row.orderId.slice(0, 8)}`,
      before: { status: row.status },
      after: { status: next, decision, note: note ?? null },
    });
    return { id, status: next };
  });
}

/**
 * When an order item earned its reseller's commission (any not rejected as a self-referral); null when
 * it earned none. A subscription's renewals earn one when the item that started it did.
 */
export async function commissionEarnedAt(tx: Transaction, orderItemId: string): Promise<Date | null> {
  return earnedAtOfItem(tx, orderItemId);
}
