import { ChevronDown } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { NavLink, useLocation } from "react-router";
import { hasRole } from "#domain/roles";
import { paths } from "#domain/routes";
import { Button } from "#web/components/ui/button";
import { useMe } from "#web/features/auth/api/get-me";
import { cn } from "#web/lib/utils";

type AdminLink = { to: string; label: string; end?: boolean };

const adminLinks: AdminLink[] = [
  { to: paths.admin.overview(), label: "Overview", end: true },
  { to: paths.admin.orders(), label: "Orders" },
  { to: paths.admin.subscriptions(), label: "Subscriptions" },
  { to: paths.admin.products(), label: "Products" },
  { to: paths.admin.moderation(), label: "Listing review" },
  { to: paths.admin.featured(), label: "Featured" },
  { to: paths.admin.categories(), label: "Categories" },
  { to: paths.admin.search(), label: "Search" },
  { to: paths.admin.refunds(), label: "Refunds" },
  { to: paths.admin.commissions(), label: "Held commissions" },
  { to: paths.admin.inbox(), label: "Inbox" },
  { to: paths.admin.pages(), label: "Pages" },
  { to: paths.admin.content(), label: "Content Blocks" },
];
const superAdminLinks: AdminLink[] = [
  { to: paths.admin.users(), label: "Users" },
  { to: paths.admin.finance(), label: "Finance" },
  { to: paths.admin.payouts(), label: "Payouts" },
  { to: paths.admin.taxRates(), label: "Tax rates" },
  { to: paths.admin.system(), label: "System" },
  { to: paths.admin.audit(), label: "Audit Log" },
];

/**
 * The admin screens' own navigation, under the site header: every screen an admin (and a super admin)
 * may open. Wide screens show it whole; phones fold it behind a button so it never pushes the page
 * sideways or fills the first screen.
 */
export function AdminNav() {
  const { data: me } = useMe();
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  const listId = useId();
  // biome-ignore lint/correctness/useExhaustiveDependencies: fold the phone menu whenever the screen changes
  useEffect(() => setOpen(false), [pathname]);
  if (!me || !hasRole(me.roles, "admin")) return null;
  const links = hasRole(me.roles, "superAdmin") ? [...adminLinks, ...superAdminLinks] : adminLinks;
  const current = links.find((l) => (l.end ? pathname === l.to : pathname.startsWith(l.to)));
  return (
    <nav
      aria-label="Admin"
      className="border-b border-border bg-muted/40 print:hidden"
      data-testid="admin-nav"
    >
      <div className="mx-auto max-w-7xl px-4 py-2 sm:px-6">
        <Button
          variant="ghost"
          size="sm"
          className="md:hidden"
          aria-expanded={open}
          aria-controls={listId}
          onClick={() => setOpen((value) => !value)}
        >
          Admin: {current?.label ?? "menu"}
          <ChevronDown aria-hidden className={cn("transition-transform", open && "rotate-180")} />
        </Button>
        <ul id={listId} className={cn("flex-wrap gap-1 pt-1 md:flex md:pt-0", open ? "flex" : "hidden")}>
          {links.map((link) => (
            <li key={link.to}>
              <NavLink
                to={link.to}
                end={link.end}
                className={({ isActive }) =>
                  cn(
                    "inline-flex h-8 items-center rounded-md px-3 text-sm font-medium text-muted-foreground hover:bg-accent hover:text-accent-foreground",
                    isActive && "bg-background text-foreground shadow-sm",
                  )
                }
              >
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </div>
    </nav>
  );
}
