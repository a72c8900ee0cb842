import { useParams } from "react-router";
import { hasRole, type Me } from "#domain/accounts";
import { dashboardViewTitles } from "#domain/dashboard-titles";
import { type DashboardSection, dashboardViews } from "#domain/routes";
import { Component as NotFound } from "#web/app/routes/not-found";
import { DashboardShell } from "#web/features/account/components/dashboard-shell";
import { WalletView } from "#web/features/account/components/placeholder-views";
import { ProfileView } from "#web/features/account/components/profile-view";
import { SettingsView } from "#web/features/account/components/settings-view";
import { useMe } from "#web/features/auth/api/get-me";
import { useSignOut } from "#web/features/auth/api/sign-out";
import { RequireUser } from "#web/features/auth/components/guards";
import { EarningsView } from "#web/features/earnings/components/earnings-view";
import { ReceivedOrdersView } from "#web/features/earnings/components/received-orders-view";
import { LicensesView } from "#web/features/licenses/components/licenses-view";
import { NotificationsView } from "#web/features/notifications/components/notifications-view";
import { useOrders } from "#web/features/orders/api/get-orders";
import { OrdersView } from "#web/features/orders/components/orders-view";
import { ChangePaymentMethod } from "#web/features/payment-methods/components/subscription-payment-method";
import { usePaymentMethodSetupReturn } from "#web/features/payment-methods/use-setup-return";
import { SellerQuestionsView } from "#web/features/questions/components/seller-questions-view";
import { ResellerView } from "#web/features/referrals/components/reseller-view";
import { SellerRefundsView } from "#web/features/refunds/components/seller-refunds-view";
import { SavedView } from "#web/features/saved/components/saved-view";
import { ApiKeysView } from "#web/features/seller-api/components/api-keys-view";
import { WebhooksView } from "#web/features/seller-webhooks/components/webhooks-view";
import { ToShipView } from "#web/features/shipping/components/to-ship-view";
import { StorefrontView } from "#web/features/storefronts/components/storefront-view";
import { ChangePlan } from "#web/features/subscription-changes/components/change-plan-dialog";
import { SubscribeAgain } from "#web/features/subscription-changes/components/subscribe-again";
import { RecurringView } from "#web/features/subscription-reports/components/recurring-view";
import { SubscriptionsView } from "#web/features/subscriptions/components/subscriptions-view";

function sectionOf(view: string | undefined): DashboardSection | null {
  if (view === undefined) return "orders";
  return (dashboardViews as readonly string[]).includes(view) ? (view as DashboardSection) : null;
}

/** `routePatterns.dashboard` (orders) and `.dashboardView`; an unknown view is a missing page, signed in or not. */
export function Component() {
  const section = sectionOf(useParams().view);
  const signOut = useSignOut();
  if (!section) return <NotFound />;
  return (
    <RequireUser>
      <Dashboard section={section} onSignOut={() => signOut.mutate()} signingOut={!signOut.isIdle} />
    </RequireUser>
  );
}

function Dashboard({
  section,
  onSignOut,
  signingOut,
}: {
  section: DashboardSection;
  onSignOut: () => void;
  signingOut: boolean;
}) {
  const { data: me } = useMe();
  if (!me) return null;
  return (
    <DashboardShell me={me} onSignOut={onSignOut} signingOut={signingOut}>
      <title>{`${dashboardViewTitles[section]} · Dashboard | Stackbay`}</title>
      <View section={section} me={me} />
    </DashboardShell>
  );
}

/**
 * The dashboard's first screen: a buyer's order history; a seller's orders received first, then their
 * own purchases only if they have made any (labelled, so a seller who never bought sees no empty history).
 */
function OrdersHome({ me }: { me: Me }) {
  const seller = hasRole(me.roles, "seller");
  const purchases = useOrders();
  if (!seller) return <OrdersView />;
  const bought = (purchases.data?.items.length ?? 0) > 0;
  return (
    <div className="flex flex-col gap-6">
      <ReceivedOrdersView me={me} preview />
      {(bought || purchases.isError) && <OrdersView title="Your purchases" />}
    </div>
  );
}

/**
 * The renewal desk, with the actions other features add to it, and where a payment method saved from it
 * returns (`?setup=<id>`).
 */
function RenewalDesk() {
  usePaymentMethodSetupReturn();
  return (
    <SubscriptionsView
      changePlan={ChangePlan}
      paymentMethod={ChangePaymentMethod}
      subscribeAgain={SubscribeAgain}
    />
  );
}

function View({ section, me }: { section: DashboardSection; me: Me }) {
  switch (section) {
    case "orders":
      return <OrdersHome me={me} />;
    case "sales":
      return <ReceivedOrdersView me={me} />;
    case "notifications":
      return <NotificationsView />;
    case "saved":
      return <SavedView />;
    case "profile":
      return <ProfileView me={me} />;
    case "wallet":
      return <WalletView me={me} />;
    case "settings":
      return <SettingsView me={me} />;
    case "licenses":
      return <LicensesView />;
    case "subscriptions":
      return <RenewalDesk />;
    case "reseller":
      return <ResellerView me={me} />;
    case "refunds":
      return <SellerRefundsView me={me} />;
    case "earnings":
      return <EarningsView me={me} />;
    case "shipping":
      return <ToShipView me={me} />;
    case "questions":
      return <SellerQuestionsView me={me} />;
    case "storefront":
      return <StorefrontView me={me} />;
    case "recurring":
      return <RecurringView me={me} />;
    case "api":
      return <ApiKeysView me={me} />;
    case "webhooks":
      return <WebhooksView me={me} />;
  }
}
