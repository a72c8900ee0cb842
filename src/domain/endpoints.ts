import { accountEndpoints } from "#domain/endpoints/account";
import { adminOverviewEndpoints } from "#domain/endpoints/admin-overview";
import { auditEndpoints } from "#domain/endpoints/audit";
import { bankTransfersEndpoints } from "#domain/endpoints/bank-transfers";
import { catalogEndpoints } from "#domain/endpoints/catalog";
import { categoriesEndpoints } from "#domain/endpoints/categories";
import { compareEndpoints } from "#domain/endpoints/compare";
import { contentBlocksEndpoints } from "#domain/endpoints/content-blocks";
import { earningsEndpoints, earningsExternalEndpoints } from "#domain/endpoints/earnings";
import { faqEndpoints } from "#domain/endpoints/faq";
import { feesEndpoints } from "#domain/endpoints/fees";
import { financeEndpoints, financeExternalEndpoints } from "#domain/endpoints/finance";
import { healthExternalEndpoints } from "#domain/endpoints/health";
import { inboundEndpoints } from "#domain/endpoints/inbound";
import { inboxEndpoints, inboxExternalEndpoints } from "#domain/endpoints/inbox";
import { invoicesExternalEndpoints } from "#domain/endpoints/invoices";
import { licensesEndpoints, licensesExternalEndpoints } from "#domain/endpoints/licenses";
import { manageProductsEndpoints } from "#domain/endpoints/manage-products";
import { metricsExternalEndpoints } from "#domain/endpoints/metrics";
import { moderationEndpoints } from "#domain/endpoints/moderation";
import { newsletterEndpoints, newsletterExternalEndpoints } from "#domain/endpoints/newsletter";
import { notificationsEndpoints } from "#domain/endpoints/notifications";
import { ordersEndpoints } from "#domain/endpoints/orders";
import { pagesEndpoints } from "#domain/endpoints/pages";
import { paymentMethodsEndpoints } from "#domain/endpoints/payment-methods";
import { paymentsEndpoints, paymentsExternalEndpoints } from "#domain/endpoints/payments";
import { payoutAccountsEndpoints } from "#domain/endpoints/payout-accounts";
import { payoutsEndpoints, payoutsExternalEndpoints } from "#domain/endpoints/payouts";
import { privacyEndpoints, privacyExternalEndpoints } from "#domain/endpoints/privacy";
import { questionsEndpoints } from "#domain/endpoints/questions";
import { referralsEndpoints } from "#domain/endpoints/referrals";
import { refundsEndpoints } from "#domain/endpoints/refunds";
import { reviewsEndpoints } from "#domain/endpoints/reviews";
import { savedEndpoints } from "#domain/endpoints/saved";
import { searchEndpoints } from "#domain/endpoints/search";
import { sellerApiEndpoints, sellerApiExternalEndpoints } from "#domain/endpoints/seller-api";
import { sellerWebhooksEndpoints } from "#domain/endpoints/seller-webhooks";
import { shippingEndpoints } from "#domain/endpoints/shipping";
import { storefrontsEndpoints } from "#domain/endpoints/storefronts";
import { subscriptionChangesEndpoints } from "#domain/endpoints/subscription-changes";
import { subscriptionReportsEndpoints } from "#domain/endpoints/subscription-reports";
import { subscriptionsEndpoints, subscriptionsExternalEndpoints } from "#domain/endpoints/subscriptions";
import { systemEndpoints } from "#domain/endpoints/system";
import { taxEndpoints } from "#domain/endpoints/tax";
import { testClockExternalEndpoints } from "#domain/endpoints/test-clock";
import { uploadsEndpoints } from "#domain/endpoints/uploads";
import { usageEndpoints, usageExternalEndpoints } from "#domain/endpoints/usage";
import { usersEndpoints } from "#domain/endpoints/users";

/**
 * Every endpoint the web app calls, declared once (decision 0023): keyed by `"METHOD /path"` (relative to
 * `/api`, with `:params`), each with its params, query, body and answer schemas and the error codes it
 * can answer. The web imports this type-only and calls through `call` (`src/web/lib/api.ts`); the
 * server registers each route from its declaration (`route`, `src/server/http/route.ts`).
 */
export const endpoints = {
  ...accountEndpoints,
  ...adminOverviewEndpoints,
  ...auditEndpoints,
  ...bankTransfersEndpoints,
  ...catalogEndpoints,
  ...categoriesEndpoints,
  ...compareEndpoints,
  ...contentBlocksEndpoints,
  ...earningsEndpoints,
  ...faqEndpoints,
  ...feesEndpoints,
  ...financeEndpoints,
  ...inboundEndpoints,
  ...inboxEndpoints,
  ...licensesEndpoints,
  ...manageProductsEndpoints,
  ...moderationEndpoints,
  ...newsletterEndpoints,
  ...notificationsEndpoints,
  ...ordersEndpoints,
  ...pagesEndpoints,
  ...paymentMethodsEndpoints,
  ...paymentsEndpoints,
  ...payoutAccountsEndpoints,
  ...payoutsEndpoints,
  ...privacyEndpoints,
  ...questionsEndpoints,
  ...referralsEndpoints,
  ...refundsEndpoints,
  ...reviewsEndpoints,
  ...savedEndpoints,
  ...searchEndpoints,
  ...sellerApiEndpoints,
  ...sellerWebhooksEndpoints,
  ...shippingEndpoints,
  ...storefrontsEndpoints,
  ...subscriptionReportsEndpoints,
  ...subscriptionChangesEndpoints,
  ...subscriptionsEndpoints,
  ...systemEndpoints,
  ...taxEndpoints,
  ...uploadsEndpoints,
  ...usageEndpoints,
  ...usersEndpoints,
} as const;

export type Endpoints = typeof endpoints;

/**
 * Endpoints no screen calls through `call`: downloads and documents opened by a link, payment providers'
 * webhooks, links in e-mails, health probes, metrics, the third-party license check and the test clock.
 * Declared the same way, so that the server registers every route from a declaration.
 */
export const externalEndpoints = {
  ...earningsExternalEndpoints,
  ...financeExternalEndpoints,
  ...healthExternalEndpoints,
  ...inboxExternalEndpoints,
  ...invoicesExternalEndpoints,
  ...licensesExternalEndpoints,
  ...metricsExternalEndpoints,
  ...newsletterExternalEndpoints,
  ...paymentsExternalEndpoints,
  ...payoutsExternalEndpoints,
  ...privacyExternalEndpoints,
  ...sellerApiExternalEndpoints,
  ...subscriptionsExternalEndpoints,
  ...testClockExternalEndpoints,
  ...usageExternalEndpoints,
} as const;

/** Every endpoint the server registers, each declared exactly once. */
export const allEndpoints = { ...endpoints, ...externalEndpoints } as const;

export type AllEndpoints = typeof allEndpoints;
