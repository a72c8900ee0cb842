import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { auditLog } from "#server/db/schema/audit";
import { user } from "#server/db/schema/auth";
import { paymentEvents } from "#server/db/schema/payments";
import { payoutAccounts } from "#server/db/schema/payouts";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { unseal } from "#server/lib/sealed";
import { deliverTestEvent, type TestAccountEvent } from "#server/payments/test-provider";
import { TransferRefused } from "#server/payouts/transfers";
import { createTestApp } from "#server/test/app";
import { signedInClient } from "#server/test/client";
import { readOutbox } from "#server/test/outbox";
import { eventsDelivered } from "#server/test/payments";

/**
 * Payout methods in test mode (no Stripe key): the seller's and reseller's own bank account, masked in
 * every answer and sealed at rest; test Connect onboarding through the hosted test page and a signed
 * account.updated; transfers of the test rails.
 */

let t: Awaited<ReturnType<typeof createTestApp>>;
let seller: Awaited<ReturnType<typeof signedInClient>>;

const germanAccount = {
  holderName: "Samir Seller",
  country: "DE",
  iban: "DE89 3704 0044 0532 0130 00",
  swift: "DEUTDEFF",
};

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  seller = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
});
afterAll(() => t?.close());

const put = (client: typeof seller, body: object) => client.request("PUT", "/api/payouts/account/bank", body);
const idOf = async (email: string) =>
  (await t.db.select({ id: user.id }).from(user).where(eq(user.email, email)))[0]?.id ?? "";

describe("who may", () => {
  test("a buyer or an admin is refused (403); a stranger 401", async () => {
    const buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
    const admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
    for (const client of [buyer, admin]) {
      expect((await client.get("/api/payouts/account")).statusCode).toBe(403);
      expect((await put(client, germanAccount)).statusCode).toBe(403);
      expect((await client.post("/api/payouts/account/stripe", { country: "DE" })).statusCode).toBe(403);
      expect((await client.request("DELETE", "/api/payouts/account")).statusCode).toBe(403);
    }
    const stranger = await t.app.inject({ method: "GET", url: "/api/payouts/account" });
    expect(stranger.statusCode).toBe(401);
  });
});

describe("bank account", () => {
  test("none at first", async () => {
    const res = await seller.get("/api/payouts/account");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ account: null });
  });

  test("bad input is refused with the field's message and stores nothing", async () => {
    const res = await put(seller, { ...germanAccount, iban: "DE88370400440532013000" });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/This IBAN is not valid/);
    const india = await put(seller, {
      holderName: "Samir",
      country: "IN",
      accountNumber: "50100012345678",
      ifsc: "HDFC1234567",
    });
    expect(india.statusCode).toBe(400);
    expect(india.json().message).toMatch(/IFSC/);
    expect((await seller.get("/api/payouts/account")).json()).toEqual({ account: null });
  });

  test("saved: answered masked, sealed at rest, audited without the number, and e-mailed", async () => {
    const res = await put(seller, germanAccount);
    expect(res.statusCode).toBe(200);
    expect(res.json().account).toMatchObject({ method: "bank", country: "DE", masked: "•••• 3000" });
    expect(res.body).not.toContain("DE89");
    expect((await seller.get("/api/payouts/account")).json().account.masked).toBe("•••• 3000");

    const sellerId = await idOf("seller@stackbay.test");
    const [row] = await t.db.select().from(payoutAccounts).where(eq(payoutAccounts.userId, sellerId));
    expect(row?.bankSealed).not.toContain("3704");
    const opened = JSON.parse(
      unseal(t.app.env.AUTH_SECRET ?? "", "payout-bank-account", row?.bankSealed ?? ""),
    );
    expect(opened).toMatchObject({
      iban: "DE89370400440532013000",
      swift: "DEUTDEFF",
      holderName: "Samir Seller",
    });

    const audits = await t.db.select().from(auditLog).where(eq(auditLog.entityType, "payout_account"));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ action: "create", entityId: sellerId });
    expect(JSON.stringify(audits[0]?.changes)).not.toContain("3704");
    expect(JSON.stringify(audits[0]?.changes)).toContain("•••• 3000");

    const mail = (await readOutbox(t.dataDir)).filter(
      (m) => m.subject === "Your payout details were changed",
    );
    expect(mail.map((m) => m.to)).toEqual(["seller@stackbay.test"]);
    expect(mail[0]?.body).toContain("•••• 3000");
    expect(mail[0]?.body).not.toContain("3704");
  });

  test("a user reads and changes only their own: the reseller sees none and saves their own", async () => {
    const reseller = await signedInClient(t.app, "reseller@stackbay.test", DEMO_PASSWORD);
    expect((await reseller.get("/api/payouts/account")).json()).toEqual({ account: null });
    const res = await put(reseller, {
      holderName: "Rhea R",
      country: "US",
      accountNumber: "000123456789",
      swift: "CHASUS33",
    });
    expect(res.json().account).toMatchObject({ method: "bank", country: "US", masked: "•••• 6789" });
    expect((await seller.get("/api/payouts/account")).json().account.masked).toBe("•••• 3000");
  });
});

