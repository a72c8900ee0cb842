import type { FastifyInstance } from "fastify";
import { publicUrl } from "#server/env";
import type { JobDefinition } from "#server/jobs/queue";
import { type MailTransport, mailJob } from "#server/mail/mailer";
import { earningsReleaseJob } from "#server/modules/ledger/bookings";
import { licenseDepsOf, staleActivationsJob } from "#server/modules/licenses/service";
import { renderNotificationMail } from "#server/modules/notifications/service";
import { renderOrderConfirmation } from "#server/modules/orders/confirmation-mail";
import { forgetMethodJob } from "#server/modules/payment-methods/service";
import { reconcileJob } from "#server/modules/payments/service";
import { payoutDepsOf, payoutTransferJob } from "#server/modules/payouts/service";
import { trialAnonymiseJob } from "#server/modules/privacy/service";
import { commissionReleaseJob } from "#server/modules/referrals/service";
import { refundPayoutJob } from "#server/modules/refunds/payouts";
import { renewalJob } from "#server/modules/renewals/service";
import { sellerApiDepsOf, sellerApiLogPruneJob } from "#server/modules/seller-api/service";
import {
  sellerWebhookDeliverJob,
  sellerWebhookDepsOf,
  sellerWebhookDispatchJob,
} from "#server/modules/seller-webhooks/service";
import { deliveryConfirmJob, shippingDepsOf } from "#server/modules/shipping/service";

/** Every kind of background work the app does; each module defines its own, this lists them. */
export function jobDefinitions(
  app: FastifyInstance,
  transport: MailTransport,
  secret: string,
): JobDefinition<never>[] {
  return [
    mailJob(
      transport,
      app.env,
      secret,
      {
        orderConfirmation: (orderId) => renderOrderConfirmation(app, orderId),
        notification: (id) => renderNotificationMail(app.database.db, publicUrl(app.env), id),
      },
      app.metrics,
    ),
    reconcileJob(app),
    commissionReleaseJob(app.database.db, app.clock),
    earningsReleaseJob(app.database.db, app.clock),
    refundPayoutJob(app),
    payoutTransferJob(() => payoutDepsOf(app)),
    deliveryConfirmJob(shippingDepsOf(app)),
    renewalJob(app),
    // The payment providers are registered after the jobs are defined.
    forgetMethodJob(() => app.payments),
    trialAnonymiseJob(app.database.db, app.clock),
    sellerApiLogPruneJob(sellerApiDepsOf(app)),
    staleActivationsJob(licenseDepsOf(app)),
    // The job queue is set on the app after the jobs are defined.
    sellerWebhookDispatchJob(() => sellerWebhookDepsOf(app)),
    sellerWebhookDeliverJob(() => sellerWebhookDepsOf(app)),
  ] as JobDefinition<never>[];
}
