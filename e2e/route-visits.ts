import { randomUUID } from "node:crypto";
import type { Cookie, Page } from "playwright-core";
import { expect } from "vitest";
import type { ProductList } from "#domain/catalog-schemas";
import type { PageListItem } from "#domain/cms";
import { type DashboardView, href, routePatterns } from "#domain/routes";
import { type DemoAccount, newAccount, type setupBrowser } from "./browser";
import { placeOrder } from "./orders";

type Browser = ReturnType<typeof setupBrowser>;

/** Who opens a route: nobody, a demo account, or an account made here (its own orders and payout account). */
export type Who = DemoAccount | "visitor" | "new buyer" | "new seller";
/** `allowErrors`: console errors the visit provokes on purpose (an id that names nothing answers 404). */
export type Visit = { path: string; who: Who; allowErrors?: RegExp[] };

/** Each dashboard view as the role it is for. */
export const viewOwners: Record<DashboardView, DemoAccount> = {
  sales: "seller",
  notifications: "seller",
  saved: "buyer",
  licenses: "buyer",
  subscriptions: "buyer",
  profile: "buyer",
  wallet: "seller",
  settings: "buyer",
  reseller: "reseller",
  refunds: "seller",
  earnings: "seller",
  shipping: "seller",
  questions: "seller",
  storefront: "seller",
  recurring: "seller",
  api: "seller",
  webhooks: "seller",
};

export type RouteVisits = {
  visits: Record<keyof typeof routePatterns, Visit>;
  /** The cookies of the accounts made here ("new buyer", "new seller"). */
  cookies: Partial<Record<Who, Cookie[]>>;
};

/**
 * Every route of the table, opened directly (typed in, or a link from outside), as the person it is for,
 * with real ids and slugs. A route added to the table without a visit here fails the type check.
 * Sets up what the routes need (an order waiting on the test payment page, a payout onboarding).
 */
