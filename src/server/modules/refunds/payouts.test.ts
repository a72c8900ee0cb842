import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Order } from "#domain/checkout";
import { chargeCents } from "#domain/money";
import type { RefundListItem } from "#domain/refunds";
import { refundPayouts } from "#server/db/schema/after-sale";
import { auditLog } from "#server/db/schema/audit";
import { products } from "#server/db/schema/catalog";
import { paymentEvents, testPaymentSessions } from "#server/db/schema/payments";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { REFUND_PAYOUT_JOB, refundPayoutDepsOf, runPayout } from "#server/modules/refunds/payouts";
import { deliverTestEvent, type TestRefundEvent } from "#server/payments/test-provider";
import { createTestApp, queryRows } from "#server/test/app";
import { createVerifiedAccount, signedInClient } from "#server/test/client";
import { placeAndPay, placeOrder } from "#server/test/orders";
import { readOutbox } from "#server/test/outbox";
import { getOrder, payOrder } from "#server/test/payments";

/**
 * Approved refunds pay the buyer back: through the test-mode provider the order was paid with (its
 * refund call in a job, its refund events through the webhook), or, for an order no provider took
 * money for, as a transfer the operator records.
 */

let t: Awaited<ReturnType<typeof createTestApp>>;
type Client = Awaited<ReturnType<typeof signedInClient>>;
let buyer: Client;
let seller: Client;
let admin: Client;
let otherBuyer: Client;
let software: string;
let hardware: string;
const prices: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
  seller = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
  admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
  const other = await createVerifiedAccount(t.app, t.dataDir, { email: "other-buyer@payouts.test" });
  otherBuyer = await signedInClient(t.app, other.email, other.password);
  const pick = async (category: string) => {
    const [row] = await t.db
      .select({ id: products.id, price: products.price })
      .from(products)
      .where(
        and(
          eq(products.category, category),
          eq(products.isActive, true),
          sql`${products.sellerId} = (select id from users where email = 'seller@stackbay.test')`,
        ),
      )
      .limit(1);
    if (row) prices[row.id] = Number(row.price);
    return row?.id ?? "";
  };
  software = await pick("software");
  hardware = await pick("hardware");
});
afterAll(() => t.close());

async function place(...productIds: string[]): Promise<string> {
  const items = productIds.map((productId) => ({ productId, price: prices[productId] ?? 0 }));
  return (await placeOrder(buyer, { country: "Portugal", items })).orderId;
}

const buy = async (...productIds: string[]) => payOrder(t.app, buyer, await place(...productIds));
const itemOf = (order: Order, productId: string) =>
  order.items.find((i) => i.productId === productId)?.id ?? "";

/** The buyer asks for the item's refund and the seller approves it; answers the refund id. */
async function refundApproved(order: Order, productId: string): Promise<string> {
  const asked = await buyer.post(`/api/orders/${order.id}/items/${itemOf(order, productId)}/refund`, {
    reason: "The license does not activate on our servers.",
  });
  expect(asked.statusCode).toBe(201);
  const id = asked.json().refund.id as string;
  const approved = await seller.post(`/api/refunds/${id}/decision`, { decision: "approve" });
  expect(approved.statusCode).toBe(200);
  return id;
}

const payoutOf = async (refundId: string) =>
  (await t.db.select().from(refundPayouts).where(eq(refundPayouts.refundId, refundId)))[0];
const sentMails = async (product: string) =>
  (await readOutbox(t.dataDir)).filter(
    (m) => m.to === "buyer@stackbay.test" && m.subject === `Your refund for ${product} has been sent`,
  );
const productName = (order: Order, productId: string) =>
  order.items.find((i) => i.productId === productId)?.productName ?? "";
const sessionOf = async (orderId: string) =>
  (await t.db.select().from(testPaymentSessions).where(eq(testPaymentSessions.orderId, orderId)))[0];
const adminRow = async (refundId: string) =>
  ((await admin.get("/api/admin/refunds?status=approved")).json().items as RefundListItem[]).find(
    (r) => r.id === refundId,
  );

