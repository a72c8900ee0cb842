import { Component, type ComponentType, type ReactNode, useEffect, useState } from "react";
import {
  type Location,
  matchRoutes,
  Navigate,
  Route,
  Routes,
  useLocation,
  useNavigationType,
  useParams,
} from "react-router";
import { paths, routePatterns as r } from "#domain/routes";
import { RouteError } from "#web/app/route-error";
import { adminNav, RootLayout } from "#web/components/layout/root-layout";
import { Spinner } from "#web/components/ui/spinner";
import { Lazy, type LazyPart, lazyPart } from "#web/lib/lazy-part";
import { ScrollRestoration } from "#web/lib/scroll-restoration";

/**
 * The route table, in React Router's declarative mode (`<Routes>`; decision 0025): the app uses no loader,
 * action or fetcher, so the data router (its navigation state machine, about 17 KB gzip of the home
 * page's JavaScript) did nothing the app needed. What it did do is kept here: each screen's code loads
 * when it is first visited, the screen on display stays until the next one's code has come, a screen that
 * throws or fails to load shows the error screen, and scroll positions are restored.
 */
type ScreenModule = { Component: ComponentType };

const screenModules: [string, () => Promise<ScreenModule>][] = [
  [r.home, () => import("#web/app/routes/home")],
  [r.products, () => import("#web/app/routes/products")],
  [r.product, () => import("#web/app/routes/product")],
  [r.compare, () => import("#web/app/routes/compare")],
  [r.cart, () => import("#web/app/routes/cart")],
  [r.login, () => import("#web/app/routes/login")],
  [r.signup, () => import("#web/app/routes/signup")],
  [r.verify, () => import("#web/app/routes/verify")],
  [r.forgotPassword, () => import("#web/app/routes/forgot-password")],
  [r.about, () => import("#web/app/routes/about")],
  [r.contact, () => import("#web/app/routes/contact")],
  [r.faq, () => import("#web/app/routes/faq")],
  [r.privacy, () => import("#web/app/routes/privacy")],
  [r.terms, () => import("#web/app/routes/terms")],
  [r.partner, () => import("#web/app/routes/partner")],
  [r.developers, () => import("#web/app/routes/developers")],
  [r.page, () => import("#web/app/routes/content-page")],
  [r.vendor, () => import("#web/app/routes/vendor")],
  [r.unauthorized, () => import("#web/app/routes/unauthorized")],
  [r.dashboard, () => import("#web/app/routes/dashboard")],
  [r.dashboardView, () => import("#web/app/routes/dashboard")],
  [r.checkout, () => import("#web/app/routes/checkout")],
  [r.checkoutComplete, () => import("#web/app/routes/checkout-complete")],
  [r.testPayment, () => import("#web/app/routes/test-payment")],
  [r.testConnect, () => import("#web/app/routes/test-connect")],
  [r.testSetup, () => import("#web/app/routes/test-setup")],
  [r.invoice, () => import("#web/app/routes/invoice")],
  [r.adminOverview, () => import("#web/app/routes/admin-overview")],
  [r.adminAddProduct, () => import("#web/app/routes/admin-product-form")],
  [r.adminProducts, () => import("#web/app/routes/admin-products")],
  [r.adminEditProduct, () => import("#web/app/routes/admin-product-form")],
  [r.adminCategories, () => import("#web/app/routes/admin-categories")],
  [r.adminPages, () => import("#web/app/routes/admin-pages")],
  [r.adminAddPage, () => import("#web/app/routes/admin-page-form")],
  [r.adminEditPage, () => import("#web/app/routes/admin-page-form")],
  [r.adminContent, () => import("#web/app/routes/admin-content")],
  [r.adminUsers, () => import("#web/app/routes/admin-users")],
  [r.adminSystem, () => import("#web/app/routes/admin-system")],
  [r.adminTaxRates, () => import("#web/app/routes/admin-tax-rates")],
  [r.adminAudit, () => import("#web/app/routes/admin-audit")],
  [r.adminRefunds, () => import("#web/app/routes/admin-refunds")],
  [r.adminSubscriptions, () => import("#web/app/routes/admin-subscriptions")],
  [r.adminCommissions, () => import("#web/app/routes/admin-commissions")],
  [r.adminPayouts, () => import("#web/app/routes/admin-payouts")],
  [r.adminPayoutBatch, () => import("#web/app/routes/admin-payout-batch")],
  [r.adminFinance, () => import("#web/app/routes/admin-finance")],
  [r.adminModeration, () => import("#web/app/routes/admin-moderation")],
  [r.adminFeatured, () => import("#web/app/routes/admin-featured")],
  [r.adminSearch, () => import("#web/app/routes/admin-search")],
  [r.sellerProducts, () => import("#web/app/routes/seller-products")],
  [r.sellerAddProduct, () => import("#web/app/routes/seller-product-form")],
  [r.sellerEditProduct, () => import("#web/app/routes/seller-product-form")],
  [r.adminInbox, () => import("#web/app/routes/admin-inbox")],
  [r.adminOrders, () => import("#web/app/routes/admin-orders")],
  ["*", () => import("#web/app/routes/not-found")],
];

