import { createHash } from "node:crypto";
import { hash } from "@node-rs/argon2";
import { count, eq, inArray } from "drizzle-orm";
import type { Role } from "#domain/accounts";
import { categories as categoryList } from "#domain/categories";
import { DAY_MS } from "#domain/dates";
import { createOrGrantAccount } from "#server/auth/users";
import type { Database } from "#server/db/client";
import { user } from "#server/db/schema/auth";
import {
  categories,
  fxRates,
  productFeatures,
  productSpecifications,
  products,
  storefronts,
} from "#server/db/schema/catalog";
import { siteContentBlocks, sitePages } from "#server/db/schema/content";
import { demoProducts } from "#server/db/seed/catalog-data";
import { demoContentBlocks, demoPages } from "#server/db/seed/content-data";
import {
  inParallel,
  prerenderDemoPictures,
  writeProductImages,
  writeVendorLogo,
} from "#server/db/seed/images";
import { seedDemoActivations } from "#server/db/seed/license-activations";
import { seedDemoPlans } from "#server/db/seed/plans";
import { seedDemoQuestions } from "#server/db/seed/questions";
import { seedDemoReviews } from "#server/db/seed/reviews";
import { seedDemoSellerKey } from "#server/db/seed/seller-api";
import { seedDemoWebhook } from "#server/db/seed/seller-webhooks";
import { seedDemoSubscriptions } from "#server/db/seed/subscriptions";
import { demoVendors, SAMIR_VENDOR, vendorEmail, vendorWebsite } from "#server/db/seed/vendor-data";
import { type FileStorage, localStorage } from "#server/storage/storage";

export const DEMO_PASSWORD = "stackbay-demo";

type DemoAccount = { email: string; firstName: string; lastName: string; roles: Role[]; storefront?: string };

export const demoAccounts: DemoAccount[] = [
  { email: "buyer@stackbay.test", firstName: "Bianca", lastName: "Buyer", roles: ["buyer"] },
  {
    email: "seller@stackbay.test",
    firstName: "Samir",
    lastName: "Seller",
    roles: ["seller"],
    storefront: SAMIR_VENDOR,
  },
  { email: "reseller@stackbay.test", firstName: "Rhea", lastName: "Reseller", roles: ["buyer", "reseller"] },
  { email: "admin@stackbay.test", firstName: "Adam", lastName: "Admin", roles: ["buyer", "admin"] },
  {
    email: "superadmin@stackbay.test",
    firstName: "Sofia",
    lastName: "Superadmin",
    roles: ["buyer", "superAdmin"],
  },
];

export const demoFxRates = [
  { currencyCode: "USD", rateToUsd: "1", fxBuffer: "0" },
  { currencyCode: "AED", rateToUsd: "3.6725", fxBuffer: "0.02" },
  { currencyCode: "EUR", rateToUsd: "0.92", fxBuffer: "0.02" },
  { currencyCode: "GBP", rateToUsd: "0.79", fxBuffer: "0.02" },
  { currencyCode: "INR", rateToUsd: "83.2", fxBuffer: "0.02" },
];

