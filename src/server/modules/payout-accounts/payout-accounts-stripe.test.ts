import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { publicUrl } from "#server/env";
import { createStripeProvider } from "#server/payments/stripe";
import { TransferRefused } from "#server/payouts/transfers";
import { createTestApp } from "#server/test/app";
import { signedInClient } from "#server/test/client";
import { type SignedWebhook, type StripeStandIn, startStripeStandIn } from "#server/test/stripe-stand-in";

/**
 * Payout accounts through Stripe Connect: the real SDK against the local stand-in for api.stripe.com.
 * Onboarding opens an Express account and an Account Link; Stripe's signed account.updated moves the
 * status; transfers carry the payout's idempotency key.
 */

const keys = { secretKey: "sk_test_payouts", webhookSecret: "whsec_payouts" };
/** Connected accounts' events come from an endpoint of their own, with its own signing secret. */
const connectSecret = "whsec_payouts_connect";
let standIn: StripeStandIn;
let t: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  standIn = await startStripeStandIn(keys);
  t = await createTestApp({
    seed: true,
    env: {
      STRIPE_SECRET_KEY: keys.secretKey,
      STRIPE_WEBHOOK_SECRET: keys.webhookSecret,
      STRIPE_CONNECT_WEBHOOK_SECRET: connectSecret,
      STRIPE_API_BASE: standIn.url,
    },
    paymentFactories: { stripe: createStripeProvider },
  });
});
afterAll(async () => {
  await t?.close();
  await standIn?.close();
});

const webhook = (signed: SignedWebhook) =>
  t.app.inject({
    method: "POST",
    url: "/api/payments/webhooks/stripe",
    headers: { "content-type": "application/json", ...signed.headers },
    payload: signed.rawBody,
  });

describe("Stripe Connect payouts", () => {
  let accountId = "";
  const status = async (client: Awaited<ReturnType<typeof signedInClient>>) =>
    (await client.get("/api/payouts/account")).json().account;

  test("onboarding opens an Express account for the seller and answers Stripe's onboarding URL", async () => {
    const seller = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
    expect(t.app.payoutRails.mode).toBe("stripe");
    const res = await seller.post("/api/payouts/account/stripe", { country: "de" });
    expect(res.statusCode).toBe(200);
    const [account] = standIn.accounts();
    if (!account) throw new Error("no account opened");
    accountId = account.id;
    expect(res.json().url).toMatch(new RegExp(`^${standIn.url}/setup/e/${accountId}/`));
    const params = standIn.accountParams(accountId);
    expect(params).toMatchObject({
      type: "express",
      country: "DE",
      email: "seller@stackbay.test",
      capabilities: { transfers: { requested: "true" } },
    });
    expect(standIn.accountLinks.at(-1)).toMatchObject({
      account: accountId,
      type: "account_onboarding",
      return_url: `${publicUrl(t.app.env)}/dashboard/wallet?stripe=return`,
      refresh_url: `${publicUrl(t.app.env)}/dashboard/wallet?stripe=refresh`,
    });
    const create = standIn.requests.find((r) => r.path === "/v1/accounts");
    expect(create?.idempotencyKey).toMatch(/^connect-account:/);
    expect(await status(seller)).toMatchObject({ method: "stripe", status: "onboarding" });

    // Continuing asks for a new link to the same account.
    const again = await seller.post("/api/payouts/account/stripe");
    expect(again.statusCode).toBe(200);
    expect(standIn.accounts()).toHaveLength(1);
    expect(standIn.accountLinks).toHaveLength(2);
  });

  test("a forged or unsigned account.updated is refused and changes nothing", async () => {
    const seller = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
    const object = standIn.setOnboarding(accountId, "complete");
    const forged = standIn.signedEvent("account.updated", object, { secret: "whsec_someone_else" });
    expect((await webhook(forged)).statusCode).toBe(400);
    const unsigned = standIn.signedEvent("account.updated", object, { secret: connectSecret });
    expect((await webhook({ rawBody: unsigned.rawBody, headers: {} })).statusCode).toBe(400);
    // The platform endpoint's secret does not vouch for connected accounts' events.
    const platformSigned = standIn.signedEvent("account.updated", object);
    expect((await webhook(platformSigned)).statusCode).toBe(400);
    expect((await status(seller)).status).toBe("onboarding");
  });

  test("Stripe's account.updated moves the status; a replayed event changes nothing", async () => {
    const seller = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
    const incomplete = standIn.signedEvent(
      "account.updated",
      standIn.setOnboarding(accountId, "incomplete"),
      {
        secret: connectSecret,
      },
    );
    expect((await webhook(incomplete)).statusCode).toBe(200);
    expect(await status(seller)).toMatchObject({ status: "restricted", requirements: ["external_account"] });

    const complete = standIn.signedEvent("account.updated", standIn.setOnboarding(accountId, "complete"), {
      secret: connectSecret,
    });
    expect((await webhook(complete)).statusCode).toBe(200);
    expect(await status(seller)).toMatchObject({ status: "enabled", requirements: [] });

    // The incomplete delivery again: stored once, so it cannot undo the newer state.
    expect((await webhook(incomplete)).statusCode).toBe(200);
    expect((await status(seller)).status).toBe("enabled");
  });

  test("a transfer reaches Stripe with the amount, destination, payout id and idempotency key", async () => {
    const rails = t.app.payoutRails;
    const request = { payoutId: "payout-1", accountId, amountCents: 4200, idempotencyKey: "payout:payout-1" };
    const first = await rails.createTransfer(request);
    expect(first.transferId).toMatch(/^tr_/);
    const again = await rails.createTransfer(request);
    expect(again).toEqual(first);
    expect(standIn.transfers()).toEqual([
      expect.objectContaining({
        id: first.transferId,
        amount: 4200,
        currency: "usd",
        destination: accountId,
        metadata: { payoutId: "payout-1" },
      }),
    ]);
    const calls = standIn.requests.filter((r) => r.path === "/v1/transfers");
    expect(calls.map((c) => [c.idempotencyKey, c.replayed])).toEqual([
      ["payout:payout-1", false],
      ["payout:payout-1", true],
    ]);
  });

  test("Stripe refusing a transfer throws its reason", async () => {
    const reseller = await signedInClient(t.app, "reseller@stackbay.test", DEMO_PASSWORD);
    await reseller.post("/api/payouts/account/stripe", { country: "US" });
    const pending = standIn.accounts().find((a) => a.id !== accountId);
    if (!pending) throw new Error("no second account");
    const refused = t.app.payoutRails.createTransfer({
      payoutId: "payout-2",
      accountId: pending.id,
      amountCents: 100,
      idempotencyKey: "payout:payout-2",
    });
    await expect(refused).rejects.toThrow(TransferRefused);
    await expect(refused).rejects.toThrow(/capabilities enabled: transfers/);
  });
});
