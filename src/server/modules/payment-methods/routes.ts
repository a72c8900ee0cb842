import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireUser, signedInUser } from "#server/auth/guards";
import { route } from "#server/http/route";
import {
  addBankTransferMethod,
  completeMethodSetup,
  listPaymentMethods,
  makeDefaultMethod,
  methodDepsOf,
  ownTestSetup,
  removePaymentMethod,
  setSubscriptionPaymentMethod,
  startMethodSetup,
} from "#server/modules/payment-methods/service";
import { deliverTestEvent } from "#server/payments/test-provider";

/**
 * Saved payment methods (decision 0027): the buyer's cards, PayPal accounts and bank transfer, the
 * default among them, the method each subscription renews on, and the test provider's setup page.
 */
export const paymentMethodRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = methodDepsOf(app);

  route(
    app,
    "GET /payment-methods",
    {
      tags: ["payment-methods"],
      summary: "Your saved payment methods, the default first",
      onRequest: requireUser,
    },
    async (request) => listPaymentMethods(deps, signedInUser(request).id),
  );

  route(
    app,
    "POST /payment-methods/setups",
    {
      tags: ["payment-methods"],
      summary: "Open the provider's page to save a card or a PayPal account",
      description:
        "A card is saved at Stripe (a Checkout Session in setup mode), a PayPal account in PayPal's vault; no card data reaches Stackbay. Nothing is charged. The provider sends the buyer back with `?setup=<id>`.",
      onRequest: requireUser,
      config: { rateLimit: { max: 10, timeWindow: "10 minutes" } },
    },
    async (request) => startMethodSetup(deps, signedInUser(request), request.body),
  );

  route(
    app,
    "POST /payment-methods/setups/:id/complete",
    {
      tags: ["payment-methods"],
      summary: "Back from the provider's page: ask whether the method was saved",
      description:
        "The provider's answer is applied as its webhook would be; calling again, or after the webhook, changes nothing more.",
      onRequest: requireUser,
      config: { rateLimit: { max: 60, timeWindow: "1 minute" } },
    },
    async (request) => completeMethodSetup(deps, signedInUser(request).id, request.params.id, {}),
  );

  route(
    app,
    "POST /payment-methods/bank-transfer",
    {
      tags: ["payment-methods"],
      summary: "Pay renewals by bank transfer, against the invoice each renewal sends",
      onRequest: requireUser,
      config: { rateLimit: { max: 20, timeWindow: "10 minutes" } },
    },
    async (request) => ({ method: await addBankTransferMethod(deps, signedInUser(request).id) }),
  );

  route(
    app,
    "POST /payment-methods/:id/default",
    {
      tags: ["payment-methods"],
      summary: "Make a saved method the default for renewals",
      onRequest: requireUser,
      config: { rateLimit: { max: 30, timeWindow: "10 minutes" } },
    },
    async (request) => makeDefaultMethod(deps, signedInUser(request).id, request.params.id),
  );

  route(
    app,
    "DELETE /payment-methods/:id",
    {
      tags: ["payment-methods"],
      summary: "Remove a saved method; its subscriptions renew on the default",
      onRequest: requireUser,
      config: { rateLimit: { max: 30, timeWindow: "10 minutes" } },
    },
    async (request) => removePaymentMethod(deps, signedInUser(request), request.params.id),
  );

  route(
    app,
    "PUT /subscriptions/:id/payment-method",
    {
      tags: ["subscriptions"],
      summary: "Choose the saved method a subscription renews on (null: the default)",
      onRequest: requireUser,
      config: { rateLimit: { max: 30, timeWindow: "10 minutes" } },
    },
    async (request) => ({
      subscription: await setSubscriptionPaymentMethod(
        deps,
        signedInUser(request).id,
        request.params.id,
        request.body,
      ),
    }),
  );

  // The test provider's hosted setup page, as for payments: only in test mode, only for its buyer.
  const test = app.payments.test;
  if (!test) return;
  const afterReply = new WeakMap<object, () => void>();

  route(
    app,
    "GET /payment-methods/test/setups/:ref",
    {
      tags: ["payment-methods"],
      summary: "Test mode: the setup the hosted test page shows",
      onRequest: requireUser,
    },
    async (request) => {
      await ownTestSetup(deps, signedInUser(request).id, request.params.ref);
      const session = await test.setupSession(request.params.ref);
      if (!session) throw new Error("a test setup without its session");
      return {
        ref: session.ref,
        kind: session.kind as "card" | "paypal",
        state: session.state as "pending" | "saved" | "cancelled",
      };
    },
  );

  route(
    app,
    "POST /payment-methods/test/setups/:ref/choice",
    {
      tags: ["payment-methods"],
      summary: "Test mode: the buyer saves a test card (or PayPal) or cancels on the hosted test page",
      onRequest: requireUser,
      config: { rateLimit: { max: 30, timeWindow: "1 minute" } },
      onResponse: async (request) => {
        afterReply.get(request)?.();
      },
    },
    async (request) => {
      await ownTestSetup(deps, signedInUser(request).id, request.params.ref);
      const { redirectUrl, event } = await test.decideSetup(request.params.ref, request.body);
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