/** A stable id per demo product (UUID v5 layout over SHA-1), so seeding twice finds the same rows. */
export function demoProductId(key: string): string {
  const bytes = createHash("sha1").update(`stackbay-demo-product:${key}`).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A vendor's logo takes the colour of its first product. */
const vendorAccent = (vendor: string) => demoProducts.find((p) => p.vendor === vendor)?.accent ?? "#475569";

/**
 * Renders every picture the demo seed stores (see `prerenderDemoPictures`), ahead of the seed: a first
 * start begins it before it opens the database.
 */
export const renderDemoPictures = () =>
  prerenderDemoPictures(
    demoProducts,
    demoVendors.map((vendor) => ({ name: vendor.name, accent: vendorAccent(vendor.name) })),
  );

/** Where the demo pictures go: the app's storage (either driver), or a folder for the local driver. */
type DemoPictures = { storage: FileStorage } | { uploadsDir: string };

/** Idempotent: every insert skips rows that already exist, so running it again changes nothing. */
/** `webhookSecret`: AUTH_SECRET, which the demo webhook endpoint's signing secret is sealed with; without it there is none. */
export async function seedDemo(db: Database, options: DemoPictures & { now?: Date; webhookSecret?: string }) {
  const now = options.now ?? new Date();
  const storage = "storage" in options ? options.storage : localStorage(options.uploadsDir);
  await db
    .insert(categories)
    .values(categoryList.map((c) => ({ name: c.name, slug: c.slug })))
    .onConflictDoNothing({ target: categories.slug });
  await db.insert(fxRates).values(demoFxRates).onConflictDoNothing({ target: fxRates.currencyCode });

  // Every demo account has the same, published password: one argon2 hash (a deliberately slow ~50 ms of
  // CPU each) serves all forty of them instead of forty hashes on every first start.
  const password = { hash: await hash(DEMO_PASSWORD) };
  // Vendor accounts first: the admins' user list shows the newest first, and the demo's own accounts
  // should lead it.
  const vendorOwners = await upsertVendorAccounts(db, password);
  const seller = await upsertDemoUsers(db, password);
  vendorOwners.set(SAMIR_VENDOR, seller);
  const ownerOf = await describeDemoVendors(db, vendorOwners, storage, now);
  const ids = demoProducts.map((p) => demoProductId(p.key));
  const existing = new Set(
    (await db.select({ id: products.id }).from(products).where(inArray(products.id, ids))).map((r) => r.id),
  );
  const missing = demoProducts.filter((p) => !existing.has(demoProductId(p.key)));
  // Rendering the pictures is most of a first start's seed: products render side by side on every core.
  const imagesOf = await inParallel(missing, (p) => writeProductImages(storage, p));
  if (missing.length > 0) {
    // One transaction and one statement per table rather than three per product: a product is stored
    // whole with its features and specifications, or not at all.
    await db.transaction(async (tx) => {
      await tx.insert(products).values(
        missing.map((p, i) => {
          const images = imagesOf[i] ?? [];
          const createdAt = new Date(now.getTime() - p.createdDaysAgo * DAY_MS);
          return {
            id: demoProductId(p.key),
            sellerId: ownerOf(p.vendor),
            name: p.name,
            description: p.description,
            category: p.category,
            price: p.price,
            originalPrice: p.originalPrice,
            pricingUnit: p.pricingUnit,
            imageUrl: images[0] ?? null,
            images,
            vendor: p.vendor,
            hasDiscount: p.discountLabel !== null,
            discountLabel: p.discountLabel,
            discountPercentage: p.discountPercentage,
            isResellable: p.isResellable,
            createdAt,
            updatedAt: createdAt,
          };
        }),
      );
      await tx
        .insert(productFeatures)
        .values(
          missing.flatMap((p) =>
            p.features.map((feature, position) => ({ productId: demoProductId(p.key), feature, position })),
          ),
        );
      await tx.insert(productSpecifications).values(
        missing.flatMap((p) =>
          p.specifications.map(([specKey, specValue], position) => ({
            productId: demoProductId(p.key),
            specKey,
            specValue,
            position,
          })),
        ),
      );
    });
  }

  await seedDemoPlans(db, demoProductId);

  // Ratings come only from reviews: real demo orders and reviews stand behind every rated product.
  await seedDemoReviews(db, {
    now,
    password,
    catalogue: demoProducts.map((p) => ({ ...p, id: demoProductId(p.key) })),
  });
  await seedDemoQuestions(db, { now, productIdOf: demoProductId });
  await seedDemoSellerKey(db, { now, sellerId: seller });
  await seedDemoWebhook(db, { now, sellerId: seller, secret: options.webhookSecret });
  await seedDemoSubscriptions(db, {
    now,
    catalogue: demoProducts.map((p) => ({ ...p, id: demoProductId(p.key) })),
  });
  await seedDemoActivations(db, { now });

  await db
    .insert(sitePages)
    .values(
      demoPages.map((p) => ({
        slug: p.slug,
        title: p.title,
        content: p.content,
        isActive: p.isActive,
        seoMeta: { title: `${p.title} | Stackbay`, description: p.description },
      })),
    )
    .onConflictDoNothing({ target: sitePages.slug });
  await db
    .insert(siteContentBlocks)
    .values(demoContentBlocks)
    .onConflictDoNothing({ target: siteContentBlocks.key });

  return { products: missing.length, categories: categoryList.length, accounts: demoAccounts.length };
}

/** Creates the demo accounts that do not exist yet; returns the demo seller's id. */
async function upsertDemoUsers(db: Database, password: { hash: string }): Promise<string> {
  let sellerId = "";
  for (const demo of demoAccounts) {
    const { id } = await createOrGrantAccount(db, { ...demo, roles: [...demo.roles], password });
    if (demo.roles.includes("seller")) sellerId = id;
  }
  return sellerId;
}

/**
 * Every catalogue vendor as a storefront of its own demo seller (Samir's is Cinderpath Security), with a
 * drawn logo, description, website and country; a few verified. Details are written only into a
 * storefront that has none yet, so a seeded install's own edits survive a second seed.
 */
async function upsertVendorAccounts(db: Database, password: { hash: string }) {
  const owners = new Map<string, string>();
  for (const vendor of demoVendors) {
    if (vendor.name === SAMIR_VENDOR) continue;
    const [firstName, lastName] = vendor.contact;
    const { id } = await createOrGrantAccount(db, {
      email: vendorEmail(vendor),
      firstName,
      lastName,
      roles: ["seller"],
      password,
      storefront: vendor.name,
    });
    owners.set(vendor.name, id);
  }
  return owners;
}

/** Writes each storefront's details once; returns the owner of each vendor's products. */
async function describeDemoVendors(
  db: Database,
  owners: Map<string, string>,
  storage: FileStorage,
  now: Date,
) {
  // Every vendor's storefront in one read: each statement is a round through the embedded database on a
  // first start, before the server listens.
  const fronts = new Map(
    (
      await db
        .select()
        .from(storefronts)
        .where(inArray(storefronts.userId, owners.size > 0 ? [...owners.values()] : [""]))
    ).map((front) => [front.userId, front]),
  );
  const undescribed = [];
  for (const vendor of demoVendors) {
    const ownerId = owners.get(vendor.name);
    if (!ownerId) continue;
    const front = fronts.get(ownerId);
    if (front && front.description === null) undescribed.push({ vendor, ownerId, front });
  }
  const logoUrls = await inParallel(undescribed, ({ vendor, front }) => {
    return writeVendorLogo(storage, {
      slug: front.slug,
      name: vendor.name,
      accent: vendorAccent(vendor.name),
    });
  });
  for (const [i, { vendor, ownerId }] of undescribed.entries()) {
    const logoUrl = logoUrls[i] ?? null;
    // A vendor joined a month before its oldest listing (and so before its first sale), so "Member
    // since" reads like a live site's; the demo seller too, whose storefront shows the same date.
    const oldest = Math.max(
      0,
      ...demoProducts.filter((p) => p.vendor === vendor.name).map((p) => p.createdDaysAgo),
    );
    const joined = new Date(now.getTime() - (oldest + 30) * DAY_MS);
    await db
      .update(storefronts)
      .set({
        description: vendor.description,
        website: vendorWebsite(vendor),
        country: vendor.country,
        logoUrl,
        isVerified: vendor.verified,
        verifiedAt: vendor.verified ? joined : null,
        createdAt: joined,
      })
      .where(eq(storefronts.userId, ownerId));
    await db.update(user).set({ createdAt: joined }).where(eq(user.id, ownerId));
  }
  return (vendor: string) => {
    const owner = owners.get(vendor);
    if (!owner) throw new Error(`demo vendor ${vendor} has no storefront in vendor-data.ts`);
    return owner;
  };
}

/** Seeds only a database that has neither products nor users, so a real install is never touched. */
export async function seedDemoIfEmpty(db: Database, options: DemoPictures & { webhookSecret?: string }) {
  const [productRows] = await db.select({ n: count() }).from(products);
  const [userRows] = await db.select({ n: count() }).from(user);
  if ((productRows?.n ?? 0) > 0 || (userRows?.n ?? 0) > 0) return null;
  return seedDemo(db, options);
}
