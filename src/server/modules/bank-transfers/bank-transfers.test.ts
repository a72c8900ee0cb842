import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parseTransferReference, transferReference } from "#domain/bank-transfer";
import type { PaymentMethod } from "#domain/checkout";
import { licenses } from "#server/db/schema/after-sale";
import { auditLog } from "#server/db/schema/audit";
import { products } from "#server/db/schema/catalog";
import { orders } from "#server/db/schema/orders";
import { bankTransferOrders, bankTransfers } from "#server/db/schema/payments";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { openBankTransfer } from "#server/modules/bank-transfers/service";
import { paymentDepsOf, reconcilePayments } from "#server/modules/payments/service";
import { createTestApp } from "#server/test/app";
import { createClient, signedInClient } from "#server/test/client";
import { orderBody, placeOrder } from "#server/test/orders";
import { readOutbox } from "#server/test/outbox";
import { getOrder } from "#server/test/payments";

let t: Awaited<ReturnType<typeof createTestApp>>;
let buyer: ReturnType<typeof createClient>;
let other: ReturnType<typeof createClient>;
let admin: ReturnType<typeof createClient>;
let productId = "";

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
  other = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
  admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
  const [made] = await t.db
    .insert(products)
    .values({ name: "Transfer Seat", category: "software", price: "10.00", vendor: "Acme" })
    .returning({ id: products.id });
  productId = made?.id ?? "";
});
afterAll(() => t.close());

/** Two seats at $10.00 plus 5% tax: $21.00 due. */
const checkout = (idempotencyKey: string, paymentMethod: PaymentMethod = "bank-transfer") => ({
  paymentMethod,
  items: [{ productId, quantity: 2, price: 10 }],
  idempotencyKey,
});
const place = (key: string = randomUUID()) => placeOrder(buyer, checkout(key));

const today = () => new Date().toISOString().slice(0, 10);
const record = (orderId: string, body: Record<string, unknown>, client = admin) =>
  client.post(`/api/admin/orders/${orderId}/bank-transfers`, body);
const instructions = async (orderId: string) => {
  const res = await buyer.get(`/api/orders/${orderId}/bank-transfer`);
  expect(res.statusCode).toBe(200);
  return res.json();
};
const licensesOf = (orderId: string) => t.db.select().from(licenses).where(eq(licenses.orderId, orderId));
const mailsAbout = async (subject: string) =>
  (await readOutbox(t.dataDir)).filter((m) => m.subject.includes(subject));
const confirmations = async (orderId: string) =>
  (await mailsAbout(`Your Stackbay order ${orderId.slice(0, 8)} is confirmed`)).length;

