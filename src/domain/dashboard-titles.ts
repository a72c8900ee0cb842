import type { DashboardSection } from "#domain/routes";

/**
 * Each dashboard view's name, for its tab title and menu entry; a view left out is a type error. Apart
 * from `routes.ts`, which every page loads: only the dashboard reads these.
 */
export const dashboardViewTitles = {
  orders: "Orders",
  sales: "Orders received",
  notifications: "Notifications",
  saved: "Saved",
  licenses: "Licenses",
  subscriptions: "Subscriptions",
  profile: "Profile",
  wallet: "Wallet",
  settings: "Settings",
  reseller: "Reseller links",
  refunds: "Refund requests",
  earnings: "Earnings",
  shipping: "To ship",
  questions: "Questions",
  storefront: "Storefront",
  recurring: "Recurring revenue",
  api: "API keys",
  webhooks: "Webhooks",
} as const satisfies Record<DashboardSection, string>;
