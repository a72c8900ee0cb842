/**
 * Every page path the app answers, shared by the web router (which renders them) and the server
 * (which answers 200 for these and 404 for anything else, so crawlers see real not-found pages).
 */
export const routePatterns = {
  home: "/",
  products: "/products",
  product: "/products/:id",
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
  page: "/pages/:slug",
  unauthorized: "/unauthorized",
  dashboard: "/dashboard",
  dashboardView: "/dashboard/:view",
  checkout: "/checkout",
  invoice: "/dashboard/orders/:id/invoice",
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
  adminRefunds: "/admin/refunds",
  adminCommissions: "/admin/commissions",
  sellerProducts: "/seller/products",
  sellerAddProduct: "/seller/products/new",
  sellerEditProduct: "/seller/products/:id/edit",
  // Paths that older links point to; the router sends them to the screens above.
  legacyProduct: "/product/:id",
  legacyPage: "/page/:slug",
  legacyAddProduct: "/admin/products/add",
  legacyEditPage: "/admin/pages/edit/:id",
} as const;

export const dashboardViews = [
  "saved",
  "licenses",
  "profile",
  "wallet",
  "settings",
  "reseller",
  "refunds",
] as const;
export type DashboardView = (typeof dashboardViews)[number];

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
