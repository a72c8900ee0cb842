import { LogIn, Menu, Search, ShoppingCart, X } from "lucide-react";
import { Suspense, useEffect, useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { paths } from "#domain/routes";
import { Button } from "#web/components/ui/button";
import { useMe } from "#web/features/auth/api/get-me";
import { useMeErrorToast } from "#web/features/auth/components/use-me-error-toast";
import { useCartCount } from "#web/features/cart/cart-store";
import { CurrencyPicker } from "#web/features/currency/components/currency-picker";
import { HeaderSearch } from "#web/features/search/components/header-search";
import { ThemeToggle } from "#web/features/theme/theme-toggle";
import { Lazy, lazyPart } from "#web/lib/lazy-part";
import { cn } from "#web/lib/utils";

const links = [
  { to: paths.products(), label: "Products" },
  { to: paths.about(), label: "About" },
  { to: paths.partner(), label: "Partner" },
  { to: paths.faq(), label: "FAQ" },
];

export const NAV_SCROLL_THRESHOLD = 10;

/** A signed-in person's entries (Dashboard, Admin Panel, Log out): the server never draws them, so their code loads once the account has. */
const signedInLinks = lazyPart(() =>
  import("#web/components/layout/signed-in-links").then((m) => m.SignedInLinks),
);

/** Only a signed-in person has one, and the server never draws it: its code loads once the account has. */
const notificationBell = lazyPart(() =>
  import("#web/features/notifications/components/notification-bell").then((m) => m.NotificationBell),
);

function NotificationBell() {
  return (
    <Suspense fallback={null}>
      <Lazy part={notificationBell} props={{}} />
    </Suspense>
  );
}

function useScrolled() {
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > NAV_SCROLL_THRESHOLD);
    onScroll();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);
  return scrolled;
}

function CartLink({ className, withLabel = false }: { className?: string; withLabel?: boolean }) {
  const count = useCartCount();
  return (
    <Link
      to={paths.cart()}
      className={cn("relative inline-flex items-center gap-2 rounded-md p-2 hover:bg-accent", className)}
      aria-label={`Cart, ${count} ${count === 1 ? "item" : "items"}`}
      data-testid="cart-link"
    >
      <ShoppingCart className="size-5" aria-hidden />
      {withLabel && <span className="text-sm font-medium">Cart ({count})</span>}
      {!withLabel && count > 0 && (
        <span
          className="absolute -top-0.5 -right-0.5 flex min-w-5 items-center justify-center rounded-full bg-primary px-1 text-[11px] font-bold text-primary-foreground"
          data-testid="cart-count"
        >
          {count > 99 ? "99+" : count}
        </span>
      )}
    </Link>
  );
}

function AccountLinks({ onNavigate, stacked = false }: { onNavigate?: () => void; stacked?: boolean }) {
  const { data: me, isPending } = useMe();
  // While the session loads nothing is shown, so the Admin Panel entry never flashes for non-admins.
  const loading = <span className="h-9 w-36" aria-hidden />;
  if (isPending) return loading;
  if (me) {
    return (
      <Suspense fallback={loading}>
        <Lazy part={signedInLinks} props={{ me, stacked, onNavigate }} />
      </Suspense>
    );
  }
  return (
    <div className={cn("flex gap-2", stacked && "flex-col items-stretch")}>
      <Button asChild variant="ghost" size="sm" onClick={onNavigate}>
        <Link to={paths.login()}>
          <LogIn aria-hidden /> Login
        </Link>
      </Button>
      <Button asChild size="sm" onClick={onNavigate}>
        <Link to={paths.signup()}>Sign Up</Link>
      </Button>
    </div>
  );
}

export function Navbar() {
  const scrolled = useScrolled();
  const [open, setOpen] = useState(false);
  // Phones: the search box opens under the bar from its button, as there is no room beside the logo.
  const [searchOpen, setSearchOpen] = useState(false);
  const location = useLocation();
  const { data: me } = useMe();
  // The full header needs about 1,100 px for a visitor (with room for the search box's placeholder)
  // and 1,200 px once Dashboard, Admin Panel and Logout join it; below 1,280 px everything but the
  // search is in the menu.
  useMeErrorToast();
  // biome-ignore lint/correctness/useExhaustiveDependencies: close the mobile menu whenever the page changes
  useEffect(() => {
    setOpen(false);
    setSearchOpen(false);
  }, [location.pathname]);

  return (
    <header
      data-testid="navbar"
      data-scrolled={scrolled}
      className={cn(
        "fixed inset-x-0 top-0 z-40 transition-all duration-200 print:hidden",
        scrolled
          ? "border-b border-border bg-background shadow-sm"
          : "border-b border-transparent bg-background",
      )}
    >
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-7xl items-center gap-4 px-4 sm:px-6">
        <Link to={paths.home()} className="flex items-center gap-2 text-lg font-bold tracking-tight">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          Stackbay
        </Link>
        <ul className={"ml-6 hidden items-center gap-1 xl:flex"}>
          {links.map((link) => (
            <li key={link.to}>
              <NavLink
                to={link.to}
                className={({ isActive }) =>
                  cn(
                    "rounded-md px-3 py-2 text-sm font-medium text-muted-foreground hover:bg-accent hover:text-accent-foreground",
                    isActive && "text-foreground",
                  )
                }
              >
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
        <HeaderSearch id="header-search" className="hidden max-w-md flex-1 md:block" />
        <div className={"ml-auto hidden items-center gap-1 xl:flex"}>
          <CurrencyPicker compact />
          <CartLink />
          {me && <NotificationBell />}
          <AccountLinks />
          {/* Last, so the cart, the currency and signing in stay within ten Tabs of the page's start. */}
          <ThemeToggle />
        </div>
        <div className={"ml-auto flex items-center gap-1 xl:hidden"}>
          <Button
            variant="ghost"
            size="icon"
            className="md:hidden"
            aria-expanded={searchOpen}
            aria-controls="mobile-search"
            aria-label={searchOpen ? "Close search" : "Open search"}
            onClick={() => setSearchOpen((value) => !value)}
            data-testid="mobile-search-toggle"
          >
            <Search />
          </Button>
          {me && <NotificationBell />}
          <CartLink />
          <Button
            variant="ghost"
            size="icon"
            aria-expanded={open}
            aria-controls="mobile-menu"
            aria-label={open ? "Close menu" : "Open menu"}
            onClick={() => setOpen((value) => !value)}
            data-testid="mobile-menu-toggle"
          >
            {open ? <X /> : <Menu />}
          </Button>
        </div>
      </nav>
      {searchOpen && (
        <div id="mobile-search" className="border-t border-border bg-background px-4 py-2 md:hidden">
          <HeaderSearch id="header-search-mobile" autoFocus onDismiss={() => setSearchOpen(false)} />
        </div>
      )}
      {open && (
        <div
          id="mobile-menu"
          className={cn("border-t border-border bg-background px-4 pb-6", "xl:hidden")}
          data-testid="mobile-menu"
        >
          <ul className="flex flex-col py-2">
            {links.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} className="block rounded-md px-3 py-3 font-medium hover:bg-accent">
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
          <div className="flex flex-col gap-3 border-t border-border pt-4">
            <CartLink withLabel className="px-3" />
            <div className="flex items-center justify-between px-1">
              <CurrencyPicker id="currency-picker-mobile" />
              <ThemeToggle />
            </div>
            <AccountLinks stacked onNavigate={() => setOpen(false)} />
          </div>
        </div>
      )}
    </header>
  );
}