function refundEvent(
  type: TestRefundEvent["type"],
  data: Partial<TestRefundEvent["data"]> & { refundId: string },
  id = `evt_test_${randomUUID()}`,
): TestRefundEvent {
  return { id, type, data: { refundRef: `tre_${data.refundId}`, reason: null, ...data } };
}

describe("refund payouts through the provider", () => {
  test("approval → job → provider refund → succeeded; the buyer is e-mailed once, whatever events follow", async () => {
    const order = await buy(software);
    const refundId = await refundApproved(order, software);
    const name = productName(order, software);

    // The job asked the test provider to refund the whole charge, keyed by the refund id.
    const session = await sessionOf(order.id);
    expect(session?.refunds).toEqual([
      { refundId, amountCents: chargeCents(String(order.totalAmount)), state: "succeeded", reason: null },
    ]);
    const payout = await payoutOf(refundId);
    expect(payout).toMatchObject({
      state: "succeeded",
      provider: "test",
      destination: "card",
      amountCents: chargeCents(String(order.totalAmount)),
      providerRefundRef: `tre_${refundId}`,
      attempts: 1,
      failureReason: null,
    });
    expect(payout?.completedAt).toBeInstanceOf(Date);
    expect(await sentMails(name)).toHaveLength(1);
    expect((await sentMails(name))[0]?.body).toContain(
      `Refund of $${(chargeCents(String(order.totalAmount)) / 100).toFixed(2)} sent to your card on`,
    );

    // The provider's own event says the same; a repeated delivery and a late "pending" change nothing.
    const succeeded = refundEvent("refund.succeeded", { refundId });
    expect(await deliverTestEvent(t.app, succeeded)).toBe(200);
    expect(await deliverTestEvent(t.app, succeeded)).toBe(200);
    expect(await deliverTestEvent(t.app, refundEvent("refund.pending", { refundId }))).toBe(200);
    expect(
      await deliverTestEvent(t.app, refundEvent("refund.failed", { refundId, reason: "late and wrong" })),
    ).toBe(200);
    expect(await payoutOf(refundId)).toMatchObject({ state: "succeeded", failureReason: null });
    expect(await sentMails(name)).toHaveLength(1);
    const [stored] = await t.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, succeeded.id));
    expect(stored).toMatchObject({ kind: "refund", orderId: order.id });

    // The buyer's order says the money went back.
    const item = (await getOrder(buyer, order.id)).items[0];
    expect(item?.refund?.payout).toMatchObject({
      state: "succeeded",
      destination: "card",
      amountCents: chargeCents(String(order.totalAmount)),
    });
    // Someone else's order is as absent as none.
    expect((await otherBuyer.get(`/api/orders/${order.id}`)).statusCode).toBe(404);
    expect((await otherBuyer.get("/api/orders")).json().orders ?? []).toEqual([]);
  });

  test("a refund the provider refuses is failed with its reason; an admin's retry pays it, audited", async () => {
    const test = t.app.payments.test;
    if (!test) throw new Error("no test provider");
    const order = await buy(hardware);
    test.controls.failNextRefund = "Insufficient funds in the merchant balance (test mode).";
    const refundId = await refundApproved(order, hardware);
    const name = productName(order, hardware);

    expect(await payoutOf(refundId)).toMatchObject({
      state: "failed",
      failureReason: "Insufficient funds in the merchant balance (test mode).",
      attempts: 1,
      round: 1,
    });
    expect(await sentMails(name)).toHaveLength(0);
    expect((await adminRow(refundId))?.payout).toMatchObject({
      state: "failed",
      failureReason: "Insufficient funds in the merchant balance (test mode).",
    });
    // The buyer reads only that it is being processed: no provider reason.
    const pending = (await getOrder(buyer, order.id)).items[0]?.refund?.payout;
    expect(pending).toEqual({
      state: "failed",
      amountCents: expect.any(Number),
      destination: "card",
      completedAt: null,
    });

    // Only admins retry; buyers and sellers get 403, an unknown refund 404.
    expect((await buyer.post(`/api/admin/refunds/${refundId}/payout/retry`)).statusCode).toBe(403);
    expect((await seller.post(`/api/admin/refunds/${refundId}/payout/retry`)).statusCode).toBe(403);
    expect((await admin.post(`/api/admin/refunds/${randomUUID()}/payout/retry`)).statusCode).toBe(404);

    const retried = await admin.post(`/api/admin/refunds/${refundId}/payout/retry`);
    expect(retried.statusCode).toBe(200);
    expect(await payoutOf(refundId)).toMatchObject({
      state: "succeeded",
      failureReason: null,
      attempts: 2,
      round: 2,
      providerRefundRef: `tre_${refundId}-r2`,
    });
    expect((await sessionOf(order.id))?.refunds.map((r) => [r.refundId, r.state])).toEqual([
      [refundId, "failed"],
      [`${refundId}-r2`, "succeeded"],
    ]);
    expect(await sentMails(name)).toHaveLength(1);
    // The refused round's late event does not touch the round that paid.
    await deliverTestEvent(t.app, refundEvent("refund.failed", { refundId, reason: "round one" }));
    expect((await payoutOf(refundId))?.state).toBe("succeeded");

    const again = await admin.post(`/api/admin/refunds/${refundId}/payout/retry`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe("PAYOUT_NOT_RETRYABLE");
    const trail = await t.db.select().from(auditLog).where(eq(auditLog.entityId, refundId));
    expect(trail.filter((e) => e.actorEmail === "admin@stackbay.test")).toHaveLength(1);
  });

  test("a provider that cannot be reached is asked again later, never recorded as a refusal", async () => {
    const test = t.app.payments.test;
    if (!test) throw new Error("no test provider");
    const order = await buy(hardware);
    const refund = test.refund;
    test.refund = async () => {
      throw new Error("connect ECONNREFUSED");
    };
    let refundId: string;
    try {
      refundId = await refundApproved(order, hardware);
    } finally {
      test.refund = refund;
    }
    // The job failed and waits for its back-off; the payout is still pending.
    expect(await payoutOf(refundId)).toMatchObject({ state: "pending", attempts: 1, failureReason: null });
    await runPayout(refundPayoutDepsOf(t.app), refundId);
    expect(await payoutOf(refundId)).toMatchObject({ state: "succeeded", attempts: 2 });
    // A job run again after success asks the provider nothing more.
    await runPayout(refundPayoutDepsOf(t.app), refundId);
    expect((await payoutOf(refundId))?.attempts).toBe(2);
    expect((await sessionOf(order.id))?.refunds).toHaveLength(1);
  });

  test("refunding every item of an order pays back exactly the charge, tax included", async () => {
    const order = await buy(software, hardware);
    const first = await refundApproved(order, software);
    const second = await refundApproved(order, hardware);
    const firstCents = (await payoutOf(first))?.amountCents ?? 0;
    const secondCents = (await payoutOf(second))?.amountCents ?? 0;
    expect(firstCents).toBeGreaterThan(0);
    expect(firstCents + secondCents).toBe(chargeCents(String(order.totalAmount)));
    expect((await getOrder(buyer, order.id)).paymentStatus).toBe("refunded");
  });
});

