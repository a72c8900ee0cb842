import { hasRole } from "#domain/accounts";
import { summariseRatings } from "#domain/reviews";
import {
  STOREFRONT_PAGE_SIZE,
  type Storefront,
  type StorefrontChangeQueue,
  type StorefrontValues,
  type VendorPage,
} from "#domain/storefronts";
import type { UserRow } from "#server/auth/guards";
import type { Database } from "#server/db/client";
import { AppError, NotFound, ValidationError } from "#server/errors";
import type { JobQueue } from "#server/jobs/queue";
import { recordAudit } from "#server/lib/audit";
import { reviewWaitingNotice, storefrontDecidedNotice } from "#server/mail/moderation-mail";
import { notify, notifyAdmins } from "#server/modules/notifications/service";
import { answerTimes } from "#server/modules/questions/repository";
import {
  deleteStorefrontChange,
  ensureStorefront,
  findStorefrontBySlug,
  findStorefrontChange,
  findStorefrontOf,
  hasPublicProduct,
  isOwnUpload,
  listPendingStorefrontChanges,
  listVendorProducts,
  rejectStorefrontChange,
  type StorefrontChangeRow,
  type StorefrontRow,
  saveStorefront,
  setVerified,
  submitStorefrontChange,
  vendorReviewTotals,
} from "#server/modules/storefronts/repository";
import type { FileStorage } from "#server/storage/storage";

const SLUG = /^[a-z0-9-]{1,80}$/;
const notFound = () => new NotFound("Storefront not found.", "STOREFRONT_NOT_FOUND");

export function toStorefront(row: StorefrontRow, change: StorefrontChangeRow | null): Storefront {
  return {
    slug: row.slug,
    name: row.name,
    logoUrl: row.logoUrl,
    description: row.description,
    website: row.website,
    country: row.country,
    isVerified: row.isVerified,
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
    pendingChange: change
      ? {
          name: change.name,
          logoUrl: change.logoUrl,
          status: change.status,
          reason: change.reason,
          submittedAt: change.submittedAt.toISOString(),
        }
      : null,
  };
}

/** The audit snapshot: what the seller or an admin can change, and the name and logo asked for. */
const snapshot = (row: StorefrontRow, change: StorefrontChangeRow | null) => ({
  name: row.name,
  logoUrl: row.logoUrl,
  description: row.description,
  website: row.website,
  country: row.country,
  isVerified: row.isVerified,
  requestedName: change?.status === "pending" ? change.name : null,
  requestedLogoUrl: change?.status === "pending" ? change.logoUrl : null,
});

export async function storefrontOf(db: Database, me: UserRow): Promise<Storefront> {
  const storefront = await ensureStorefront(db, me);
  return toStorefront(storefront, await findStorefrontChange(db, me.id));
}

/**
 * Saves the seller's storefront. Its description, website and country change at once. A new name or
 * logo is who sells (the name is the vendor of every product of the seller): a trusted seller's (or an
 * admin's) applies at once, renaming the products in the same transaction; anyone else's waits for an
 * admin (decision 0015), the storefront, its badge and the products keeping the approved ones until
 * then. Saving the approved name and logo again withdraws a change. The logo must be one of the
 * seller's own uploads, or the logo already shown or asked for.
 */
export async function updateStorefront(
  db: Database,
  jobs: JobQueue,
  storage: Pick<FileStorage, "keyOf">,
  me: UserRow,
  values: StorefrontValues,
) {
  const current = await ensureStorefront(db, me);
  const asked = await findStorefrontChange(db, me.id);
  const known = [current.logoUrl, asked?.logoUrl];
  if (values.logoUrl !== null && !known.includes(values.logoUrl)) {
    // The schema lets any http(s) address through (a bucket's URLs are absolute); only the storage's are ours.
    if (storage.keyOf(values.logoUrl) === null) {
      const message = "Images must be uploaded to Stackbay";
      throw new ValidationError(message, [{ path: "logoUrl", message }]);
    }
    if (!(await isOwnUpload(db, values.logoUrl, me.id)))
      throw new AppError(403, "IMAGE_NOT_YOURS", "You can only use images you uploaded yourself.");
  }
  const reviewed = !hasRole(me, "admin") && !me.isTrustedSeller;
  return db.transaction(async (tx) => {
    const before = await findStorefrontOf(tx, me.id);
    if (!before) throw notFound();
    const changeBefore = await findStorefrontChange(tx, me.id);
    const identity = { name: values.name, logoUrl: values.logoUrl };
    const sameIdentity = (row: { name: string; logoUrl: string | null }) =>
      row.name === identity.name && row.logoUrl === identity.logoUrl;
    if (!reviewed) {
      await saveStorefront(tx, me.id, values);
      if (changeBefore) await deleteStorefrontChange(tx, me.id);
    } else {
      const details = { description: values.description, website: values.website, country: values.country };
      if (Object.entries(details).some(([key, value]) => before[key as keyof typeof details] !== value)) {
        await saveStorefront(tx, me.id, { ...values, name: before.name, logoUrl: before.logoUrl });
      }
      if (sameIdentity(before)) {
        if (changeBefore) await deleteStorefrontChange(tx, me.id);
      } else if (!(changeBefore?.status === "pending" && sameIdentity(changeBefore))) {
        await submitStorefrontChange(tx, me.id, identity);
        await notifyAdmins(jobs, tx, reviewWaitingNotice("storefront", identity.name));
      }
    }
    const after = await findStorefrontOf(tx, me.id);
    if (!after) throw notFound();
    const changeAfter = await findStorefrontChange(tx, me.id);
    await recordAudit(tx, me, {
      action: "update",
      entityType: "storefront",
      entityId: after.slug,
      entityLabel: after.name,
      before: snapshot(before, changeBefore),
      after: snapshot(after, changeAfter),
    });
    return {
      storefront: toStorefront(after, changeAfter),
      renamed: before.name !== after.name,
      submitted: changeAfter?.status === "pending",
    };
  });
}

