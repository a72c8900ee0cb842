import {
  Banknote,
  Bell,
  Braces,
  CheckCircle2,
  ClipboardCheck,
  ClipboardList,
  DollarSign,
  FilePlus,
  FileText,
  FolderTree,
  Heart,
  History,
  Home,
  Inbox,
  KeyRound,
  Landmark,
  LayoutDashboard,
  LayoutList,
  Link2,
  LogOut,
  type LucideIcon,
  MessageCircleQuestion,
  Package,
  PackagePlus,
  Percent,
  Receipt,
  Repeat,
  Search,
  Settings,
  ShieldAlert,
  ShoppingBag,
  Star,
  Store,
  TextCursorInput,
  TrendingUp,
  Truck,
  Undo2,
  User,
  Users,
  Wallet,
  Webhook,
  Wrench,
} from "lucide-react";
import { type ReactNode, useId } from "react";
import { NavLink } from "react-router";
import type { Me } from "#domain/accounts";
import { hasRole } from "#domain/accounts";
import { dashboardViewTitles as titles } from "#domain/dashboard-titles";
import type { SellerStats } from "#domain/earnings";
import { type DashboardSection, paths } from "#domain/routes";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { useMoney } from "#web/features/currency/use-money";
import { useSellerStats } from "#web/features/earnings/api/get-earnings";
import { useOrders } from "#web/features/orders/api/get-orders";
import { cn } from "#web/lib/utils";

const dashboardSections: { section: DashboardSection; label: string; icon: LucideIcon; to: string }[] = [
  { section: "orders", label: titles.orders, icon: ShoppingBag, to: paths.dashboard() },
  {
    section: "notifications",
    label: titles.notifications,
    icon: Bell,
    to: paths.dashboard("notifications"),
  },
  { section: "refunds", label: titles.refunds, icon: Undo2, to: paths.dashboard("refunds") },
  { section: "saved", label: titles.saved, icon: Heart, to: paths.dashboard("saved") },
  { section: "licenses", label: titles.licenses, icon: KeyRound, to: paths.dashboard("licenses") },
  {
    section: "subscriptions",
    label: titles.subscriptions,
    icon: Repeat,
    to: paths.dashboard("subscriptions"),
  },
  { section: "profile", label: titles.profile, icon: User, to: paths.dashboard("profile") },
  { section: "wallet", label: titles.wallet, icon: Wallet, to: paths.dashboard("wallet") },
  { section: "settings", label: titles.settings, icon: Settings, to: paths.dashboard("settings") },
];

const earningsSection = {
  section: "earnings",
  label: titles.earnings,
  icon: Banknote,
  to: paths.dashboard("earnings"),
} as const;

/** The views every account has, with Earnings after Wallet for those who earn (sellers, resellers). */
function sectionsFor(me: Me) {
  if (!hasRole(me.roles, "seller") && !hasRole(me.roles, "reseller")) return dashboardSections;
  const wallet = dashboardSections.findIndex((item) => item.section === "wallet");
  return [...dashboardSections.slice(0, wallet + 1), earningsSection, ...dashboardSections.slice(wallet + 1)];
}

const itemClass = "flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium [&_svg]:size-4";

function MenuLink({ to, icon: Icon, label }: { to: string; icon: LucideIcon; label: string }) {
  return (
    <li>
      <NavLink
        to={to}
        end
        className={({ isActive }) =>
          cn(
            itemClass,
            "text-muted-foreground hover:bg-accent hover:text-accent-foreground",
            isActive && "bg-accent text-accent-foreground",
          )
        }
      >
        <Icon aria-hidden /> {label}
      </NavLink>
    </li>
  );
}

function MenuSection({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <div className="border-t border-border pt-3">
      <p id={id} className="px-3 pb-1 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
        {title}
      </p>
      <ul aria-labelledby={id} className="flex flex-col gap-0.5">
        {children}
      </ul>
    </div>
  );
}