describe("placing a bank-transfer order", () => {
  test("is processing with a unique reference, whole-cent amount and due date; instructions e-mailed once", async () => {
    const key = randomUUID();
    const before = Date.now();
    const placed = await place(key);
    expect(placed.redirectUrl).toMatch(new RegExp(`/checkout/complete\\?order=${placed.orderId}$`));
    expect(await getOrder(buyer, placed.orderId)).toMatchObject({
      paymentStatus: "processing",
      isPaid: false,
      paymentMethod: "bank-transfer",
    });
    const answer = await instructions(placed.orderId);
    expect(answer).toMatchObject({
      orderId: placed.orderId,
      amountDue: "21.0000",
      expired: false,
      paymentStatus: "processing",
      details: { demo: true },
      standing: { status: "awaiting", explanation: "No transfer received yet; $21.00 to pay." },
    });
    expect(answer.reference).toBe(transferReference(placed.orderId));
    expect(parseTransferReference(answer.reference)).toBe(answer.reference);
    const due = new Date(answer.dueAt).getTime();
    expect(due).toBeGreaterThanOrEqual(before + 7 * 86_400_000 - 1000);
    expect(due).toBeLessThanOrEqual(Date.now() + 7 * 86_400_000);

    const mails = await mailsAbout(answer.reference);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.to).toBe("buyer@stackbay.test");
    expect(mails[0]?.body).toContain("transfer $21.00 (USD)");
    expect(mails[0]?.body).toContain("Test mode: these are demo bank details");

    // A repeated submit answers the same order and queues nothing more.
    const again = await buyer.post("/api/orders", orderBody(checkout(key)));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(placed);
    expect(await mailsAbout(answer.reference)).toHaveLength(1);
  });

  test("checkout offers it; without bank details it runs in test mode", async () => {
    const config = (await buyer.get("/api/payments/config")).json();
    expect(config.testMode).toBe(true);
    expect(config.methods).toContainEqual({ method: "bank-transfer", provider: "test" });
  });

  test("a reference another order holds makes the next attempt's reference", async () => {
    const first = await place();
    const deps = paymentDepsOf(t.app);
    const id = randomUUID();
    // The first order now holds the reference the new one would get first.
    await t.db
      .update(bankTransferOrders)
      .set({ reference: transferReference(id, 0) })
      .where(eq(bankTransferOrders.orderId, first.orderId));
    const [buyerRow] = await t.db
      .select({ userId: orders.userId })
      .from(orders)
      .where(eq(orders.id, first.orderId));
    await t.db.transaction(async (tx) => {
      const customerInfo = { fullName: "B", email: "b@stackbay.test", address: "x", city: "y", country: "z" };
      await tx.insert(orders).values({
        id,
        userId: buyerRow?.userId ?? "",
        subtotal: "1",
        tax: "0",
        totalAmount: "1",
        paymentMethod: "bank-transfer",
        paymentStatus: "processing",
        customerInfo,
      });
      await openBankTransfer(
        deps,
        tx,
        { id, userId: buyerRow?.userId ?? "", totalAmount: "1", customerInfo },
        new Date(),
      );
    });
    const [row] = await t.db.select().from(bankTransferOrders).where(eq(bankTransferOrders.orderId, id));
    expect(row?.reference).toBe(transferReference(id, 1));
  });
});