describe("Stripe in test mode", () => {
  let accountId = "";

  test("connecting needs a country for a new account", async () => {
    const res = await seller.post("/api/payouts/account/stripe", {});
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe("COUNTRY_REQUIRED");
    expect((await seller.post("/api/payouts/account/stripe", { country: "XX" })).statusCode).toBe(400);
  });

  test("onboarding sends the seller to the hosted test page; the bank account is replaced", async () => {
    const res = await seller.post("/api/payouts/account/stripe", { country: "DE" });
    expect(res.statusCode).toBe(200);
    const url = new URL(res.json().url);
    const match = url.pathname.match(/^\/pay\/test\/connect\/(acct_test_[0-9a-f]{24})$/);
    expect(match).not.toBeNull();
    accountId = match?.[1] ?? "";
    expect((await seller.get("/api/payouts/account")).json().account).toMatchObject({
      method: "stripe",
      status: "onboarding",
    });
    // Continuing opens no second account.
    const again = await seller.post("/api/payouts/account/stripe");
    expect(new URL(again.json().url).pathname).toBe(url.pathname);
    // Someone else's test account is as absent as none.
    const reseller = await signedInClient(t.app, "reseller@stackbay.test", DEMO_PASSWORD);
    expect((await reseller.get(`/api/payouts/test/connect/${accountId}`)).statusCode).toBe(404);
  });

  test("leaving onboarding incomplete restricts the account with what is due; completing enables it", async () => {
    const page = await seller.get(`/api/payouts/test/connect/${accountId}`);
    expect(page.json()).toEqual({ accountId, status: "onboarding" });
    const left = await seller.post(`/api/payouts/test/connect/${accountId}/choice`, { choice: "incomplete" });
    expect(new URL(left.json().redirectUrl).pathname).toBe("/dashboard/wallet");
    await eventsDelivered(t.app);
    expect((await seller.get("/api/payouts/account")).json().account).toMatchObject({
      status: "restricted",
      requirements: ["external_account", "individual.verification.document"],
    });
    await seller.post(`/api/payouts/test/connect/${accountId}/choice`, { choice: "complete" });
    await eventsDelivered(t.app);
    expect((await seller.get("/api/payouts/account")).json().account).toMatchObject({
      method: "stripe",
      status: "enabled",
      requirements: [],
    });
  });

  test("an unsigned or forged test event is refused; a replayed one changes nothing", async () => {
    const created = Math.floor(Date.now() / 1000) + 5;
    const event: TestAccountEvent = {
      id: "evt_test_replayed",
      type: "account.updated",
      created,
      data: { accountId, payoutsEnabled: false, detailsSubmitted: true, currentlyDue: ["external_account"] },
    };
    const unsigned = await t.app.inject({
      method: "POST",
      url: "/api/payments/webhooks/test",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify(event),
    });
    expect(unsigned.statusCode).toBe(400);
    const forged = await t.app.inject({
      method: "POST",
      url: "/api/payments/webhooks/test",
      headers: { "content-type": "application/json", "test-signature": `t=${created},v1=${"0".repeat(64)}` },
      payload: JSON.stringify(event),
    });
    expect(forged.statusCode).toBe(400);
    const status = async () => (await seller.get("/api/payouts/account")).json().account.status;
    expect(await status()).toBe("enabled");

    expect(await deliverTestEvent(t.app, event)).toBe(200);
    expect(await status()).toBe("restricted");
    const enabled: TestAccountEvent = {
      id: "evt_test_enabled",
      type: "account.updated",
      created: created + 1,
      data: { accountId, payoutsEnabled: true, detailsSubmitted: true, currentlyDue: [] },
    };
    expect(await deliverTestEvent(t.app, enabled)).toBe(200);
    expect(await status()).toBe("enabled");
    // The same event again is stored once and changes nothing; an older one delivered late neither.
    expect(await deliverTestEvent(t.app, event)).toBe(200);
    expect(await status()).toBe("enabled");
    const stored = await t.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, event.id));
    expect(stored).toHaveLength(1);
    expect(await deliverTestEvent(t.app, { ...event, id: "evt_test_late", created: created - 3600 })).toBe(
      200,
    );
    expect(await status()).toBe("enabled");
  });

  test("test transfers succeed once per idempotency key, and fail when told to", async () => {
    const rails = t.app.payoutRails;
    const request = { payoutId: "p1", accountId, amountCents: 1250, idempotencyKey: "payout:p1" };
    const first = await rails.createTransfer(request);
    expect(first.transferId).toMatch(/^tr_test_/);
    expect(await rails.createTransfer(request)).toEqual(first);
    if (!rails.test) throw new Error("test rails expected");
    rails.test.failNextTransfer = "Insufficient funds in the platform balance (test mode)";
    await expect(rails.createTransfer({ ...request, idempotencyKey: "payout:p2" })).rejects.toThrow(
      TransferRefused,
    );
    await expect(
      rails.createTransfer({ ...request, amountCents: 0, idempotencyKey: "payout:p3" }),
    ).rejects.toThrow(/Invalid amount/);
  });

  test("remove: the method is gone, audited and e-mailed; removing again is 404", async () => {
    const before = (await readOutbox(t.dataDir)).length;
    const res = await seller.request("DELETE", "/api/payouts/account");
    expect(res.statusCode).toBe(204);
    expect((await seller.get("/api/payouts/account")).json()).toEqual({ account: null });
    const mails = (await readOutbox(t.dataDir)).slice(before);
    expect(mails.map((m) => [m.to, m.subject])).toContainEqual([
      "seller@stackbay.test",
      "Your payout details were changed",
    ]);
    const audits = await t.db.select().from(auditLog).where(eq(auditLog.entityType, "payout_account"));
    expect(audits.map((a) => a.action)).toContain("delete");
    expect((await seller.request("DELETE", "/api/payouts/account")).statusCode).toBe(404);
  });

  test("changes are rate-limited per account", async () => {
    const reseller = await signedInClient(t.app, "reseller@stackbay.test", DEMO_PASSWORD);
    let last = 0;
    for (let i = 0; i < 12; i++) {
      last = (
        await put(reseller, {
          holderName: "Rhea R",
          country: "US",
          accountNumber: `00012345${i}`,
          swift: "CHASUS33",
        })
      ).statusCode;
    }
    expect(last).toBe(429);
  });
});
