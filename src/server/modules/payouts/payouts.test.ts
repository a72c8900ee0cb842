import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Order } from "#domain/checkout";
import { DAY_MS } from "#domain/dates";
import type { PayoutBatchDetail, PayoutPreview } from "#domain/finance";
import { auditLog } from "#server/db/schema/audit";
import { journalLines, payouts } from "#server/db/schema/ledger";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { releaseDue } from "#server/modules/ledger/bookings";
import { createTestApp } from "#server/test/app";
import { signedInClient } from "#server/test/client";
import { placeAndPay } from "#server/test/orders";
import { readOutbox } from "#server/test/outbox";
import { eventsDelivered } from "#server/test/payments";
import { sellerWithProduct } from "#server/test/sellers";

let t: Awaited<ReturnType<typeof createTestApp>>;
type Client = Awaited<ReturnType<typeof signedInClient>>;
let buyer: Client;
let seller: Client;
let reseller: Client;
let admin: Client;
let superAdmin: Client;
let sellerId: string;
let product: { id: string; price: number };

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  const as = (who: string) => signedInClient(t.app, `${who}@stackbay.test`, DEMO_PASSWORD);
  buyer = await as("buyer");
  reseller = await as("reseller");
  admin = await as("admin");
  superAdmin = await as("superadmin");
  const mine = await sellerWithProduct(t, "seller@payouts.test", "software");
  seller = mine.client;
  sellerId = mine.id;
  product = mine.product;
});
afterAll(() => t.close());

async function buy(quantity: number): Promise<Order> {
  return placeAndPay(t.app, buyer, { items: [{ productId: product.id, quantity, price: product.price }] });
}

/** The seller's balance on an account kind, from the ledger, in money units (credit balance positive). */
async function sellerBalance(kind: "seller_pending" | "seller_available"): Promise<number> {
  const [row] = await t.db
    .select({ total: sql<number>`-coalesce(sum(${journalLines.amount}), 0)`.mapWith(Number) })
    .from(journalLines)
    .where(eq(journalLines.accountId, `${kind}:${sellerId}`));
  return row?.total ?? 0;
}

const preview = async (minimum = 1) =>
  (await superAdmin.get(`/api/admin/payouts/preview?minimum=${minimum}`)).json() as PayoutPreview;
const runBatch = (minimum = 1) =>
  superAdmin.post("/api/admin/payouts/batches", {
    minimum,
    payees: [{ userId: sellerId, role: "seller" }],
  });
/** Moves the test server's clock past the payout cooling-off period (72 hours). */
const passCoolingOff = async () =>
  expect((await superAdmin.post("/api/test/clock", { advanceDays: 3 })).statusCode).toBe(200);
const net = () => {
  const line = Math.round(product.price * 10_000);
  return line - Math.round(line / 10);
};

