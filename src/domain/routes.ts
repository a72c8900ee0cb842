import { productFiltersToSearch } from "#domain/catalog";
import type { ProductListQuery } from "#domain/catalog-schemas";

/** The query parameter a reseller link to a product page carries: `?ref=CODE`. */
export const REFERRAL_PARAM = "ref";

/**
 * Every page path the app answers, and the one place a page path is written: the web router renders
 * these, the server answers 200 for these and 404 for anything else (so crawlers see real not-found
 * pages), and every link (web `paths.*`, e-mails, invoices, sitemap, reseller links) is built from them.
 */
export const routePatterns = {
  home: "/",
  products: "/products",
  product: "/products/:id",
  /** Two to four products side by side: `?ids=a,b,c`. */
  compare: "/compare",
  cart: "/cart",
  login: "/login",
  signup: "/signup",
  verify: "/verify",
  forgotPassword: "/forgot-password",
  about: "/about",
  contact: "/contact",
  faq: "/faq",
  privacy: "/privacy",
  terms: "/terms",
  partner: "/partner",
  /** For sellers' developers: the seller API's keys, scopes, errors and limits. */
  developers: "/developers",
  page: "/pages/:slug",
  vendor: "/vendors/:slug",
  unauthorized: "/unauthorized",
  dashboard: "/dashboard",
  dashboardView: "/dashboard/:view",
  checkout: "/checkout",
  /** Where a payment provider sends the buyer back: `?order=<id>`. */
  checkoutComplete: "/checkout/complete",
  /** The test-mode provider's hosted payment page. */
  testPayment: "/pay/test/:ref",
  /** The test-mode stand-in for Stripe Connect's hosted onboarding of a payout account. */
  testConnect: "/pay/test/connect/:accountId",
  /** The test-mode provider's hosted page for saving a card or a PayPal account. */
  testSetup: "/pay/test/setup/:ref",
  invoice: "/dashboard/orders/:id/invoice",
  adminOverview: "/admin",
  adminAddProduct: "/admin/add-product",
  adminProducts: "/admin/products",
  adminEditProduct: "/admin/products/:id/edit",
  adminCategories: "/admin/categories",
  adminPages: "/admin/pages",
  adminAddPage: "/admin/pages/add",
  adminEditPage: "/admin/pages/:id",
  adminContent: "/admin/content",
  adminInbox: "/admin/inbox",
  adminOrders: "/admin/orders",
  adminUsers: "/admin/users",
  adminSystem: "/admin/system",
  adminAudit: "/admin/audit",
  adminTaxRates: "/admin/tax-rates",
  adminRefunds: "/admin/refunds",
  adminSubscriptions: "/admin/subscriptions",
  adminCommissions: "/admin/commissions",
  adminPayouts: "/admin/payouts",
  adminPayoutBatch: "/admin/payouts/:id",
  adminFinance: "/admin/finance",
  adminModeration: "/admin/moderation",
  adminFeatured: "/admin/featured",
  adminSearch: "/admin/search",
  sellerProducts: "/seller/products",
  sellerAddProduct: "/seller/products/new",
  sellerEditProduct: "/seller/products/:id/edit",
  // Paths that older links point to; the router sends them to the screens above.
  legacyProduct: "/product/:id",
  legacyPage: "/page/:slug",
  legacyAddProduct: "/admin/products/add",
  legacyEditPage: "/admin/pages/edit/:id",
} as const;

/** The prefix every hosted page of the test-mode provider lives under (`testPayment`, `testConnect`, `testSetup`). */
export const HOSTED_TEST_PAGES = "/pay/test/";

export const dashboardViews = [
  "sales",
  "notifications",
  "saved",
  "licenses",
  "subscriptions",
  "profile",
  "wallet",
  "settings",
  "reseller",
  "refunds",
  "earnings",
  "shipping",
  "questions",
  "storefront",
  "recurring",
  "api",
  "webhooks",
] as const;
export type DashboardView = (typeof dashboardViews)[number];
/** `/dashboard` itself shows the buyer's orders; the other views have a path of their own. */
export type DashboardSection = "orders" | DashboardView;

/** The `:name` segments of a pattern, as a union of their names. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<Rest>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;
export type RouteParams<P extends string> = { [K in ParamNames<P>]: string };

/**
 * A concrete path from a pattern of the table, each `:param` percent-encoded; the params a pattern
 * names are required by its type (none for a static pattern).
 */
export function href<P extends string>(
  pattern: P,
  ...[params]: [ParamNames<P>] extends [never] ? [] : [params: RouteParams<P>]
): string {
  const values: Record<string, string | undefined> = params ?? {};
  return pattern.replace(/:([A-Za-z]+)/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`No value for :${name} in ${pattern}`);
    return encodeURIComponent(value);
  });
}

const r = routePatterns;