describe("an approval the process did not get to pay out", () => {
  test("the job is committed with the approval and pays the refund when it runs after a restart", async () => {
    const stopped = await createTestApp({ seed: true, workers: false });
    try {
      const b = await signedInClient(stopped.app, "buyer@stackbay.test", DEMO_PASSWORD);
      const s = await signedInClient(stopped.app, "seller@stackbay.test", DEMO_PASSWORD);
      const order = await placeAndPay(stopped.app, b, {
        country: "Portugal",
        items: [{ productId: hardware, price: prices[hardware] ?? 0 }],
      });
      const asked = await b.post(`/api/orders/${order.id}/items/${order.items[0]?.id}/refund`, {
        reason: "It arrived broken, the box was crushed.",
      });
      const refundId = asked.json().refund.id as string;
      expect((await s.post(`/api/refunds/${refundId}/decision`, { decision: "approve" })).statusCode).toBe(
        200,
      );

      // Approved and pending, with its job waiting in the queue: nothing was paid yet.
      const [payout] = await stopped.db
        .select()
        .from(refundPayouts)
        .where(eq(refundPayouts.refundId, refundId));
      expect(payout).toMatchObject({ state: "pending", attempts: 0 });
      const jobs = await queryRows<{ data: { refundId: string } }>(
        stopped.db,
        sql`select data from pgboss.job where name = ${REFUND_PAYOUT_JOB} and state = 'created'`,
      );
      expect(jobs.map((j) => j.data)).toEqual([{ refundId }]);

      // The queued job runs (as a restarted worker would run it) and pays the refund.
      await runPayout(refundPayoutDepsOf(stopped.app), jobs[0]?.data.refundId ?? "");
      const [paid] = await stopped.db
        .select()
        .from(refundPayouts)
        .where(eq(refundPayouts.refundId, refundId));
      expect(paid).toMatchObject({ state: "succeeded", attempts: 1 });
    } finally {
      await stopped.close();
    }
  });
});