describe("payout batches", () => {
  test("only a super admin previews, runs and settles payouts", async () => {
    for (const client of [buyer, seller, reseller, admin]) {
      expect((await client.get("/api/admin/payouts/preview")).statusCode).toBe(403);
      expect((await client.post("/api/admin/payouts/batches", { minimum: 1, payees: [] })).statusCode).toBe(
        403,
      );
      expect(
        (await client.post(`/api/admin/payouts/${randomUUID()}/paid`, { reference: "X-1" })).statusCode,
      ).toBe(403);
    }
  });

  test("a balance waits for payout details and the window; then a bank payout is paid, and a refund after it is recovered from the next", async () => {
    const first = await buy(1);
    // Pending, not payable, until the refund window ends.
    expect(await sellerBalance("seller_pending")).toBe(net());
    expect((await preview()).candidates.find((c) => c.userId === sellerId)).toBeUndefined();
    await releaseDue(t.db, new Date(Date.now() + 15 * DAY_MS));
    expect(await sellerBalance("seller_available")).toBe(net());
    const waiting = (await preview()).candidates.find((c) => c.userId === sellerId);
    expect(waiting).toMatchObject({ role: "seller", skipReason: "No payout details", method: null });
    expect((await runBatch()).json().code).toBe("NOTHING_TO_PAY");

    const bank = await seller.request("PUT", "/api/payouts/account/bank", {
      holderName: "Samir Seller",
      country: "DE",
      iban: "DE89 3704 0044 0532 0130 00",
      swift: "DEUTDEFF",
    });
    expect(bank.statusCode).toBe(200);
    // Over the minimum only: a large minimum leaves it for later.
    expect((await preview(1_000_000)).candidates.find((c) => c.userId === sellerId)?.skipReason).toBe(
      "Below the minimum",
    );
    // New payout details wait out the cooling-off period (72 hours), with the reason on the preview.
    expect((await preview()).candidates.find((c) => c.userId === sellerId)?.skipReason).toMatch(
      /^Payout details changed recently: held until /,
    );
    expect((await runBatch()).json().code).toBe("NOTHING_TO_PAY");
    await passCoolingOff();
    const ready = (await preview()).candidates.find((c) => c.userId === sellerId);
    expect(ready).toMatchObject({ skipReason: null, method: "bank", destination: "•••• 3000" });

    const batchRes = await runBatch();
    expect(batchRes.statusCode).toBe(201);
    const batch = batchRes.json() as PayoutBatchDetail;
    const payout = batch.payouts[0];
    expect(payout).toMatchObject({ status: "processing", method: "bank", destination: "•••• 3000" });
    expect(Math.round((payout?.amount ?? 0) * 10_000)).toBe(Math.floor(net() / 100) * 100);
    expect(await sellerBalance("seller_available")).toBe(net() % 100);
    // Approving the same payee again pays nothing twice.
    expect((await runBatch()).json().code).toBe("NOTHING_TO_PAY");
    const sent = (await readOutbox(t.dataDir)).find(
      (m) => m.to === "seller@payouts.test" && m.subject.includes("is on its way"),
    );
    expect(sent).toBeDefined();

    // The bank file carries the full IBAN for the operator, and downloading it is audited.
    const file = await superAdmin.get(`/api/admin/payouts/batches/${batch.id}/bank-file.csv`);
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toMatch(/^text\/csv/);
    expect(file.body).toContain("DE89370400440532013000");
    expect(file.body.split("\r\n")[0]).toBe(
      "payout_id,account_holder,bank_country,iban,account_number,swift_bic,ifsc,amount,currency,reference",
    );
    expect((await admin.get(`/api/admin/payouts/batches/${batch.id}/bank-file.csv`)).statusCode).toBe(403);

    const paid = await superAdmin.post(`/api/admin/payouts/${payout?.id}/paid`, { reference: "BANK-REF-1" });
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ status: "paid", reference: "BANK-REF-1" });
    expect(
      (await superAdmin.post(`/api/admin/payouts/${payout?.id}/paid`, { reference: "BANK-REF-1" })).json()
        .code,
    ).toBe("PAYOUT_SETTLED");
    const audits = await t.db.select().from(auditLog).where(eq(auditLog.entityType, "payout"));
    expect(audits.length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(audits)).not.toContain("DE89370400440532013000");

    // The seller sees it paid.
    const earnings = (await seller.get("/api/earnings")).json();
    const mine = earnings.balances.find((b: { role: string }) => b.role === "seller");
    expect(Math.round(mine.paid * 10_000)).toBe(Math.floor(net() / 100) * 100);

    // The buyer's refund is approved after the money was paid out: the seller's balance goes below zero.
    const itemId = first.items[0]?.id ?? "";
    const asked = await buyer.post(`/api/orders/${first.id}/items/${itemId}/refund`, {
      reason: "The license does not activate on our servers.",
    });
    expect(asked.statusCode).toBe(201);
    expect(
      (await seller.post(`/api/refunds/${asked.json().refund.id}/decision`, { decision: "approve" }))
        .statusCode,
    ).toBe(200);
    await eventsDelivered(t.app);
    const owed = await sellerBalance("seller_available");
    expect(owed).toBe((net() % 100) - net());
    expect((await preview()).candidates.find((c) => c.userId === sellerId)?.skipReason).toBe(
      "Negative balance: recovered from later earnings",
    );

    // Two more sold and released: the next payout pays what is left after the debt.
    await buy(2);
    await releaseDue(t.db, new Date(Date.now() + 30 * DAY_MS));
    const available = await sellerBalance("seller_available");
    expect(available).toBe(owed + 2 * net());
    const next = (await runBatch()).json() as PayoutBatchDetail;
    expect(Math.round((next.payouts[0]?.amount ?? 0) * 10_000)).toBe(Math.floor(available / 100) * 100);
  });

  test("a failed payout returns the money to the balance with its reason, and the payee is told", async () => {
    await buy(1);
    await releaseDue(t.db, new Date(Date.now() + 60 * DAY_MS));
    const before = await sellerBalance("seller_available");
    const batch = (await runBatch()).json() as PayoutBatchDetail;
    const payout = batch.payouts[0];
    expect(await sellerBalance("seller_available")).toBe(before % 100);
    const failed = await superAdmin.post(`/api/admin/payouts/${payout?.id}/failed`, {
      reason: "The bank returned it: account closed",
    });
    expect(failed.json()).toMatchObject({
      status: "failed",
      failureReason: "The bank returned it: account closed",
    });
    expect(await sellerBalance("seller_available")).toBe(before);
    const mail = (await readOutbox(t.dataDir)).find(
      (m) => m.to === "seller@payouts.test" && m.subject.includes("could not be made"),
    );
    expect(mail?.body).toContain("account closed");
    expect(
      (await superAdmin.post(`/api/admin/payouts/${payout?.id}/failed`, { reason: "x" })).statusCode,
    ).toBe(400);
  });

  test("the bank file pays the account the batch approved, not one saved after it; new details wait out the cooling-off, and the seller is told the old and the new", async () => {
    await buy(1);
    await releaseDue(t.db, new Date(Date.now() + 120 * DAY_MS));
    const batch = (await runBatch()).json() as PayoutBatchDetail;
    const approved = batch.payouts[0];
    expect(approved).toMatchObject({ method: "bank", destination: "•••• 3000" });

    // After the approval, someone with the seller's session sends the money elsewhere.
    const changed = await seller.request("PUT", "/api/payouts/account/bank", {
      holderName: "Mallory Thief",
      country: "GB",
      iban: "GB82 WEST 1234 5698 7654 32",
      swift: "NWBKGB2L",
    });
    expect(changed.statusCode).toBe(200);
    const file = await superAdmin.get(`/api/admin/payouts/batches/${batch.id}/bank-file.csv`);
    expect(file.statusCode).toBe(200);
    expect(file.body).toContain("DE89370400440532013000");
    expect(file.body).not.toContain("GB82WEST12345698765432");
    expect(file.body).not.toContain("Mallory");

    // The owner hears at once, with both accounts masked and when the new one could first be paid.
    const notice = (await readOutbox(t.dataDir))
      .filter((m) => m.to === "seller@payouts.test" && m.subject === "Your payout details were changed")
      .at(-1);
    expect(notice?.body).toContain("payouts now go to the bank account •••• 5432");
    expect(notice?.body).toContain("Before this change, payouts went to the bank account •••• 3000.");
    expect(notice?.body).toContain("no payout is made to the new details before");
    expect(notice?.body).not.toContain("GB82");
    expect(notice?.body).not.toContain("DE89");

    // The next batch leaves the new account out until the cooling-off period has passed.
    await buy(1);
    await releaseDue(t.db, new Date(Date.now() + 130 * DAY_MS));
    expect((await preview()).candidates.find((c) => c.userId === sellerId)?.skipReason).toMatch(
      /^Payout details changed recently: held until /,
    );
    expect((await runBatch()).json().code).toBe("NOTHING_TO_PAY");

    // Settled, the payout no longer keeps a copy of the bank details.
    expect(
      (await superAdmin.post(`/api/admin/payouts/${approved?.id}/paid`, { reference: "BANK-REF-2" }))
        .statusCode,
    ).toBe(200);
    const [kept] = await t.db
      .select({ bankSealed: payouts.bankSealed })
      .from(payouts)
      .where(eq(payouts.id, approved?.id ?? ""));
    expect(kept?.bankSealed).toBeNull();
    await passCoolingOff();
    expect((await preview()).candidates.find((c) => c.userId === sellerId)).toMatchObject({
      skipReason: null,
      destination: "•••• 5432",
    });
  });

  test("a Stripe payout is transferred by the job, keyed by the payout; a refusal returns the money", async () => {
    const start = await seller.post("/api/payouts/account/stripe", { country: "DE" });
    const accountId = new URL(start.json().url).pathname.split("/").pop() ?? "";
    // Not payable while onboarding is unfinished.
    expect((await preview()).candidates.find((c) => c.userId === sellerId)?.skipReason).toBe(
      "Stripe onboarding not finished",
    );
    await seller.post(`/api/payouts/test/connect/${accountId}/choice`, { choice: "complete" });
    await eventsDelivered(t.app);
    await passCoolingOff();

    const batch = (await runBatch()).json() as PayoutBatchDetail;
    const paid = (await superAdmin.get(`/api/admin/payouts/batches/${batch.id}`)).json() as PayoutBatchDetail;
    expect(paid.payouts[0]).toMatchObject({ method: "stripe", status: "paid" });
    expect(paid.payouts[0]?.reference).toMatch(/^tr_test_/);
    const rails = t.app.payoutRails.test;
    expect(rails?.transfers.has(`payout-${paid.payouts[0]?.id}`)).toBe(true);
    // Stripe payouts are settled by Stripe's answer, not by hand.
    expect(
      (await superAdmin.post(`/api/admin/payouts/${paid.payouts[0]?.id}/paid`, { reference: "X-1" })).json()
        .code,
    ).toBe("PAYOUT_SETTLED");

    await buy(1);
    await releaseDue(t.db, new Date(Date.now() + 90 * DAY_MS));
    if (rails)
      rails.failNextTransfer =
        "Your destination account needs to have at least one of the following capabilities enabled: transfers";
    const refused = (await runBatch()).json() as PayoutBatchDetail;
    const after = (
      await superAdmin.get(`/api/admin/payouts/batches/${refused.id}`)
    ).json() as PayoutBatchDetail;
    expect(after.payouts[0]).toMatchObject({ status: "failed" });
    expect(after.payouts[0]?.failureReason).toContain("capabilities");
    expect(await sellerBalance("seller_available")).toBeGreaterThanOrEqual(net());
  });
});
