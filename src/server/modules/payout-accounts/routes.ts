import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireAnyRole, requireUser, signedInUser } from "#server/auth/guards";
import { route } from "#server/http/route";
import {
  decideTestOnboarding,
  myPayoutAccount,
  payoutAccountDepsOf,
  removePayoutAccount,
  saveBankAccount,
  startOnboarding,
  testConnectAccount,
} from "#server/modules/payout-accounts/service";
import { deliverTestEvent } from "#server/payments/test-provider";

/**
 * Changes to where money goes are what an attacker with a stolen session wants most: counted per
 * account (the guard has run, so the user is known), not per address, which a botnet changes at will.
 */
const changeLimit = {
  max: 10,
  timeWindow: "10 minutes",
  keyGenerator: (request: FastifyRequest) => `payout-account:${request.user?.id ?? request.ip}`,
};

/** A seller's or reseller's payout method: read (masked), bank details, Stripe onboarding, removal. */
export const payoutAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = payoutAccountDepsOf(app);
  const ownerOf = (request: FastifyRequest) => {
    const me = signedInUser(request);
    return { id: me.id, email: me.email };
  };

  route(
    app,
    "GET /payouts/account",
    {
      tags: ["payouts"],
      summary: "Your payout method: Stripe's status, or the bank account masked to its last four",
      onRequest: requireAnyRole("seller", "reseller"),
    },
    async (request) => ({ account: await myPayoutAccount(deps, signedInUser(request).id) }),
  );

  route(
    app,
    "PUT /payouts/account/bank",
    {
      tags: ["payouts"],
      summary: "Be paid to this bank account (replaces any other payout method)",
      description:
        "The details are sealed at rest; the answer, the audit trail and the notice e-mailed to the account's address show only the last four characters.",
      onRequest: requireAnyRole("seller", "reseller"),
      config: { rateLimit: changeLimit },
    },
    async (request) => {
      // The money clock (a test server's can be moved): the cooling-off counts from this moment.
      const account = await saveBankAccount(deps, ownerOf(request), request.body, app.clock.now());
      request.log.info({ method: "bank" }, "payout account saved");
      return { account };
    },
  );

  route(
    app,
    "POST /payouts/account/stripe",
    {
      tags: ["payouts"],
      summary: "Start or continue Stripe onboarding; answers the onboarding page to send the user to",
      description:
        "Opens a Stripe Express account in `country` (replacing a bank account) when there is none yet; otherwise a fresh link for the existing one. Its status follows Stripe's account.updated events.",
      onRequest: requireAnyRole("seller", "reseller"),
      config: { rateLimit: changeLimit },
    },
    async (request) => {
      const url = await startOnboarding(deps, ownerOf(request), request.body?.country, app.clock.now());
      request.log.info({ method: "stripe" }, "payout onboarding started");
      return { url };
    },
  );

  route(
    app,
    "DELETE /payouts/account",
    {
      tags: ["payouts"],
      summary: "Remove your payout method",
      onRequest: requireAnyRole("seller", "reseller"),
      config: { rateLimit: changeLimit },
    },
    async (request, reply) => {
      await removePayoutAccount(deps, ownerOf(request));
      request.log.info("payout account removed");
      return reply.status(204).send(null);
    },
  );

  // Test mode's stand-in for Stripe's hosted onboarding: only while payouts run in test mode, only for
  // the account's owner. Its answer is delivered as a signed event to the webhook route, as Stripe's is.
  const test = app.payments.test;
  if (app.payoutRails.mode !== "test" || !test) return;
  const afterReply = new WeakMap<object, () => void>();

  route(
    app,
    "GET /payouts/test/connect/:accountId",
    {
      tags: ["payouts"],
      summary: "Test mode: the connected account the hosted test onboarding page shows",
      onRequest: requireUser,
    },
    async (request) => testConnectAccount(deps, signedInUser(request).id, request.params.accountId),
  );

  route(
    app,
    "POST /payouts/test/connect/:accountId/choice",
    {
      tags: ["payouts"],
      summary: "Test mode: complete onboarding, or leave it with details still due",
      description:
        "Answers where to send the user and, after the answer, delivers a signed account.updated event to the webhook route.",
      onRequest: requireUser,
      config: { rateLimit: { max: 30, timeWindow: "1 minute" } },
      onResponse: async (request) => {
        afterReply.get(request)?.();
      },
    },
    async (request) => {
      const { redirectUrl, event } = await decideTestOnboarding(
        deps,
        signedInUser(request).id,
        request.params.accountId,
        request.body.choice,
      );
      if (!test.controls.dropEvents) {
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