/**
 * A storefront the public may see, with its seller's member-since date; null otherwise. A storefront
 * is public once its seller has a product on sale or an admin has verified it; before that (a new
 * seller, or every listing in review) it is treated like an unknown slug, so an empty page never
 * advertises an account. A disabled account's storefront is gone too. The page, its head tags and the
 * sitemap all use this rule.
 */
export async function findPublicStorefront(db: Database, slug: string) {
  if (!SLUG.test(slug)) return null;
  const found = await findStorefrontBySlug(db, slug);
  if (!found || found.banned) return null;
  if (!found.showsVerified && !(await hasPublicProduct(db, found.storefront.userId))) return null;
  return found;
}

export async function vendorPage(db: Database, slug: string, page: number, now: Date): Promise<VendorPage> {
  const found = await findPublicStorefront(db, slug);
  if (!found) throw notFound();
  const { storefront } = found;
  const [products, totals, answers] = await Promise.all([
    listVendorProducts(db, storefront.userId, page, STOREFRONT_PAGE_SIZE),
    vendorReviewTotals(db, storefront.userId),
    answerTimes(db, [storefront.userId], now),
  ]);
  const summary = summariseRatings(totals.count, totals.stars);
  return {
    slug: storefront.slug,
    name: storefront.name,
    logoUrl: storefront.logoUrl,
    description: storefront.description,
    website: storefront.website,
    country: storefront.country,
    isVerified: found.showsVerified,
    memberSince: found.memberSince.toISOString(),
    rating: summary.rating === null ? null : Number(summary.rating),
    reviewsCount: summary.reviewsCount,
    answerTime: answers.get(storefront.userId)?.label ?? null,
    products,
  };
}

/** An admin's verify / unverify decision, audited; doing it twice changes and records nothing. */
export async function setVerification(db: Database, admin: UserRow, slug: string, verified: boolean) {
  return db.transaction(async (tx) => {
    const found = await findStorefrontBySlug(tx, slug);
    if (!found) throw notFound();
    const before = found.storefront;
    const change = await findStorefrontChange(tx, before.userId);
    if (before.isVerified !== verified) {
      await setVerified(tx, before.userId, verified, admin.id);
      const after = await findStorefrontOf(tx, before.userId);
      if (!after) throw notFound();
      await recordAudit(tx, admin, {
        action: "update",
        entityType: "storefront",
        entityId: after.slug,
        entityLabel: after.name,
        before: snapshot(before, change),
        after: snapshot(after, change),
      });
      return toStorefront(after, change);
    }
    return toStorefront(before, change);
  });
}

export async function storefrontChangeQueue(db: Database): Promise<StorefrontChangeQueue> {
  const rows = await listPendingStorefrontChanges(db);
  return { items: rows.map((row) => ({ ...row, submittedAt: row.submittedAt.toISOString() })) };
}

/**
 * An admin's decision on a new name and logo, audited on the storefront. Approved, they become the
 * storefront's and the vendor of every product of the seller in one transaction, and a Verified badge
 * shows again; rejected, the approved ones stay and the seller reads the reason.
 */
export async function decideStorefrontChange(
  db: Database,
  jobs: JobQueue,
  admin: UserRow,
  slug: string,
  decision: { approve: true } | { approve: false; reason: string },
) {
  return db.transaction(async (tx) => {
    const found = await findStorefrontBySlug(tx, slug);
    const change = found ? await findStorefrontChange(tx, found.storefront.userId) : null;
    if (!found || change?.status !== "pending") {
      throw new NotFound(
        "No name or logo change of this storefront waits for review.",
        "STOREFRONT_CHANGE_NOT_FOUND",
      );
    }
    const before = found.storefront;
    if (decision.approve) {
      await saveStorefront(tx, before.userId, {
        name: change.name,
        logoUrl: change.logoUrl,
        description: before.description,
        website: before.website,
        country: before.country,
      });
      await deleteStorefrontChange(tx, before.userId);
    } else {
      await rejectStorefrontChange(tx, before.userId, decision.reason, admin.id);
    }
    const after = await findStorefrontOf(tx, before.userId);
    if (!after) throw notFound();
    const changeAfter = await findStorefrontChange(tx, before.userId);
    await recordAudit(tx, admin, {
      action: "update",
      entityType: "storefront",
      entityId: after.slug,
      entityLabel: after.name,
      before: snapshot(before, change),
      after: { ...snapshot(after, changeAfter), ...(decision.approve ? {} : { rejected: decision.reason }) },
    });
    await notify(
      jobs,
      tx,
      before.userId,
      storefrontDecidedNotice(
        decision.approve
          ? { status: "approved", name: change.name }
          : { status: "rejected", name: change.name, reason: decision.reason },
      ),
    );
    return { slug: after.slug, name: after.name, logoUrl: after.logoUrl };
  });
}