/** Old link shapes, redirected without code of their own. */
const legacyPaths = [r.legacyProduct, r.legacyPage, r.legacyAddProduct, r.legacyEditPage];

/** Admin screens draw under the admin bar: its code comes with theirs. */
const withAdminNav = (load: () => Promise<ScreenModule>) => (): Promise<ScreenModule> =>
  Promise.all([load(), adminNav.preload()]).then(([module]) => module);

function Screen({ screen }: { screen: LazyPart<object> }) {
  return <Lazy part={screen} props={{}} />;
}

const screens = screenModules.map(([path, load]) => ({
  path,
  ...lazyPart(() =>
    (path.startsWith(`${r.adminOverview}/`) || path === r.adminOverview ? withAdminNav(load) : load)().then(
      (module) => module.Component,
    ),
  ),
}));
/** The same paths for `matchRoutes`, which ranks them as `<Routes>` does. */
const screenPaths = [...screens, ...legacyPaths.map((path) => ({ path }))].map(({ path }) => ({ path }));

function screenAt(pathname: string) {
  const match = matchRoutes(screenPaths, pathname)?.[0];
  return match ? screens[screenPaths.indexOf(match.route)] : undefined;
}

/** Loads the code of the screen at `pathname` (the server and `boot.tsx` wait for it before drawing a page). */
export async function preloadScreen(pathname: string): Promise<void> {
  await screenAt(pathname)?.preload();
}

/**
 * The location to draw: the browser's, once its screen's code is loaded; until then the one on display
 * (null on a first load). A link to a screen not yet visited leaves the current one in place while the
 * code comes, as the data router did, rather than blanking the page.
 */
function useShownLocation(): Location | null {
  const location = useLocation();
  const screen = screenAt(location.pathname);
  const ready = !screen || screen.loaded() !== undefined;
  const [shown, setShown] = useState<Location | null>(ready ? location : null);
  if (ready && shown !== location) setShown(location);
  useEffect(() => {
    if (ready || !screen) return;
    let current = true;
    // A failure is drawn too: the screen asks for its code again and the error screen shows what failed.
    const show = () => current && setShown(location);
    screen.preload().then(show, show);
    return () => {
      current = false;
    };
  }, [location, ready, screen]);
  return ready ? location : shown;
}

/** Old link shapes (product cards, page links) land on the screens of the route table. */
function Redirect({ to }: { to: (params: Record<string, string | undefined>) => string }) {
  const params = useParams();
  return <Navigate to={to(params)} replace />;
}

type BoundaryState = { error: unknown; failed: boolean; location: Location };

/** The error screen in place of the whole page when a screen throws or its code fails to load; gone on the next navigation. */
class RouteErrorBoundary extends Component<{ location: Location; children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { error: null, failed: false, location: this.props.location };
  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error, failed: true };
  }
  static getDerivedStateFromProps(props: { location: Location }, state: BoundaryState) {
    return props.location === state.location
      ? null
      : { error: null, failed: false, location: props.location };
  }
  override render() {
    return this.state.failed ? <RouteError error={this.state.error} /> : this.props.children;
  }
}

/** The app's screens inside its layout, under a router (`BrowserRouter` in the browser, `StaticRouter` on the server). */
export function AppRoutes() {
  const shown = useShownLocation();
  const navigationType = useNavigationType();
  // A page the server did not draw waits, on a direct load, for its screen's code. Server-drawn pages are
  // hydrated only once their code has come (boot.tsx), so they never show this.
  if (!shown) return <Spinner className="min-h-dvh" label="Loading the page" />;
  return (
    <RouteErrorBoundary location={shown}>
      <Routes location={shown}>
        <Route element={<RootLayout />}>
          {screens.map((screen) => (
            <Route key={screen.path} path={screen.path} element={<Screen screen={screen} />} />
          ))}
          <Route path={r.legacyProduct} element={<Redirect to={(p) => paths.product(p.id ?? "")} />} />
          <Route path={r.legacyPage} element={<Redirect to={(p) => paths.page(p.slug ?? "")} />} />
          <Route path={r.legacyAddProduct} element={<Navigate to={paths.admin.addProduct()} replace />} />
          <Route
            path={r.legacyEditPage}
            element={<Redirect to={(p) => paths.admin.editPage(p.id ?? "")} />}
          />
        </Route>
      </Routes>
      <ScrollRestoration location={shown} navigationType={navigationType} />
    </RouteErrorBoundary>
  );
}
