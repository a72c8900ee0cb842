import { summariseRatings } from "#domain/reviews";
import {
  STOREFRONT_PAGE_SIZE,
  type Storefront,
  type StorefrontValues,
  type VendorPage,
} from "#domain/storefronts";
import type { UserRow } from "#server/auth/guards";
import type { Database } from "#server/db/client";
import { AppError, NotFound, ValidationError } from "#server/errors";
import { recordAudit } from "#server/lib/audit";
import { answerTimes } from "#server/modules/questions/repository";
import {
  ensureStorefront,
  findStorefrontBySlug,
  findStorefrontOf,
  hasPublicProduct,
  isOwnUpload,
  listVendorProducts,
  type StorefrontRow,
  saveStorefront,
  setVerified,
  vendorReviewTotals,
} from "#server/modules/storefronts/repository";
import type { FileStorage } from "#server/storage/storage";

const SLUG = /^[a-z0-9-]{1,80}$/;
const notFound = () => new NotFound("Storefront not found.", "NOT_FOUND");

export function toStorefront(row: StorefrontRow): Storefront {
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
  };
}

/** The audit snapshot: what the seller or an admin can change. */
const snapshot = (row: StorefrontRow) => ({
  name: row.name,
  logoUrl: row.logoUrl,
  description: row.description,
  website: row.website,
  country: row.country,
  isVerified: row.isVerified,
});

export async function storefrontOf(db: Database, me: UserRow): Promise<Storefront> {
  return toStorefront(await ensureStorefront(db, me));
}

/**
 * Saves the seller's storefront; a new name becomes the vendor of every product of theirs in the same
 * transaction. The logo must be one of the seller's own uploads, or the logo already shown.
 */
export async function updateStorefront(
  db: Database,
  storage: Pick<FileStorage, "keyOf">,
  me: UserRow,
  values: StorefrontValues,
) {
  const current = await ensureStorefront(db, me);
  if (values.logoUrl !== null && values.logoUrl !== current.logoUrl) {
    // The schema lets any http(s) address through (a bucket's URLs are absolute); only the storage's are ours.
    if (storage.keyOf(values.logoUrl) === null) {
      const message = "Images must be uploaded to Stackbay";
      throw new ValidationError(message, [{ path: "logoUrl", message }]);
    }
    if (!(await isOwnUpload(db, values.logoUrl, me.id)))
      throw new AppError(403, "IMAGE_NOT_YOURS", "You can only use images you uploaded yourself.");
  }
  return db.transaction(async (tx) => {
    const before = await findStorefrontOf(tx, me.id);
    if (!before) throw notFound();
    await saveStorefront(tx, me.id, values);
    const after = await findStorefrontOf(tx, me.id);
    if (!after) throw notFound();
    await recordAudit(tx, me, {
      action: "update",
      entityType: "storefront",
      entityId: after.slug,
      entityLabel: after.name,
      before: snapshot(before),
      after: snapshot(after),
    });
    return { storefront: toStorefront(after), renamed: before.name !== after.name };
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
  if (!found.storefront.isVerified && !(await hasPublicProduct(db, found.storefront.userId))) return null;
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
    isVerified: storefront.isVerified,
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
    if (before.isVerified !== verified) {
      await setVerified(tx, before.userId, verified, admin.id);
      const after = await findStorefrontOf(tx, before.userId);
      if (!after) throw notFound();
      await recordAudit(tx, admin, {
        action: "update",
        entityType: "storefront",
        entityId: after.slug,
        entityLabel: after.name,
        before: snapshot(before),
        after: snapshot(after),
      });
      return toStorefront(after);
    }
    return toStorefront(before);
  });
}
