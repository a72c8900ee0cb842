import { createBrowserRouter, Navigate, type RouteObject, useParams } from "react-router";
import { paths, routePatterns as r } from "#domain/routes";
import { RouteError } from "#web/app/route-error";
import { Component as NotFound } from "#web/app/routes/not-found";
import { RootLayout } from "#web/components/layout/root-layout";
import { Spinner } from "#web/components/ui/spinner";

/** Old link shapes (product cards, page links) land on the screens of the route table. */
function Redirect({ to }: { to: (params: Record<string, string | undefined>) => string }) {
  const params = useParams();
  return <Navigate to={to(params)} replace />;
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    // A page the server did not draw waits, on a direct load, for its screen's code; the router shows
    // this meanwhile (without it, nothing and a warning). Server-drawn pages are hydrated only once
    // their code has come (boot.tsx), so they never show it.
    hydrateFallbackElement: <Spinner className="min-h-dvh" label="Loading the page" />,
    children: [
      { path: r.home, lazy: () => import("#web/app/routes/home") },
      { path: r.products, lazy: () => import("#web/app/routes/products") },
      { path: r.product, lazy: () => import("#web/app/routes/product") },
      { path: r.compare, lazy: () => import("#web/app/routes/compare") },
      { path: r.cart, lazy: () => import("#web/app/routes/cart") },
      { path: r.login, lazy: () => import("#web/app/routes/login") },
      { path: r.signup, lazy: () => import("#web/app/routes/signup") },
      { path: r.verify, lazy: () => import("#web/app/routes/verify") },
      { path: r.forgotPassword, lazy: () => import("#web/app/routes/forgot-password") },
      { path: r.about, lazy: () => import("#web/app/routes/about") },
      { path: r.contact, lazy: () => import("#web/app/routes/contact") },
      { path: r.faq, lazy: () => import("#web/app/routes/faq") },
      { path: r.privacy, lazy: () => import("#web/app/routes/privacy") },
      { path: r.terms, lazy: () => import("#web/app/routes/terms") },
      { path: r.partner, lazy: () => import("#web/app/routes/partner") },
      { path: r.page, lazy: () => import("#web/app/routes/content-page") },
      { path: r.vendor, lazy: () => import("#web/app/routes/vendor") },
      { path: r.unauthorized, lazy: () => import("#web/app/routes/unauthorized") },
      { path: r.dashboard, lazy: () => import("#web/app/routes/dashboard") },
      { path: r.dashboardView, lazy: () => import("#web/app/routes/dashboard") },
      { path: r.checkout, lazy: () => import("#web/app/routes/checkout") },
      { path: r.checkoutComplete, lazy: () => import("#web/app/routes/checkout-complete") },
      { path: r.testPayment, lazy: () => import("#web/app/routes/test-payment") },
      { path: r.testConnect, lazy: () => import("#web/app/routes/test-connect") },
      { path: r.invoice, lazy: () => import("#web/app/routes/invoice") },
      { path: r.adminOverview, lazy: () => import("#web/app/routes/admin-overview") },
      { path: r.adminAddProduct, lazy: () => import("#web/app/routes/admin-product-form") },
      { path: r.adminProducts, lazy: () => import("#web/app/routes/admin-products") },
      { path: r.adminEditProduct, lazy: () => import("#web/app/routes/admin-product-form") },
      { path: r.adminCategories, lazy: () => import("#web/app/routes/admin-categories") },
      { path: r.adminPages, lazy: () => import("#web/app/routes/admin-pages") },
      { path: r.adminAddPage, lazy: () => import("#web/app/routes/admin-page-form") },
      { path: r.adminEditPage, lazy: () => import("#web/app/routes/admin-page-form") },
      { path: r.adminContent, lazy: () => import("#web/app/routes/admin-content") },
      { path: r.adminUsers, lazy: () => import("#web/app/routes/admin-users") },
      { path: r.adminSystem, lazy: () => import("#web/app/routes/admin-system") },
      { path: r.adminTaxRates, lazy: () => import("#web/app/routes/admin-tax-rates") },
      { path: r.adminAudit, lazy: () => import("#web/app/routes/admin-audit") },
      { path: r.adminRefunds, lazy: () => import("#web/app/routes/admin-refunds") },
      { path: r.adminCommissions, lazy: () => import("#web/app/routes/admin-commissions") },
      { path: r.adminPayouts, lazy: () => import("#web/app/routes/admin-payouts") },
      { path: r.adminPayoutBatch, lazy: () => import("#web/app/routes/admin-payout-batch") },
      { path: r.adminFinance, lazy: () => import("#web/app/routes/admin-finance") },
      { path: r.adminModeration, lazy: () => import("#web/app/routes/admin-moderation") },
      { path: r.adminFeatured, lazy: () => import("#web/app/routes/admin-featured") },
      { path: r.adminSearch, lazy: () => import("#web/app/routes/admin-search") },
      { path: r.sellerProducts, lazy: () => import("#web/app/routes/seller-products") },
      { path: r.sellerAddProduct, lazy: () => import("#web/app/routes/seller-product-form") },
      { path: r.sellerEditProduct, lazy: () => import("#web/app/routes/seller-product-form") },
      { path: r.adminInbox, lazy: () => import("#web/app/routes/admin-inbox") },
      { path: r.adminOrders, lazy: () => import("#web/app/routes/admin-orders") },
      { path: r.legacyProduct, element: <Redirect to={(p) => paths.product(p.id ?? "")} /> },
      { path: r.legacyPage, element: <Redirect to={(p) => paths.page(p.slug ?? "")} /> },
      { path: r.legacyAddProduct, element: <Navigate to={paths.admin.addProduct()} replace /> },
      { path: r.legacyEditPage, element: <Redirect to={(p) => paths.admin.editPage(p.id ?? "")} /> },
      { path: "*", element: <NotFound /> },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