function SideMenu({ me, onSignOut, signingOut }: ShellProps) {
  const admin = hasRole(me.roles, "admin");
  return (
    <nav aria-label="Dashboard menu" className="hidden md:block">
      <Card className="sticky top-20 flex flex-col gap-3 p-3" flat>
        <ul className="flex flex-col gap-0.5">
          {sectionsFor(me).map((item) => (
            <MenuLink key={item.section} to={item.to} icon={item.icon} label={item.label} />
          ))}
        </ul>
        {hasRole(me.roles, "seller") && (
          <MenuSection title="Seller">
            <MenuLink to={paths.dashboard("sales")} icon={ClipboardList} label={titles.sales} />
            <MenuLink to={paths.dashboard("recurring")} icon={TrendingUp} label={titles.recurring} />
            <MenuLink to={paths.dashboard("storefront")} icon={Store} label={titles.storefront} />
            <MenuLink to={paths.seller.products()} icon={Package} label="My Products" />
            <MenuLink to={paths.seller.addProduct()} icon={PackagePlus} label="Add Product" />
            <MenuLink to={paths.dashboard("shipping")} icon={Truck} label={titles.shipping} />
            <MenuLink
              to={paths.dashboard("questions")}
              icon={MessageCircleQuestion}
              label={titles.questions}
            />
            <MenuLink to={paths.dashboard("api")} icon={Braces} label={titles.api} />
            <MenuLink to={paths.dashboard("webhooks")} icon={Webhook} label={titles.webhooks} />
          </MenuSection>
        )}
        {hasRole(me.roles, "reseller") && (
          <MenuSection title="Reseller">
            <MenuLink to={paths.dashboard("reseller")} icon={Link2} label={titles.reseller} />
          </MenuSection>
        )}
        {admin && (
          <MenuSection title="Admin">
            <MenuLink to={paths.admin.overview()} icon={LayoutDashboard} label="Overview" />
            <MenuLink to={paths.admin.products()} icon={Package} label="Products" />
            <MenuLink to={paths.admin.moderation()} icon={ClipboardCheck} label="Listing review" />
            <MenuLink to={paths.admin.featured()} icon={Star} label="Featured Products" />
            <MenuLink to={paths.admin.addProduct()} icon={PackagePlus} label="Add Product" />
            <MenuLink to={paths.admin.categories()} icon={FolderTree} label="Categories" />
            <MenuLink to={paths.admin.pages()} icon={FileText} label="Pages" />
            <MenuLink to={paths.admin.addPage()} icon={FilePlus} label="Add Page" />
            <MenuLink to={paths.admin.content()} icon={TextCursorInput} label="Content Blocks" />
            <MenuLink to={paths.admin.search()} icon={Search} label="Search synonyms" />
            <MenuLink to={paths.admin.orders()} icon={Receipt} label="Orders" />
            <MenuLink to={paths.admin.subscriptions()} icon={Repeat} label="Subscriptions" />
            <MenuLink to={paths.admin.refunds()} icon={Undo2} label="Refunds" />
            <MenuLink to={paths.admin.commissions()} icon={ShieldAlert} label="Held commissions" />
            <MenuLink to={paths.admin.inbox()} icon={Inbox} label="Inbox" />
          </MenuSection>
        )}
        {hasRole(me.roles, "superAdmin") && (
          <MenuSection title="Super admin">
            <MenuLink to={paths.admin.users()} icon={Users} label="Users" />
            <MenuLink to={paths.admin.finance()} icon={Landmark} label="Finance" />
            <MenuLink to={paths.admin.payouts()} icon={Banknote} label="Payouts" />
            <MenuLink to={paths.admin.taxRates()} icon={Percent} label="Tax rates" />
            <MenuLink to={paths.admin.system()} icon={Wrench} label="System" />
            <MenuLink to={paths.admin.audit()} icon={History} label="Audit Log" />
          </MenuSection>
        )}
        <div className="border-t border-border pt-3">
          <ul className="flex flex-col gap-0.5">
            <MenuLink to={paths.home()} icon={Home} label="Home" />
            <MenuLink to={paths.products()} icon={LayoutList} label="Products" />
          </ul>
          <Button
            variant="ghost"
            className="mt-1 w-full justify-start px-3 text-muted-foreground"
            onClick={onSignOut}
            disabled={signingOut}
          >
            <LogOut aria-hidden /> Log out
          </Button>
        </div>
      </Card>
    </nav>
  );
}

