import { useEffect } from "react";
import { Outlet, ScrollRestoration, useLocation } from "react-router";
import { AdminNav, isAdminPath } from "#web/components/layout/admin-nav";
import { Footer } from "#web/components/layout/footer";
import { Navbar } from "#web/components/layout/navbar";
import { usePreferenceSync } from "#web/features/account/use-preference-sync";
import { TestModeBanner } from "#web/features/payments/components/test-mode-banner";

export function RootLayout() {
  const { pathname } = useLocation();
  usePreferenceSync();
  // Admin screens are a workspace: their own navigation, no marketing footer or newsletter box.
  const admin = isAdminPath(pathname);
  // Move focus to the main region on navigation so keyboard and screen-reader users start at the content.
  useEffect(() => {
    if (pathname) document.getElementById("main")?.focus({ preventScroll: true });
  }, [pathname]);
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-primary px-4 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <Navbar />
      <main id="main" tabIndex={-1} className="flex-1 pt-16 outline-none print:pt-0">
        <TestModeBanner />
        {admin && <AdminNav />}
        <Outlet />
      </main>
      {admin ? (
        <footer className="border-t border-border py-3 text-center text-xs text-muted-foreground print:hidden">
          Stackbay admin
        </footer>
      ) : (
        <Footer />
      )}
      <ScrollRestoration />
    </div>
  );
}