describe("who may see and record", () => {
  test("only the buyer sees the instructions; only admins record and look up", async () => {
    const placed = await place();
    const id = placed.orderId;
    expect((await other.get(`/api/orders/${id}/bank-transfer`)).statusCode).toBe(404);
    expect((await createClient(t.app).get(`/api/orders/${id}/bank-transfer`)).statusCode).toBe(401);
    const body = { amount: "21.00", receivedOn: today(), bankReference: "FT-1" };
    expect((await record(id, body, buyer)).statusCode).toBe(403);
    expect((await record(id, body, createClient(t.app))).statusCode).toBe(401);
    expect((await buyer.get(`/api/admin/orders/${id}/bank-transfer`)).statusCode).toBe(403);
    expect((await buyer.get(`/api/admin/bank-transfers/lookup?reference=SB-00000000`)).statusCode).toBe(403);
    expect(await getOrder(buyer, id)).toMatchObject({ paymentStatus: "processing" });
  });

  test("an order paid another way has no transfer instructions", async () => {
    const { orderId } = await placeOrder(buyer, checkout(randomUUID(), "stripe"));
    expect((await buyer.get(`/api/orders/${orderId}/bank-transfer`)).statusCode).toBe(404);
    const recorded = await record(orderId, { amount: "1.00", receivedOn: today(), bankReference: "X" });
    expect(recorded.statusCode).toBe(404);
  });

  test("an admin finds an order by its reference as a bank statement spells it", async () => {
    const placed = await place();
    const { reference } = await instructions(placed.orderId);
    const messy = reference.toLowerCase().replace("-", " ").replaceAll("0", "o");
    const found = await admin.get(`/api/admin/bank-transfers/lookup?reference=${encodeURIComponent(messy)}`);
    expect(found.statusCode).toBe(200);
    expect(found.json()).toEqual({ orderId: placed.orderId });
    const typo = `${reference.slice(0, -1)}${reference.endsWith("0") ? "1" : "0"}`;
    const bad = await admin.get(`/api/admin/bank-transfers/lookup?reference=${typo}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain("This is not a Stackbay transfer reference");
    const unknown = transferReference(randomUUID(), 3);
    expect((await admin.get(`/api/admin/bank-transfers/lookup?reference=${unknown}`)).json()).toMatchObject({
      code: "TRANSFER_REFERENCE_NOT_FOUND",
    });
  });
});

describe("recording transfers", () => {
  test("bad input is refused with the form's messages and records nothing", async () => {
    const { orderId } = await place();
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const cases: [Record<string, unknown>, string][] = [
      [
        { amount: "-5", receivedOn: today(), bankReference: "A" },
        "Enter the amount as a number, like 120.50",
      ],
      [{ amount: "0", receivedOn: today(), bankReference: "A" }, "The amount must be more than $0.00"],
      [{ amount: 0, receivedOn: today(), bankReference: "A" }, "The amount must be more than $0.00"],
      [
        { amount: "5", receivedOn: tomorrow, bankReference: "A" },
        "The day the transfer arrived cannot be in the future",
      ],
      [
        { amount: "5", receivedOn: today(), bankReference: "A".repeat(65) },
        "The bank reference must be at most 64 characters",
      ],
      [{ amount: "5", receivedOn: today() }, "Enter the bank's reference for this transfer"],
    ];
    for (const [body, message] of cases) {
      const res = await record(orderId, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: "VALIDATION_ERROR" });
      expect(res.json().message).toContain(message);
    }
    expect(await t.db.select().from(bankTransfers).where(eq(bankTransfers.orderId, orderId))).toHaveLength(0);
  });

  test("a partial transfer keeps it processing; the rest confirms and delivers it once", async () => {
    const { orderId } = await place();
    const first = await record(orderId, { amount: "12.00", receivedOn: today(), bankReference: "FT26001" });
    expect(first.statusCode).toBe(201);
    const partial = "$12.00 of $21.00 received; $9.00 still to pay.";
    expect(first.json()).toMatchObject({
      recorded: true,
      delivered: false,
      transfer: { paymentStatus: "processing", standing: { status: "partial", explanation: partial } },
    });
    expect((await instructions(orderId)).standing.explanation).toBe(partial);
    expect(await licensesOf(orderId)).toHaveLength(0);

    const rest = await record(orderId, { amount: "9", receivedOn: today(), bankReference: "FT26002" });
    expect(rest.statusCode).toBe(201);
    expect(rest.json()).toMatchObject({
      recorded: true,
      delivered: true,
      transfer: {
        paymentStatus: "mock_confirmed",
        standing: { status: "paid", explanation: "Paid in full." },
      },
    });
    expect(rest.json().transfer.transfers).toHaveLength(2);
    expect(rest.json().transfer.transfers[0]).toMatchObject({
      amount: "12.0000",
      bankReference: "FT26001",
      recordedBy: "admin@stackbay.test",
    });
    expect(await getOrder(buyer, orderId)).toMatchObject({ paymentStatus: "mock_confirmed", isPaid: true });
    expect(await licensesOf(orderId)).toHaveLength(2);
    expect(await confirmations(orderId)).toBe(1);

    // The same transfer submitted again is the same transfer.
    const repeat = await record(orderId, { amount: "9.00", receivedOn: today(), bankReference: "FT26002" });
    expect(repeat.statusCode).toBe(200);
    expect(repeat.json()).toMatchObject({ recorded: false, delivered: false });
    // Another transfer for a paid order is returned, not recorded.
    const more = await record(orderId, { amount: "1.00", receivedOn: today(), bankReference: "FT26003" });
    expect(more.statusCode).toBe(409);
    expect(more.json().code).toBe("ORDER_NOT_AWAITING_TRANSFER");
    expect(await licensesOf(orderId)).toHaveLength(2);
    expect(await confirmations(orderId)).toBe(1);
    expect(await t.db.select().from(bankTransfers).where(eq(bankTransfers.orderId, orderId))).toHaveLength(2);

    const audits = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, "bank_transfer"), eq(auditLog.actorEmail, "admin@stackbay.test")));
    expect(audits.filter((a) => JSON.stringify(a.changes).includes(orderId))).toHaveLength(2);
  });

  test("the same bank reference with another amount is refused, not added", async () => {
    const { orderId } = await place();
    await record(orderId, { amount: "5.00", receivedOn: today(), bankReference: "DUP-1" });
    const clash = await record(orderId, { amount: "6.00", receivedOn: today(), bankReference: "DUP-1" });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().code).toBe("TRANSFER_ALREADY_RECORDED");
    expect((await instructions(orderId)).standing.receivedTotal).toBe("5.0000");
  });

  test("an over-payment confirms the order and says what goes back", async () => {
    const { orderId } = await place();
    const res = await record(orderId, { amount: "24.00", receivedOn: today(), bankReference: "OVER-1" });
    const excess = "Paid in full; $3.00 more than due will be returned to the sender.";
    expect(res.json()).toMatchObject({
      delivered: true,
      transfer: { standing: { status: "overpaid", explanation: excess } },
    });
    expect(await instructions(orderId)).toMatchObject({
      paymentStatus: "mock_confirmed",
      standing: { explanation: excess, excess: "3.0000" },
    });
    expect(await licensesOf(orderId)).toHaveLength(2);
    expect(await confirmations(orderId)).toBe(1);
  });
});

describe("expiry", () => {
  test("an unpaid transfer expires after its due date; placing it again awaits funds anew", async () => {
    const key = randomUUID();
    const { orderId } = await place(key);
    const { reference } = await instructions(orderId);
    await record(orderId, { amount: "1.00", receivedOn: today(), bankReference: "PART" });
    const deps = paymentDepsOf(t.app);
    await reconcilePayments(deps, new Date(Date.now() + 6 * 86_400_000));
    expect((await getOrder(buyer, orderId)).paymentStatus).toBe("processing");
    const result = await reconcilePayments(deps, new Date(Date.now() + 7 * 86_400_000 + 60_000));
    expect(result.transfersExpired).toBeGreaterThanOrEqual(1);
    expect(await getOrder(buyer, orderId)).toMatchObject({ paymentStatus: "failed", isPaid: false });
    expect(await instructions(orderId)).toMatchObject({ expired: true, paymentStatus: "failed" });

    const retry = await buyer.post(`/api/orders/${orderId}/payment`);
    expect(retry.statusCode).toBe(200);
    expect(retry.json().redirectUrl).toMatch(new RegExp(`/checkout/complete\\?order=${orderId}$`));
    const reopened = await instructions(orderId);
    expect(reopened).toMatchObject({
      reference,
      expired: false,
      paymentStatus: "processing",
      standing: { receivedTotal: "1.0000" },
    });
    expect(new Date(reopened.dueAt).getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    expect(await mailsAbout(reference)).toHaveLength(2);
  });

  test("a transfer recorded after expiry still confirms the order: the money arrived", async () => {
    const { orderId } = await place();
    await reconcilePayments(paymentDepsOf(t.app), new Date(Date.now() + 8 * 86_400_000));
    expect((await getOrder(buyer, orderId)).paymentStatus).toBe("failed");
    const late = await record(orderId, { amount: "21.00", receivedOn: today(), bankReference: "LATE-1" });
    expect(late.statusCode).toBe(201);
    expect(late.json()).toMatchObject({ delivered: true, transfer: { paymentStatus: "mock_confirmed" } });
    expect(await licensesOf(orderId)).toHaveLength(2);
    expect(await confirmations(orderId)).toBe(1);
  });

  test("a transfer for a cancelled order (an ended subscription's renewal) is refused and records nothing", async () => {
    const { orderId } = await place();
    // As the renewal job cancels the unpaid renewal of a subscription that ended.
    await t.db
      .update(orders)
      .set({ paymentStatus: "failed", cancelledAt: new Date() })
      .where(eq(orders.id, orderId));
    const recorded = await record(orderId, { amount: "21.00", receivedOn: today(), bankReference: "LATE-1" });
    expect(recorded.statusCode).toBe(409);
    expect(recorded.json()).toMatchObject({ code: "ORDER_NOT_AWAITING_TRANSFER" });
    expect(recorded.json().message).toContain("cancelled");
    expect(await t.db.select().from(bankTransfers).where(eq(bankTransfers.orderId, orderId))).toEqual([]);
    expect((await t.db.select().from(orders).where(eq(orders.id, orderId)))[0]?.paymentStatus).toBe("failed");
    expect(await licensesOf(orderId)).toEqual([]);
  });
});