/** Phones: the views every account has, then the seller's and reseller's own (admins have the Admin Panel). */
function TabRow({ me }: { me: Me }) {
  const tabs = [
    ...sectionsFor(me).map(({ section, label, to }) => ({ key: section, label, to })),
    ...(hasRole(me.roles, "seller")
      ? [
          { key: "sales", label: titles.sales, to: paths.dashboard("sales") },
          { key: "recurring", label: titles.recurring, to: paths.dashboard("recurring") },
          { key: "storefront", label: titles.storefront, to: paths.dashboard("storefront") },
          { key: "seller-products", label: "My Products", to: paths.seller.products() },
          { key: "shipping", label: titles.shipping, to: paths.dashboard("shipping") },
          { key: "questions", label: titles.questions, to: paths.dashboard("questions") },
          { key: "api", label: titles.api, to: paths.dashboard("api") },
          { key: "webhooks", label: titles.webhooks, to: paths.dashboard("webhooks") },
        ]
      : []),
    ...(hasRole(me.roles, "reseller")
      ? [{ key: "reseller", label: titles.reseller, to: paths.dashboard("reseller") }]
      : []),
  ];
  return (
    // The tabs wrap onto a second line rather than scrolling "Wallet" and "Settings" out of sight.
    <nav aria-label="Dashboard views" className="md:hidden">
      <ul className="flex flex-wrap gap-x-1 border-b border-border">
        {tabs.map(({ key, label, to }) => (
          <li key={key}>
            <NavLink
              to={to}
              end
              className={({ isActive }) =>
                cn(
                  "-mb-px inline-flex items-center border-b-2 border-transparent px-3 py-2.5 text-sm font-medium text-muted-foreground hover:text-foreground",
                  isActive && "border-primary text-foreground",
                )
              }
            >
              {label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function StatCard({ icon: Icon, label, value }: { icon: LucideIcon; label: string; value: ReactNode }) {
  return (
    // On a phone a compact row each, label beside figure, so an amount like $62,550.72 stays whole and the
    // three never fill the first screen; three in a row from 640 px, with an icon once a card has room.
    <Card className="relative flex items-baseline justify-between gap-3 px-4 py-3 sm:block sm:p-5 lg:pl-19">
      <dt className="text-sm text-muted-foreground">
        <span className="absolute top-1/2 left-5 hidden size-10 -translate-y-1/2 items-center justify-center rounded-full bg-accent text-accent-foreground lg:flex">
          <Icon className="size-5" aria-hidden />
        </span>
        {label}
      </dt>
      <dd className="text-base font-bold tabular-nums [overflow-wrap:anywhere] sm:text-xl md:text-2xl">
        {value}
      </dd>
    </Card>
  );
}

const figurePending = <span className="inline-block h-7 w-16 animate-pulse rounded bg-muted align-middle" />;

/** The three figures come with the order list (totalSpent is USD, shown in the display currency). */
function BuyerFigures({ heading }: { heading?: string }) {
  const orders = useOrders();
  const money = useMoney();
  const stats = orders.data?.stats;
  const figure = (text: (s: NonNullable<typeof stats>) => string) =>
    orders.isError ? "–" : stats ? text(stats) : figurePending;
  return (
    <section aria-label="Order summary" aria-busy={orders.isPending} className="mt-6">
      {heading && <FiguresHeading>{heading}</FiguresHeading>}
      <dl className="grid gap-2 sm:grid-cols-3 sm:gap-4">
        <StatCard icon={Package} label="Total Orders" value={figure((s) => String(s.totalOrders))} />
        <StatCard
          icon={DollarSign}
          label="Total Spent"
          value={money.ready ? figure((s) => money.amount(s.totalSpent)) : figurePending}
        />
        <StatCard
          icon={CheckCircle2}
          label="Completed Orders"
          value={figure((s) => String(s.completedOrders))}
        />
      </dl>
      {stats?.totalOrders === 0 && (
        <p className="mt-2 text-sm text-muted-foreground">
          Your orders will appear here once you make a purchase.
        </p>
      )}
    </section>
  );
}

/** A seller's figures are about what they sold: orders received, gross sales and the net the ledger holds. */
function SellerFigures({ heading }: { heading?: string }) {
  const stats = useSellerStats(true);
  const money = useMoney();
  const figure = (text: (s: SellerStats) => string) =>
    stats.isError ? "–" : stats.data ? text(stats.data) : figurePending;
  const amount = (value: (s: SellerStats) => number) =>
    money.ready ? figure((s) => money.amount(value(s))) : figurePending;
  return (
    <section aria-label="Sales summary" aria-busy={stats.isPending} className="mt-6">
      {heading && <FiguresHeading>{heading}</FiguresHeading>}
      <dl className="grid gap-2 sm:grid-cols-3 sm:gap-4">
        <StatCard icon={Package} label="Orders Received" value={figure((s) => String(s.ordersReceived))} />
        <StatCard icon={DollarSign} label="Gross Sales" value={amount((s) => s.grossSales)} />
        <StatCard icon={Banknote} label="Net Earnings" value={amount((s) => s.netEarnings)} />
      </dl>
      {stats.data?.ordersReceived === 0 && (
        <p className="mt-2 text-sm text-muted-foreground">
          Your sales figures will appear here after your first sale.
        </p>
      )}
    </section>
  );
}

function FiguresHeading({ children }: { children: ReactNode }) {
  return <h2 className="mb-2 text-sm font-semibold text-muted-foreground">{children}</h2>;
}

/**
 * Each role's own figures: a buyer's purchases; a seller's sales, and their purchases too only if they
 * have bought something (both labelled then), so a seller never reads a buyer's empty figures.
 */
function OrderFigures({ me }: { me: Me }) {
  const seller = hasRole(me.roles, "seller");
  const orders = useOrders();
  if (!seller) return <BuyerFigures />;
  const bought = (orders.data?.stats.totalOrders ?? 0) > 0;
  return (
    <>
      <SellerFigures heading={bought ? "Your sales" : undefined} />
      {bought && <BuyerFigures heading="Your purchases" />}
    </>
  );
}

type ShellProps = { me: Me; onSignOut: () => void; signingOut: boolean };

/** Heading, order figures, the side menu (desktop) or tab row (phones), and the current view. */
export function DashboardShell({
  me,
  onSignOut,
  signingOut,
  children,
}: ShellProps & { children: ReactNode }) {
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 sm:py-10">
      <div className="flex items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">Dashboard</h1>
          <p className="mt-1 text-muted-foreground">Welcome back, {me.firstName}!</p>
        </div>
        <Button variant="outline" size="sm" className="md:hidden" onClick={onSignOut} disabled={signingOut}>
          <LogOut aria-hidden /> Log out
        </Button>
      </div>
      <OrderFigures me={me} />
      <div className="mt-8 grid gap-6 md:grid-cols-[15rem_minmax(0,1fr)] md:items-start">
        <SideMenu me={me} onSignOut={onSignOut} signingOut={signingOut} />
        <TabRow me={me} />
        <div className="min-w-0">{children}</div>
      </div>
    </div>
  );
}
