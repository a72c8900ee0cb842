import { Suspense, useEffect, useRef } from "react";
import { Outlet, useLocation } from "react-router";
import { HOSTED_TEST_PAGES, paths } from "#domain/routes";
import { Navbar } from "#web/components/layout/navbar";
import { usePreferenceSync } from "#web/features/account/use-preference-sync";
import { usePaymentsConfig } from "#web/features/payments/api/get-payments-config";
import { HydrateLater } from "#web/lib/hydration";
import { Lazy, lazyPart } from "#web/lib/lazy-part";
import { cn } from "#web/lib/utils";

/** Whether a path is one of the admin screens, which use the admin shell (their bar, no marketing footer). */
export const isAdminPath = (pathname: string) =>
  pathname === paths.admin.overview() || pathname.startsWith(`${paths.admin.overview()}/`);

/** Only admins see it: its code comes with the admin screens' (the route table preloads it with them). */
export const adminNav = lazyPart(() => import("#web/components/layout/admin-nav").then((m) => m.AdminNav));

/**
 * Below the fold and drawn by the server: its code loads while the page is taken over, and React hydrates
 * the footer's part once it has come (a tap on it before then is replayed after).
 */
const footer = lazyPart(() => import("#web/components/layout/footer").then((m) => m.Footer));

/** Shown only while payments take no real money: its code loads once the payments config says so. */
const testModeBanner = lazyPart(() =>
  import("#web/features/payments/components/test-mode-banner").then((m) => m.TestModeBanner),
);

function TestModeBanner() {
  const { data } = usePaymentsConfig();
  if (!data?.testMode) return null;
  return (
    <Suspense fallback={null}>
      <Lazy part={testModeBanner} props={{}} />
    </Suspense>
  );
}

/**
 * The test-mode provider's hosted pages stand where Stripe's and PayPal's would: a page of their own,
 * without the marketplace's header and footer, so the keyboard reaches Pay (or the onboarding's
 * choice) at the first Tab instead of after a dozen header links. They all live under one prefix
 * (`testPayment`, `testConnect`, `testSetup`).
 */
const isHostedPath = (pathname: string) => pathname.startsWith(HOSTED_TEST_PAGES);

/** Its own component, so that the account loading after the page does not re-render the whole layout. */
function PreferenceSync() {
  usePreferenceSync();
  return null;
}

export function RootLayout() {
  const { pathname } = useLocation();
  const pageStart = useRef<HTMLParagraphElement>(null);
  const loaded = useRef(false);
  // A fresh load leaves focus at the start of the document, so the first Tab reaches the skip link.
  // After a navigation focus goes back there too, not past the navigation: the element names the new
  // page (its title) for screen readers, and the next Tab is the skip link, then the header.
  // Admin screens are a workspace: their own navigation, no marketing footer or newsletter box.
  const admin = isAdminPath(pathname);
  const hosted = isHostedPath(pathname);
  useEffect(() => {
    if (!pathname || !loaded.current) {
      loaded.current = true;
      return;
    }
    // One frame later the new route's `<title>` is in the head (React puts it there as it commits).
    const frame = requestAnimationFrame(() => {
      const start = pageStart.current;
      if (!start) return;
      start.textContent = document.title;
      start.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(frame);
  }, [pathname]);
  return (
    <div className="flex min-h-dvh flex-col">
      <p ref={pageStart} tabIndex={-1} className="sr-only" data-testid="page-start" />
      {!hosted && (
        <>
          <a
            href="#main"
            className="sr-only z-50 rounded-md bg-primary px-4 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
          >
            Skip to content
          </a>
          <HydrateLater>
            <Navbar />
          </HydrateLater>
        </>
      )}
      <main id="main" tabIndex={-1} className={cn("flex-1 outline-none print:pt-0", !hosted && "pt-16")}>
        {admin && (
          <Suspense fallback={null}>
            <Lazy part={adminNav} props={{}} />
          </Suspense>
        )}
        <HydrateLater>
          <Outlet />
        </HydrateLater>
      </main>
      {hosted ? null : admin ? (
        <footer className="border-t border-border py-3 text-center text-xs text-muted-foreground print:hidden">
          Stackbay admin
        </footer>
      ) : (
        <HydrateLater>
          <Lazy part={footer} props={{}} />
        </HydrateLater>
      )}
      <PreferenceSync />
      <TestModeBanner />
    </div>
  );
}
