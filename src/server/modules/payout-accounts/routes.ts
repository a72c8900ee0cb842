import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  bankAccountSchema,
  onboardingAnswerSchema,
  payoutAccountAnswerSchema,
  startOnboardingSchema,
  testConnectAccountSchema,
  testOnboardingChoiceSchema,
} from "#domain/payouts";
import { requireAnyRole, requireUser, signedInUser } from "#server/auth/guards";
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

const accountIdParams = z.object({
  accountId: z.string().regex(/^acct_test_[0-9a-f]{24}$/, "Unknown connected account"),
});

/** A seller's or reseller's payout method: read (masked), bank details, Stripe onboarding, removal. */
export const payoutAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = payoutAccountDepsOf(app);
  const ownerOf = (request: FastifyRequest) => {
    const me = signedInUser(request);
    return { id: me.id, email: me.email };
  };

  app.register(async (scope) => {
    const own = scope.withTypeProvider<ZodTypeProvider>();
    own.addHook("onRequest", requireAnyRole("seller", "reseller"));

    own.get(
      "/payouts/account",
      {
        schema: {
          tags: ["payouts"],
          summary: "Your payout method: Stripe's status, or the bank account masked to its last four",
          response: { 200: payoutAccountAnswerSchema },
        },
      },
      async (request) => ({ account: await myPayoutAccount(deps, signedInUser(request).id) }),
    );

    own.put(
      "/payouts/account/bank",
      {
        config: { rateLimit: changeLimit },
        schema: {
          tags: ["payouts"],
          summary: "Be paid to this bank account (replaces any other payout method)",
          description:
            "The details are sealed at rest; the answer, the audit trail and the notice e-mailed to the account's address show only the last four characters.",
          body: bankAccountSchema,
          response: { 200: payoutAccountAnswerSchema },
        },
      },
      async (request) => {
        // The money clock (a test server's can be moved): the cooling-off counts from this moment.
        const account = await saveBankAccount(deps, ownerOf(request), request.body, app.clock.now());
        request.log.info({ method: "bank" }, "payout account saved");
        return { account };
      },
    );

    own.post(
      "/payouts/account/stripe",
      {
        config: { rateLimit: changeLimit },
        schema: {
          tags: ["payouts"],
          summary: "Start or continue Stripe onboarding; answers the onboarding page to send the user to",
          description:
            "Opens a Stripe Express account in `country` (replacing a bank account) when there is none yet; otherwise a fresh link for the existing one. Its status follows Stripe's account.updated events.",
          body: startOnboardingSchema.optional(),
          response: { 200: onboardingAnswerSchema },
        },
      },
      async (request) => {
        const url = await startOnboarding(deps, ownerOf(request), request.body?.country, app.clock.now());
        request.log.info({ method: "stripe" }, "payout onboarding started");
        return { url };
      },
    );

    own.delete(
      "/payouts/account",
      {
        config: { rateLimit: changeLimit },
        schema: {
          tags: ["payouts"],
          summary: "Remove your payout method",
          response: { 204: z.null().describe("Removed") },
        },
      },
      async (request, reply) => {
        await removePayoutAccount(deps, ownerOf(request));
        request.log.info("payout account removed");
        return reply.status(204).send(null);
      },
    );
  });

  // Test mode's stand-in for Stripe's hosted onboarding: only while payouts run in test mode, only for
  // the account's owner. Its answer is delivered as a signed event to the webhook route, as Stripe's is.
  app.register(async (scope) => {
    const test = app.payments.test;
    if (app.payoutRails.mode !== "test" || !test) return;
    const own = scope.withTypeProvider<ZodTypeProvider>();
    own.addHook("onRequest", requireUser);
    const afterReply = new WeakMap<object, () => void>();

    own.get(
      "/payouts/test/connect/:accountId",
      {
        schema: {
          tags: ["payouts"],
          summary: "Test mode: the connected account the hosted test onboarding page shows",
          params: accountIdParams,
          response: { 200: testConnectAccountSchema },
        },
      },
      async (request) => testConnectAccount(deps, signedInUser(request).id, request.params.accountId),
    );

    own.post(
      "/payouts/test/connect/:accountId/choice",
      {
        config: { rateLimit: { max: 30, timeWindow: "1 minute" } },
        schema: {
          tags: ["payouts"],
          summary: "Test mode: complete onboarding, or leave it with details still due",
          description:
            "Answers where to send the user and, after the answer, delivers a signed account.updated event to the webhook route.",
          params: accountIdParams,
          body: testOnboardingChoiceSchema,
          response: { 200: z.object({ redirectUrl: z.string() }) },
        },
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
  });
};