export async function routeVisits(browser: Browser): Promise<RouteVisits> {
  const cookies: RouteVisits["cookies"] = {};
  const setup = await browser.newPage();
  const { items } = (await (
    await setup.request.get("/api/products?pageSize=2&category=saas")
  ).json()) as ProductList;
  const [product, other] = items;
  if (!product || !other) throw new Error("the demo data has fewer than two SaaS products");

  // A buyer of their own, with an order waiting on the test payment page.
  const buyer = await browser.newPage();
  const { email } = await newAccount(buyer, { firstName: "Rhoda", accountType: "buyer" });
  const { orderId, redirectUrl } = await placeOrder(buyer.request, {
    email,
    items: [{ productId: product.id, price: product.price }],
  });
  // And a card being saved on the test provider's setup page.
  const started = await buyer.request.post("/api/payment-methods/setups", { data: { kind: "card" } });
  expect(started.status()).toBe(200);
  const setupPath = new URL(((await started.json()) as { redirectUrl: string }).redirectUrl).pathname;
  cookies["new buyer"] = await buyer.context().cookies();

  // A seller of their own, part way through the test-mode Stripe onboarding.
  const seller = await browser.newPage();
  await newAccount(seller, { firstName: "Route", accountType: "seller" });
  const onboarding = await seller.request.post("/api/payouts/account/stripe", { data: { country: "DE" } });
  expect(onboarding.status()).toBe(200);
  const connectPath = new URL(((await onboarding.json()) as { url: string }).url).pathname;
  cookies["new seller"] = await seller.context().cookies();

  const admin = await browser.newPage({ as: "superadmin" });
  const pages = (await (await admin.request.get("/api/admin/pages")).json()) as { items: PageListItem[] };
  const page = pages.items.find((item) => item.slug === "buyer-protection");
  if (!page) throw new Error("the demo data has no buyer-protection page");
  const batches = (await (await admin.request.get("/api/admin/payouts/batches")).json()) as {
    items: { id: string }[];
  };
  // The demo data pays nobody out; a batch run by another journey is used when there is one, and the
  // screen's not-found state otherwise.
  const batch = batches.items[0];
  const sellerProducts = (await (
    await (await browser.newPage({ as: "seller" })).request.get("/api/manage/products")
  ).json()) as { items: { id: string }[] };
  const sellerProduct = sellerProducts.items[0];
  if (!sellerProduct) throw new Error("the demo seller has no product");

  const id = { id: product.id };
  const visits: RouteVisits["visits"] = {
    home: { path: href(routePatterns.home), who: "visitor" },
    products: { path: href(routePatterns.products), who: "visitor" },
    product: { path: href(routePatterns.product, id), who: "visitor" },
    compare: { path: `${href(routePatterns.compare)}?ids=${product.id},${other.id}`, who: "visitor" },
    cart: { path: href(routePatterns.cart), who: "visitor" },
    login: { path: href(routePatterns.login), who: "visitor" },
    signup: { path: href(routePatterns.signup), who: "visitor" },
    verify: { path: href(routePatterns.verify), who: "visitor" },
    forgotPassword: { path: href(routePatterns.forgotPassword), who: "visitor" },
    about: { path: href(routePatterns.about), who: "visitor" },
    contact: { path: href(routePatterns.contact), who: "visitor" },
    faq: { path: href(routePatterns.faq), who: "visitor" },
    privacy: { path: href(routePatterns.privacy), who: "visitor" },
    terms: { path: href(routePatterns.terms), who: "visitor" },
    partner: { path: href(routePatterns.partner), who: "visitor" },
    developers: { path: href(routePatterns.developers), who: "visitor" },
    page: { path: href(routePatterns.page, { slug: page.slug }), who: "visitor" },
    vendor: { path: href(routePatterns.vendor, { slug: product.vendorSlug ?? "" }), who: "visitor" },
    unauthorized: { path: href(routePatterns.unauthorized), who: "visitor" },
    dashboard: { path: href(routePatterns.dashboard), who: "buyer" },
    // Every view: see the test below.
    dashboardView: { path: href(routePatterns.dashboardView, { view: "saved" }), who: "buyer" },
    checkout: { path: href(routePatterns.checkout), who: "buyer" },
    checkoutComplete: { path: `${href(routePatterns.checkoutComplete)}?order=${orderId}`, who: "new buyer" },
    testPayment: { path: new URL(redirectUrl).pathname, who: "new buyer" },
    testConnect: { path: connectPath, who: "new seller" },
    testSetup: { path: setupPath, who: "new buyer" },
    invoice: { path: href(routePatterns.invoice, { id: orderId }), who: "new buyer" },
    adminOverview: { path: href(routePatterns.adminOverview), who: "admin" },
    adminAddProduct: { path: href(routePatterns.adminAddProduct), who: "admin" },
    adminProducts: { path: href(routePatterns.adminProducts), who: "admin" },
    adminEditProduct: { path: href(routePatterns.adminEditProduct, id), who: "admin" },
    adminCategories: { path: href(routePatterns.adminCategories), who: "admin" },
    adminPages: { path: href(routePatterns.adminPages), who: "admin" },
    adminAddPage: { path: href(routePatterns.adminAddPage), who: "admin" },
    adminEditPage: { path: href(routePatterns.adminEditPage, { id: page.id }), who: "admin" },
    adminContent: { path: href(routePatterns.adminContent), who: "admin" },
    adminInbox: { path: href(routePatterns.adminInbox), who: "admin" },
    adminOrders: { path: href(routePatterns.adminOrders), who: "admin" },
    adminUsers: { path: href(routePatterns.adminUsers), who: "superadmin" },
    adminSystem: { path: href(routePatterns.adminSystem), who: "superadmin" },
    adminAudit: { path: href(routePatterns.adminAudit), who: "superadmin" },
    adminTaxRates: { path: href(routePatterns.adminTaxRates), who: "superadmin" },
    adminRefunds: { path: href(routePatterns.adminRefunds), who: "admin" },
    adminSubscriptions: { path: href(routePatterns.adminSubscriptions), who: "admin" },
    adminCommissions: { path: href(routePatterns.adminCommissions), who: "superadmin" },
    adminPayouts: { path: href(routePatterns.adminPayouts), who: "superadmin" },
    adminPayoutBatch: batch
      ? { path: href(routePatterns.adminPayoutBatch, { id: batch.id }), who: "superadmin" }
      : {
          path: href(routePatterns.adminPayoutBatch, { id: randomUUID() }),
          who: "superadmin",
          allowErrors: [/status of 404/],
        },
    adminFinance: { path: href(routePatterns.adminFinance), who: "superadmin" },
    adminModeration: { path: href(routePatterns.adminModeration), who: "admin" },
    adminFeatured: { path: href(routePatterns.adminFeatured), who: "admin" },
    adminSearch: { path: href(routePatterns.adminSearch), who: "admin" },
    sellerProducts: { path: href(routePatterns.sellerProducts), who: "seller" },
    sellerAddProduct: { path: href(routePatterns.sellerAddProduct), who: "seller" },
    sellerEditProduct: {
      path: href(routePatterns.sellerEditProduct, { id: sellerProduct.id }),
      who: "seller",
    },
    legacyProduct: { path: href(routePatterns.legacyProduct, id), who: "visitor" },
    legacyPage: { path: href(routePatterns.legacyPage, { slug: page.slug }), who: "visitor" },
    legacyAddProduct: { path: href(routePatterns.legacyAddProduct), who: "admin" },
    legacyEditPage: { path: href(routePatterns.legacyEditPage, { id: page.id }), who: "admin" },
  };
  return { visits, cookies };
}

/** A page for a visit, signed in as its account. */
export async function pageFor(
  browser: Browser,
  { who, allowErrors }: Pick<Visit, "who" | "allowErrors">,
  options: { javaScript?: boolean; width?: number; height?: number } = {},
  cookies: RouteVisits["cookies"] = {},
): Promise<Page> {
  const demo = who === "visitor" || who === "new buyer" || who === "new seller" ? undefined : who;
  const page = await browser.newPage({ as: demo, allowErrors, ...options });
  const own = cookies[who];
  if (own) await page.context().addCookies(own);
  return page;
}

/**
 * An order an admin confirmed by hand, so the Finance screen's reconciliation has a table of
 * differences to lay out (it once widened the whole page at 768 px).
 */
export async function orderConfirmedByHand(browser: Browser) {
  const buyer = await browser.newPage({ as: "buyer" });
  const admin = await browser.newPage({ as: "admin" });
  const software = (await (await buyer.request.get("/api/products?category=software&pageSize=1")).json()) as {
    items: { id: string; price: number }[];
  };
  const item = software.items[0];
  if (!item) throw new Error("no software product");
  const { orderId } = await placeOrder(buyer.request, {
    country: "PT",
    items: [{ productId: item.id, price: item.price }],
  });
  const confirmed = await admin.request.patch(`/api/admin/orders/${orderId}`, {
    data: { paymentStatus: "mock_confirmed" },
  });
  expect(confirmed.status()).toBe(200);
}