/** Every link the app writes, built from the table; the call sites read `paths.product(id)`. */
export const paths = {
  home: () => href(r.home),
  products: (filters?: Partial<ProductListQuery>) =>
    `${href(r.products)}${productFiltersToSearch(filters ?? {})}`,
  product: (id: string) => href(r.product, { id }),
  /** Commas stay literal so a shared link reads `?ids=a,b,c`. */
  compare: (ids: readonly string[] = []) =>
    ids.length > 0 ? `${href(r.compare)}?ids=${ids.map(encodeURIComponent).join(",")}` : href(r.compare),
  cart: () => href(r.cart),
  checkout: () => href(r.checkout),
  checkoutComplete: (orderId: string) => `${href(r.checkoutComplete)}?order=${encodeURIComponent(orderId)}`,
  testPayment: (ref: string) => href(r.testPayment, { ref }),
  testConnect: (accountId: string) => href(r.testConnect, { accountId }),
  testSetup: (ref: string) => href(r.testSetup, { ref }),
  invoice: (orderId: string) => href(r.invoice, { id: orderId }),
  login: () => href(r.login),
  signup: () => href(r.signup),
  verify: () => href(r.verify),
  forgotPassword: () => href(r.forgotPassword),
  about: () => href(r.about),
  contact: () => href(r.contact),
  faq: () => href(r.faq),
  privacy: () => href(r.privacy),
  terms: () => href(r.terms),
  partner: () => href(r.partner),
  developers: () => href(r.developers),
  page: (slug: string) => href(r.page, { slug }),
  vendor: (slug: string) => href(r.vendor, { slug }),
  unauthorized: () => href(r.unauthorized),
  dashboard: (view?: DashboardView) => (view ? href(r.dashboardView, { view }) : href(r.dashboard)),
  admin: {
    overview: () => href(r.adminOverview),
    products: () => href(r.adminProducts),
    addProduct: () => href(r.adminAddProduct),
    editProduct: (id: string) => href(r.adminEditProduct, { id }),
    categories: () => href(r.adminCategories),
    pages: () => href(r.adminPages),
    addPage: () => href(r.adminAddPage),
    editPage: (id: string) => href(r.adminEditPage, { id }),
    content: () => href(r.adminContent),
    inbox: () => href(r.adminInbox),
    orders: () => href(r.adminOrders),
    users: () => href(r.adminUsers),
    system: () => href(r.adminSystem),
    audit: () => href(r.adminAudit),
    taxRates: () => href(r.adminTaxRates),
    refunds: () => href(r.adminRefunds),
    subscriptions: () => href(r.adminSubscriptions),
    commissions: () => href(r.adminCommissions),
    payouts: () => href(r.adminPayouts),
    payoutBatch: (id: string) => href(r.adminPayoutBatch, { id }),
    finance: () => href(r.adminFinance),
    moderation: () => href(r.adminModeration),
    featured: () => href(r.adminFeatured),
    search: () => href(r.adminSearch),
  },
  seller: {
    products: () => href(r.sellerProducts),
    addProduct: () => href(r.sellerAddProduct),
    editProduct: (id: string) => href(r.sellerEditProduct, { id }),
  },
} as const;

/** A page's full address for e-mails, invoices and sitemaps; a trailing slash on the origin is dropped. */
export function absoluteUrl(origin: string, path: string): string {
  return `${origin.replace(/\/+$/, "")}${path}`;
}

/** Pages of one account (or its cart and checkout) that search engines are asked to leave alone. */
export const crawlerDisallowedPaths = [
  r.adminOverview,
  "/admin/",
  r.dashboard,
  r.checkout,
  r.cart,
  "/pay/",
] as const;

/** The public pages the sitemap lists besides the content pages and products it reads from the database. */
export const sitemapStaticPaths = [
  paths.home(),
  paths.products(),
  paths.about(),
  paths.contact(),
  paths.faq(),
  paths.partner(),
  paths.developers(),
  paths.privacy(),
  paths.terms(),
] as const;

/** Matches a concrete path against a pattern with `:param` segments; returns the params or null. */
export function matchRoute(pattern: string, pathname: string): Record<string, string> | null {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  const patternParts = pattern.split("/");
  const pathParts = trimmed.split("/");
  if (patternParts.length !== pathParts.length) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of patternParts.entries()) {
    const actual = pathParts[i] ?? "";
    if (part.startsWith(":")) {
      if (!actual) return null;
      try {
        params[part.slice(1)] = decodeURIComponent(actual);
      } catch {
        return null; // malformed percent-encoding is no page of ours
      }
    } else if (part !== actual) {
      return null;
    }
  }
  return params;
}

export function isKnownPagePath(pathname: string): boolean {
  return Object.entries(routePatterns).some(([name, pattern]) => {
    const params = matchRoute(pattern, pathname);
    if (!params) return false;
    if (name === "dashboardView") return (dashboardViews as readonly string[]).includes(params.view ?? "");
    return true;
  });
}
