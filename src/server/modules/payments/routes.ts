import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireUser, signedInUser } from "#server/auth/guards";
import { NotFound } from "#server/errors";
import { route } from "#server/http/route";
import { findOwnedOrder } from "#server/modules/payments/repository";
import {
  cancelOrder,
  completePayment,
  orderPayment,
  paymentDepsOf,
  receiveWebhook,
  retryPayment,
} from "#server/modules/payments/service";
import { deliverTestEvent } from "#server/payments/test-provider";

const sessionNotFound = () => new NotFound("Payment session not found.", "PAYMENT_SESSION_NOT_FOUND");

/** Webhooks, the return page's questions, trying a payment again, and the test provider's hosted page. */
export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = paymentDepsOf(app);

  route(
    app,
    "GET /payments/config",
    {
      tags: ["payments"],
      summary: "Which provider each checkout method uses, and whether any runs in test mode",
    },
    async () => app.payments.config,
  );

  // Providers call this server to server: no session, no Origin (app.ts exempts the path from the
  // origin check); the signature over the exact bytes is the only authority, so the body stays raw.
  app.register(async (scope) => {
    scope.removeContentTypeParser("application/json");
    scope.addContentTypeParser(["application/json", "*"], { parseAs: "buffer" }, (_request, body, done) => {
      done(null, body);
    });
    route(
      scope,
      "POST /payments/webhooks/:provider",
      {
        tags: ["payments"],
        summary: "A payment provider's signed event",
        description:
          "Verified over the raw body with the provider's signing secret; a bad signature answers 400 and stores nothing. Each event is stored once: a repeated delivery, or an event about a payment we do not know, answers 200 and changes nothing.",
        config: { rateLimit: { max: 600, timeWindow: "1 minute" } },
      },
      async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const outcome = await receiveWebhook(deps, request.params.provider, raw, request.headers);
        request.log.info({ provider: request.params.provider, outcome }, "payment webhook");
        return { received: true as const };
      },
    );
  });

  route(
    app,
    "GET /orders/:id/payment",
    {
      tags: ["orders"],
      summary: "Your order's latest payment attempt and its outcome",
      onRequest: requireUser,
    },
    async (request) => orderPayment(deps, request.params.id, signedInUser(request).id),
  );

  route(
    app,
    "POST /orders/:id/payment/complete",
    {
      tags: ["orders"],
      summary: "Back from the payment page: ask the provider for the payment's outcome and apply it",
      description:
        "The return page calls this with the query string the provider added (PayPal's token). The provider's answer moves the order exactly as its webhook would; calling it again, or after the webhook, changes nothing more.",
      onRequest: requireUser,
      config: { rateLimit: { max: 60, timeWindow: "1 minute" } },
    },
    async (request) => completePayment(deps, request.params.id, signedInUser(request).id, request.body.query),
  );

  route(
    app,
    "POST /orders/:id/payment",
    {
      tags: ["orders"],
      summary: "Pay a failed order again (a new attempt), or return to the open payment page",
      onRequest: requireUser,
      config: { rateLimit: { max: 20, timeWindow: "10 minutes" } },
    },
    async (request) => {
      const answer = await retryPayment(deps, request.params.id, signedInUser(request).id);
      request.log.info({ orderId: answer.orderId }, "order payment restarted");
      return answer;
    },
  );

  route(
    app,
    "POST /orders/:id/cancel",
    {
      tags: ["orders"],
      summary: "Cancel your order while it awaits payment",
      description:
        "The open payment attempt is recorded cancelled and the order fails, marked cancelled (it reads Cancelled and is not paid again), in one audited transaction; the order then no longer blocks deleting the account. Cancelling again answers the same. An order that no longer awaits payment answers 409 ORDER_NOT_CANCELLABLE; someone else's, 404.",
      onRequest: requireUser,
      config: { rateLimit: { max: 20, timeWindow: "10 minutes" } },
    },
    async (request) => {
      const me = signedInUser(request);
      await cancelOrder(deps, me, request.params.id);
      request.log.info({ orderId: request.params.id }, "order cancelled by its buyer");
      return orderPayment(deps, request.params.id, me.id);
    },
  );

  // The test provider's hosted page: only while some method runs in test mode, only for the order's
  // buyer. It stands for the provider's own site, so it talks to its session, never to the order.
  const test = app.payments.test;
  if (!test) return;
  // The delivery is registered at once (so `test.idle()` waits for it) but starts only once the
  // buyer's answer has been sent, as a provider's webhook arrives independently of the buyer.
  const afterReply = new WeakMap<object, () => void>();

  const ownSession = async (ref: string, userId: string) => {
    const session = await test.session(ref);
    if (!session) throw sessionNotFound();
    if (!(await findOwnedOrder(deps.db, session.orderId, userId))) throw sessionNotFound();
    return session;
  };

  route(
    app,
    "GET /payments/test/sessions/:ref",
    {
      tags: ["payments"],
      summary: "Test mode: the session the hosted test payment page shows",
      onRequest: requireUser,
    },
    async (request) => {
      const session = await ownSession(request.params.ref, signedInUser(request).id);
      return {
        ref: session.ref,
        amountCents: session.amountCents,
        description: session.description,
        state: session.state as "pending" | "paid" | "failed" | "cancelled",
      };
    },
  );

  route(
    app,
    "POST /payments/test/sessions/:ref/choice",
    {
      tags: ["payments"],
      summary: "Test mode: the buyer pays, declines or cancels on the hosted test page",
      description:
        "Records the choice (the first one stands), answers where to send the buyer, and after the answer delivers the signed event to the test provider's webhook.",
      onRequest: requireUser,
      config: { rateLimit: { max: 30, timeWindow: "1 minute" } },
      onResponse: async (request) => {
        afterReply.get(request)?.();
      },
    },
    async (request) => {
      await ownSession(request.params.ref, signedInUser(request).id);
      const { redirectUrl, event } = await test.decide(request.params.ref, request.body.choice);
      if (event && !test.controls.dropEvents) {
        const replied = new Promise<void>((resolve) => afterReply.set(request, resolve));
        test.track(async () => {
          await replied;
          return deliverTestEvent(app, event);
        });
      }
      return { redirectUrl };
    },
  );
};
