import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { matchRoute, routePatterns } from "#domain/routes";
import { sitePages } from "#server/db/schema/content";
import { publicUrl } from "#server/env";
import { escapeHtml } from "#server/lib/escape-html";
import { findActiveProduct } from "#server/modules/catalog/repository";
import { findPublicStorefront } from "#server/modules/storefronts/service";

const SITE_NAME = "Stackbay";
const DEFAULT_DESCRIPTION =
  "Stackbay is the global marketplace for SaaS, APIs and developer tools, hardware, software licenses and digital services.";

export type HeadTags = {
  title: string;
  description: string;
  image?: string;
  type?: string;
  /** The page's largest picture, fetched while the app's JavaScript loads rather than after it ran. */
  preloadImage?: string;
};

function tags(base: string, pathname: string, head: HeadTags): string {
  const url = `${base}${pathname}`;
  const lines = [
    `<title>${escapeHtml(head.title)}</title>`,
    `<meta name="description" content="${escapeHtml(head.description)}" />`,
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
    `<meta property="og:site_name" content="${SITE_NAME}" />`,
    `<meta property="og:type" content="${head.type ?? "website"}" />`,
    `<meta property="og:title" content="${escapeHtml(head.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(head.description)}" />`,
    `<meta property="og:url" content="${escapeHtml(url)}" />`,
  ];
  if (head.image)
    lines.push(`<meta property="og:image" content="${escapeHtml(new URL(head.image, base).href)}" />`);
  if (head.preloadImage)
    lines.push(
      `<link rel="preload" as="image" href="${escapeHtml(head.preloadImage)}" fetchpriority="high" />`,
    );
  return lines.join("\n    ");
}

const DEFAULT_HEAD: HeadTags = {
  title: `${SITE_NAME} | Global marketplace for technology products and deals`,
  description: DEFAULT_DESCRIPTION,
};

function summary(text: string | null | undefined, fallback: string): string {
  const plain = (text ?? "")
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (!plain) return fallback;
  return plain.length > 160 ? `${plain.slice(0, 157).trimEnd()}...` : plain;
}

/**
 * Pages whose words are the app's own but which carry a title and description of their own for crawlers
 * and link previews; the title is the one the page's screen sets.
 */
const STATIC_HEADS: readonly [pattern: string, head: HeadTags][] = [
  [
    routePatterns.developers,
    {
      title: `Seller API | ${SITE_NAME}`,
      description:
        "How a seller's own systems read their Stackbay orders and subscriptions with an API key: authentication, scopes, operations, errors and rate limits.",
    },
  ],
];

/** Head tags from the database for product and content pages; null when the record does not exist. */
async function headFromData(app: FastifyInstance, pathname: string): Promise<HeadTags | null | undefined> {
  const { db } = app.database;
  const product = matchRoute(routePatterns.product, pathname);
  if (product) {
    const id = product.id ?? "";
    const row = z.uuid().safeParse(id).success ? await findActiveProduct(db, id) : null;
    if (!row) return null;
    return {
      title: `${row.name}${row.vendor ? ` by ${row.vendor}` : ""} | ${SITE_NAME}`,
      description: summary(row.description, `${row.name} on ${SITE_NAME}.`),
      image: row.imageUrl ?? undefined,
      type: "product",
      // The picture the product page shows first (its first image, else the listing picture).
      preloadImage: row.images[0] ?? row.imageUrl ?? undefined,
    };
  }
  const vendor = matchRoute(routePatterns.vendor, pathname);
  if (vendor) {
    const found = await findPublicStorefront(db, vendor.slug ?? "");
    if (!found) return null;
    const { name, description, logoUrl } = found.storefront;
    return {
      title: `${name} | ${SITE_NAME}`,
      description: summary(
        description,
        `${name}'s storefront on ${SITE_NAME}: their products, rating and reviews.`,
      ),
      image: logoUrl ?? undefined,
      type: "profile",
    };
  }
  const page = matchRoute(routePatterns.page, pathname);
  if (page) {
    const [row] = await db
      .select()
      .from(sitePages)
      .where(and(eq(sitePages.slug, page.slug ?? ""), eq(sitePages.isActive, true)));
    if (!row) return null;
    return {
      title: row.seoMeta?.title || row.title || SITE_NAME,
      description: summary(row.seoMeta?.description || row.content, DEFAULT_DESCRIPTION),
      image: row.seoMeta?.og_image_url || undefined,
      type: "article",
    };
  }
  return undefined;
}

/**
 * The <head> tags for a page path, and whether the thing it names exists: a product or content page
 * that is missing or inactive still gets the app (which shows its not-found state) but with status 404.
 */
export async function renderHead(
  app: FastifyInstance,
  pathname: string,
): Promise<{ head: string; found: boolean }> {
  const base = publicUrl(app.env);
  const fixed = STATIC_HEADS.find(([pattern]) => matchRoute(pattern, pathname) !== null)?.[1];
  if (fixed) return { head: tags(base, pathname, fixed), found: true };
  const fromData = await headFromData(app, pathname);
  return { head: tags(base, pathname, fromData ?? DEFAULT_HEAD), found: fromData !== null };
}
