import { createBrowserRouter, Navigate, type RouteObject, useParams } from "react-router";
import { routePatterns as r } from "#domain/routes";
import { RouteError } from "#web/app/route-error";
import { Component as NotFound } from "#web/app/routes/not-found";
import { RootLayout } from "#web/components/layout/root-layout";
import { ScreenPending } from "#web/components/layout/screen-pending";
import { RequireAdmin, RequireUser } from "#web/features/auth/components/guards";
import { paths } from "#web/paths";

type Access = "public" | "user" | "admin";

function screen(path: string, access: Access, title: string, purpose: string): RouteObject {
  const content = <ScreenPending title={title} purpose={purpose} />;
  const element =
    access === "admin" ? (
      <RequireAdmin>{content}</RequireAdmin>
    ) : access === "user" ? (
      <RequireUser>{content}</RequireUser>
    ) : (
      content
    );
  return { path, element };
}

/** Old link shapes (product cards, page links) land on the screens of the route table. */
function Redirect({ to }: { to: (params: Record<string, string | undefined>) => string }) {
  const params = useParams();
  return <Navigate to={to(params)} replace />;
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      { path: r.home, lazy: () => import("#web/app/routes/home") },
      { path: r.products, lazy: () => import("#web/app/routes/products") },
      { path: r.product, lazy: () => import("#web/app/routes/product") },
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
      screen(r.page, "public", "Stackbay", "A page from Stackbay's content library."),
      { path: r.unauthorized, lazy: () => import("#web/app/routes/unauthorized") },
      { path: r.dashboard, lazy: () => import("#web/app/routes/dashboard") },
      { path: r.dashboardView, lazy: () => import("#web/app/routes/dashboard") },
      { path: r.checkout, lazy: () => import("#web/app/routes/checkout") },
      screen(r.adminAddProduct, "admin", "Add Product", "List a new product in the catalogue."),
      screen(r.adminProducts, "admin", "Products", "Search, edit and deactivate catalogue products."),
      screen(r.adminEditProduct, "admin", "Edit Product", "Change a product's details, images and status."),
      screen(r.adminCategories, "admin", "Categories", "Add and remove product categories."),
      screen(r.adminPages, "admin", "Pages", "Content pages and their publication status."),
      screen(r.adminAddPage, "admin", "New Page", "Write a content page."),
      screen(r.adminEditPage, "admin", "Edit Page", "Change a content page."),
      screen(r.adminContent, "admin", "Content Blocks", "Edit the texts shown across the site."),
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
