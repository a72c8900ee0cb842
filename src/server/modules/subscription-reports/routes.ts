import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireRole, signedInUser } from "#server/auth/guards";
import { route } from "#server/http/route";
import {
  adminSubscriptionReport,
  cancelNow,
  remindNow,
  retryNow,
  sellerSubscriptionReport,
  subscriptionReportDepsOf,
} from "#server/modules/subscription-reports/service";

/**
 * Reminders sent again by hand, counted per subscription (the guard has run, so only admins count): a
 * buyer gets at most three extra reminders of a renewal an hour, however many admins press the button.
 */
const reminderLimit = {
  max: 3,
  timeWindow: "1 hour",
  keyGenerator: (request: FastifyRequest) =>
    `subscription-remind:${(request.params as { id?: string }).id ?? ""}`,
};

/** The seller's and the admin's subscription views, and the admin's actions on a subscription. */
export const subscriptionReportRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const deps = subscriptionReportDepsOf(app);

  route(
    app,
    "GET /seller/subscriptions",
    {
      tags: ["subscriptions"],
      summary:
        "Your products' subscriptions: counts, MRR and this month's movement, past-due renewals and the live list",
      description:
        "Sellers only (403 otherwise); only subscriptions to products whose order item you sold. MRR is before tax, a yearly subscription counting a twelfth of its period; amounts in USD with 4 decimals, each rounded once. Buyers appear by first name only. `page` pages the live list, `duePage` the past-due renewals.",
      onRequest: requireRole("seller"),
    },
    async (request) => sellerSubscriptionReport(db, signedInUser(request).id, request.query, app.clock.now()),
  );

  route(
    app,
    "GET /admin/subscriptions",
    {
      tags: ["subscriptions"],
      summary: "Every subscription: the platform's figures, the dunning queue and the live list",
      description:
        "`q` finds subscriptions by buyer e-mail or name, product name or subscription id in both lists; `status` narrows the live list. The figures are always the whole platform's.",
      onRequest: requireRole("admin"),
    },
    async (request) => adminSubscriptionReport(db, request.query, app.clock.now()),
  );

  route(
    app,
    "POST /admin/subscriptions/:id/retry",
    {
      tags: ["subscriptions"],
      summary: "Charge a past-due renewal's saved card or PayPal account again, now",
      description:
        "A new off-session attempt, as on the retry days: paid restores the subscription at once; a decline is answered with the provider's reason (a hard one marks the method, which is not charged again). Audited. 409 RENEWAL_NOT_PAST_DUE when no unpaid renewal is past its due date; 404 PAYMENT_METHOD_NOT_FOUND when no saved method can be charged. At most three an hour per subscription, with the reminders.",
      onRequest: requireRole("admin"),
      config: { rateLimit: reminderLimit },
    },
    async (request) => retryNow(deps, signedInUser(request), request.params.id, app.clock.now()),
  );

  route(
    app,
    "POST /admin/subscriptions/:id/remind",
    {
      tags: ["subscriptions"],
      summary: "Send the payment reminder of a past-due renewal again, now",
      description:
        "The buyer is e-mailed to pay the renewal from their renewal desk, or to fix its payment method, as on the retry days (which go on as before). Audited. 409 RENEWAL_NOT_PAST_DUE when no unpaid renewal is past its due date; at most three an hour per subscription.",
      onRequest: requireRole("admin"),
      config: { rateLimit: reminderLimit },
    },
    async (request) => remindNow(deps, signedInUser(request), request.params.id, app.clock.now()),
  );

  route(
    app,
    "POST /admin/subscriptions/:id/cancel",
    {
      tags: ["subscriptions"],
      summary: "End a subscription now: its unpaid renewal is cancelled, its licences revoked",
      description:
        "Nothing is refunded (a paid period is refunded through the refund flow); the buyer is e-mailed. Audited with the state before and after. 409 SUBSCRIPTION_ENDED when it has ended already.",
      onRequest: requireRole("admin"),
      config: { rateLimit: { max: 60, timeWindow: "10 minutes" } },
    },
    async (request) => cancelNow(deps, signedInUser(request), request.params.id, app.clock.now()),
  );
};