describe("refunds no provider can pay back", () => {
  test("an order confirmed by hand is paid back by the operator's transfer, recorded by an admin", async () => {
    const orderId = await place(hardware);
    const confirmed = await admin.patch(`/api/admin/orders/${orderId}`, { paymentStatus: "mock_confirmed" });
    expect(confirmed.statusCode).toBe(200);
    const order = await getOrder(buyer, orderId);
    const refundId = await refundApproved(order, hardware);
    const name = productName(order, hardware);

    const payout = await payoutOf(refundId);
    expect(payout).toMatchObject({
      state: "awaiting_transfer",
      provider: null,
      destination: "bank",
      amountCents: chargeCents(String(order.totalAmount)),
      attempts: 0,
    });
    const jobs = await queryRows<{ data: { refundId: string } }>(
      t.db,
      sql`select data from pgboss.job where name = ${REFUND_PAYOUT_JOB} and data->>'refundId' = ${refundId}`,
    );
    expect(jobs).toEqual([]);
    const row = await adminRow(refundId);
    expect(row).toMatchObject({ buyerName: "Bianca Buyer", payout: { state: "awaiting_transfer" } });
    const toTransfer = (await admin.get("/api/admin/refunds?payout=awaiting_transfer")).json();
    expect(toTransfer.items.map((r: RefundListItem) => r.id)).toEqual([refundId]);
    expect((await admin.get("/api/admin/refunds?payout=later")).statusCode).toBe(400);
    expect((await admin.post(`/api/admin/refunds/${refundId}/payout/retry`)).json().code).toBe(
      "PAYOUT_NOT_RETRYABLE",
    );

    const url = `/api/admin/refunds/${refundId}/payout/transferred`;
    const body = { reference: "BANK-REF-20261123", transferredOn: "2026-11-20" };
    expect((await buyer.post(url, body)).statusCode).toBe(403);
    const invalid = await admin.post(url, { reference: "x", transferredOn: "yesterday" });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().details.map((d: { message: string }) => d.message)).toEqual([
      "Enter the bank's reference of the transfer",
      "Enter the date of the transfer",
    ]);

    const mailedBefore = (await sentMails(name)).length;
    const marked = await admin.post(url, body);
    expect(marked.statusCode).toBe(200);
    expect(marked.json().payout).toMatchObject({
      state: "succeeded",
      transferReference: "BANK-REF-20261123",
      transferredOn: "2026-11-20",
    });
    expect((await admin.post(url, body)).json().code).toBe("PAYOUT_NOT_AWAITING_TRANSFER");
    // The seller sees that the money went back, not the bank's reference.
    const sellers = (await seller.get("/api/seller/refunds")).json().items as RefundListItem[];
    expect(sellers.find((r) => r.id === refundId)?.payout).toMatchObject({
      state: "succeeded",
      transferReference: null,
    });
    const mails = (await sentMails(name)).slice(mailedBefore);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.body).toContain("sent to your bank account on Nov 20, 2026");
    expect((await getOrder(buyer, orderId)).items[0]?.refund?.payout).toEqual({
      state: "succeeded",
      amountCents: chargeCents(String(order.totalAmount)),
      destination: "bank",
      completedAt: "2026-11-20",
    });
    const trail = await t.db.select().from(auditLog).where(eq(auditLog.entityId, refundId));
    expect(trail.find((e) => e.actorEmail === "admin@stackbay.test")?.changes).toMatchObject({
      payout: { before: "awaiting_transfer", after: "succeeded" },
    });
  });
});
