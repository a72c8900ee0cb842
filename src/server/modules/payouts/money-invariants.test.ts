import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, expect, test } from "vitest";
import { DAY_MS } from "#domain/dates";
import type { PayoutBatchDetail, PayoutPreview } from "#domain/finance";
import { maskAccount } from "#domain/payouts";
import { openRefundStatuses, type RefundStatus } from "#domain/refunds";
import { refundRequests } from "#server/db/schema/after-sale";
import { payouts } from "#server/db/schema/ledger";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp, queryRows } from "#server/test/app";
import { createVerifiedAccount, signedInClient } from "#server/test/client";
import { placeAndPay } from "#server/test/orders";
import { eventsDelivered } from "#server/test/payments";
import { sellerWithProduct } from "#server/test/sellers";

/**
 * The money invariants under a random mix of what buyers, sellers and admins do (issue 29): purchases,
 * refund requests (approved, rejected, escalated, unanswered, made after the net was released),
 * payout batches and their outcomes, payout-account changes and buyer deletions, with the test server's
 * clock moving forward. After every step: the ledger balances, no seller is paid for an item whose
 * refund is open, and every payout pays the account its batch approved. MONEY_SEED replays a run,
 * MONEY_STEPS makes it longer.
 */
// A seed whose run takes every path at least once (the test checks it does): chosen again when sales began
// to start their refund window by the moved clock, which made a request after the release rarer.
const DEFAULT_SEED = 20_261_207;
const SEED = Number(process.env.MONEY_SEED ?? DEFAULT_SEED);
const STEPS = Number(process.env.MONEY_STEPS ?? 32);
const COOLING_OFF_MS = 72 * 3_600_000;

const accounts = [
  { iban: "DE89 3704 0044 0532 0130 00", swift: "DEUTDEFF", country: "DE" },
  { iban: "GB82 WEST 1234 5698 7654 32", swift: "NWBKGB2L", country: "GB" },
  { iban: "FR14 2004 1010 0505 0001 3M02 606", swift: "BNPAFRPP", country: "FR" },
  { iban: "NL91 ABNA 0417 1643 00", swift: "ABNANL2A", country: "NL" },
] as const;
const compact = (iban: string) => iban.replaceAll(" ", "");

type Client = Awaited<ReturnType<typeof signedInClient>>;
type Seller = { id: string; client: Client; product: { id: string; price: number }; account: number | null };
type Buyer = { email: string; password: string; client: Client; deleted: boolean };
type Item = {
  orderId: string;
  itemId: string;
  buyer: number;
  seller: number;
  refundId?: string;
  status?: RefundStatus;
};
/** A payout still on its way, and the account (index into `accounts`) its batch approved. */
type Approved = { payoutId: string; batchId: string; account: number };

type Kind =
  | "buy"
  | "request"
  | "sellerDecides"
  | "unanswered"
  | "escalate"
  | "adminDecides"
  | "clock"
  | "payout"
  | "settle"
  | "changeAccount"
  | "deleteBuyer";
/** A step: `choice` picks among what can be done now (by weight), `a` and `b` pick whom and how. */
type Step = { choice: number; a: number; b: number };
const stepArb: fc.Arbitrary<Step> = fc.record({
  choice: fc.nat({ max: 10_000 }),
  a: fc.nat({ max: 1_000 }),
  b: fc.nat({ max: 1_000 }),
});

let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Client;
let superAdmin: Client;
const sellers: Seller[] = [];
const buyers: Buyer[] = [];
const items: Item[] = [];
const inTransit: Approved[] = [];
/** Items whose net was already released when their refund was asked for (a late request). */
const releasedAtRequest = new Set<string>();
/** When each seller's payout details last changed, on the server's (movable) clock. */
const changedAt = new Map<string, number>();
let clockOffset = 0;
const clockNow = () => Date.now() + clockOffset;

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
  superAdmin = await signedInClient(t.app, "superadmin@stackbay.test", DEMO_PASSWORD);
  for (const [i, category] of ["software", "saas"].entries()) {
    const mine = await sellerWithProduct(t, `seller${i}@invariants.test`, category);
    sellers.push({ id: mine.id, client: mine.client, product: mine.product, account: null });
  }
  for (const i of [0, 1, 2]) {
    const email = `buyer${i}@invariants.test`;
    const { password } = await createVerifiedAccount(t.app, t.dataDir, { email });
    buyers.push({ email, password, client: await signedInClient(t.app, email, password), deleted: false });
  }
});
afterAll(() => t.close());

const pick = <T>(list: T[], n: number): T | undefined => (list.length ? list[n % list.length] : undefined);

async function setAccount(seller: Seller, account: number) {
  const { iban, swift, country } = accounts[account] ?? accounts[0];
  const res = await seller.client.request("PUT", "/api/payouts/account/bank", {
    holderName: "Invariant Seller",
    country,
    iban,
    swift,
  });
  expect(res.statusCode).toBe(200);
  seller.account = account;
  changedAt.set(seller.id, clockNow());
}

/** What can be done now, each with how often it is chosen. */
function possible(): [Kind, number][] {
  const alive = buyers.filter((b) => !b.deleted);
  const withStatus = (status: RefundStatus) => items.some((i) => i.status === status);
  const weights: [Kind, number, boolean][] = [
    ["buy", 4, true],
    ["request", 3, items.some((i) => !i.refundId && !buyers[i.buyer]?.deleted)],
    ["sellerDecides", 3, withStatus("requested")],
    ["unanswered", 1, withStatus("requested")],
    ["escalate", 2, withStatus("seller_rejected")],
    ["adminDecides", 3, withStatus("escalated")],
    ["clock", 3, true],
    ["payout", 2, true],
    ["settle", 2, inTransit.length > 0],
    ["changeAccount", 1, true],
    // Two buyers always stay, so purchases and refunds go on.
    ["deleteBuyer", 1, alive.length > 2],
  ];
  return weights.filter(([, , can]) => can).map(([kind, weight]) => [kind, weight]);
}

function kindOf(step: Step): Kind {
  if (step.choice < 0) return "clock";
  const choices = possible();
  let n = step.choice % choices.reduce((sum, [, weight]) => sum + weight, 0);
  for (const [kind, weight] of choices) {
    if (n < weight) return kind;
    n -= weight;
  }
  return "buy";
}

async function run(step: Step): Promise<string> {
  const kind = kindOf(step);
  switch (kind) {
    case "buy": {
      const buyer = pick(
        buyers.filter((b) => !b.deleted),
        step.a,
      );
      const seller = pick(sellers, step.b);
      if (!buyer || !seller) return "buy: nobody left to buy";
      const order = await placeAndPay(t.app, buyer.client, {
        email: buyer.email,
        items: [{ productId: seller.product.id, quantity: 1 + (step.a % 2), price: seller.product.price }],
      });
      for (const item of order.items) {
        items.push({
          orderId: order.id,
          itemId: item.id,
          buyer: buyers.indexOf(buyer),
          seller: sellers.indexOf(seller),
        });
      }
      return `buy: ${order.id.slice(0, 8)}`;
    }
    case "request": {
      const item = pick(
        items.filter((i) => !i.refundId && !buyers[i.buyer]?.deleted),
        step.a,
      );
      const buyer = item && buyers[item.buyer];
      if (!item || !buyer) return "request: nothing to refund";
      const wasReleased = (await releaseOf(item.itemId)) !== undefined;
      const res = await buyer.client.post(`/api/orders/${item.orderId}/items/${item.itemId}/refund`, {
        reason: "It does not do what the listing said.",
      });
      expect(res.statusCode).toBe(201);
      item.refundId = res.json().refund.id;
      item.status = "requested";
      if (wasReleased) releasedAtRequest.add(item.itemId);
      return `request: ${item.itemId.slice(0, 8)}${wasReleased ? " (late)" : ""}`;
    }
    case "sellerDecides":
    case "unanswered":
    case "escalate":
    case "adminDecides": {
      const wanted: Record<string, RefundStatus> = {
        sellerDecides: "requested",
        unanswered: "requested",
        escalate: "seller_rejected",
        adminDecides: "escalated",
      };
      const item = pick(
        items.filter((i) => i.status === wanted[kind]),
        step.a,
      );
      const buyer = item && buyers[item.buyer];
      if (!item?.refundId || !buyer) return `${kind}: nothing to decide`;
      let who: Client = kind === "adminDecides" ? admin : buyer.client;
      let decision = step.b % 2 === 0 ? "approve" : "reject";
      if (kind === "sellerDecides") {
        const seller = sellers[item.seller];
        if (!seller) return "sellerDecides: no seller";
        who = seller.client;
      } else if (kind !== "adminDecides") {
        // The seller let the deadline pass (unanswered), or declined: the buyer escalates.
        decision = "escalate";
        if (kind === "unanswered") {
          await t.db
            .update(refundRequests)
            .set({ sellerDueAt: new Date(Date.now() - 60_000) })
            .where(eq(refundRequests.id, item.refundId));
        }
      }
      const res = await who.post(`/api/refunds/${item.refundId}/decision`, { decision });
      expect(res.statusCode).toBe(200);
      item.status = res.json().refund.status;
      await eventsDelivered(t.app);
      return `${kind}: ${item.itemId.slice(0, 8)} ${item.status}`;
    }
    case "clock": {
      const days = step.choice < 0 ? 15 : 3 + (step.a % 8);
      const res = await superAdmin.post("/api/test/clock", { advanceDays: days });
      expect(res.statusCode).toBe(200);
      clockOffset += days * DAY_MS;
      return `clock: +${days} days, ${res.json().released} released`;
    }
    case "payout":
      return payoutBatch();
    case "settle": {
      const payout = pick(inTransit, step.a);
      if (!payout) return "settle: nothing in transit";
      const res =
        step.b % 3 === 0
          ? await superAdmin.post(`/api/admin/payouts/${payout.payoutId}/failed`, {
              reason: "Account closed",
            })
          : await superAdmin.post(`/api/admin/payouts/${payout.payoutId}/paid`, {
              reference: `REF-${step.b}`,
            });
      expect(res.statusCode).toBe(200);
      inTransit.splice(inTransit.indexOf(payout), 1);
      return `settle: ${payout.payoutId.slice(0, 8)} ${res.json().status}`;
    }
    case "changeAccount": {
      const seller = pick(sellers, step.a);
      if (!seller) return "changeAccount: no seller";
      await setAccount(seller, step.b % accounts.length);
      return `changeAccount: seller ${sellers.indexOf(seller)} to ${step.b % accounts.length}`;
    }
    case "deleteBuyer": {
      const buyer = pick(
        buyers.filter((b) => !b.deleted),
        step.a,
      );
      if (!buyer) return "deleteBuyer: nobody";
      const res = await buyer.client.request("DELETE", "/api/me", { password: buyer.password });
      expect([204, 409]).toContain(res.statusCode);
      if (res.statusCode === 204) buyer.deleted = true;
      return `deleteBuyer: ${res.statusCode === 204 ? "deleted" : res.json().details?.reason}`;
    }
  }
}

async function releaseOf(itemId: string) {
  const [row] = await queryRows<{ id: string }>(
    t.db,
    sql`select id from journal_entries where source_key = ${`release:${itemId}`}`,
  );
  return row;
}

/** What a seller's available balance and the nets held in it by open refund requests are, in units. */
async function sellerMoney(sellerId: string) {
  const [row] = await queryRows<{ available: string; held: string }>(
    t.db,
    sql`select
      (select -coalesce(sum(amount), 0) from journal_lines where account_id = ${`seller_available:${sellerId}`}) as available,
      (select -coalesce(sum(l.amount), 0) from journal_lines l
        join refund_requests r on r.order_item_id = l.order_item_id
        where l.account_id = ${`seller_available:${sellerId}`}
          and r.status in (${sql.join(
            openRefundStatuses.map((s) => sql`${s}`),
            sql`, `,
          )})) as held`,
  );
  return { available: Number(row?.available ?? 0), held: Number(row?.held ?? 0) };
}

/** Approves a batch of every payable balance, and checks whom it paid and from what. */
async function payoutBatch(): Promise<string> {
  const preview = (await superAdmin.get("/api/admin/payouts/preview?minimum=1")).json() as PayoutPreview;
  const payees = preview.candidates
    .filter((c) => c.skipReason === null)
    .map((c) => ({ userId: c.userId, role: c.role }));
  if (payees.length === 0) return "payout: nothing payable";
  const res = await superAdmin.post("/api/admin/payouts/batches", { minimum: 1, payees });
  if (res.statusCode === 409) return "payout: nothing payable at approval";
  expect(res.statusCode).toBe(201);
  const batch = res.json() as PayoutBatchDetail;
  for (const payout of batch.payouts) {
    const seller = sellers.find((s) => s.id === payout.userId);
    if (!seller || seller.account === null)
      throw new Error(`a payout to someone without details: ${payout.userId}`);
    // Paid only from details older than the cooling-off period, and never from what open refunds hold.
    expect(clockNow() - (changedAt.get(seller.id) ?? Infinity)).toBeGreaterThanOrEqual(
      COOLING_OFF_MS - 60_000,
    );
    const { available, held } = await sellerMoney(seller.id);
    expect(available).toBeGreaterThanOrEqual(held);
    inTransit.push({ payoutId: payout.id, batchId: batch.id, account: seller.account });
  }
  return `payout: ${batch.payouts.length} paid`;
}

/** The invariants, after every step. */
async function checkInvariants(log: string[]) {
  const why = `after ${log.join(" → ")}`;
  // 1. The ledger balances: every entry, and so the whole.
  const unbalanced = await queryRows<{ entry_id: string }>(
    t.db,
    sql`select entry_id from journal_lines group by entry_id having sum(amount) <> 0`,
  );
  expect(unbalanced, why).toEqual([]);
  const [total] = await queryRows<{ sum: string | null }>(
    t.db,
    sql`select sum(amount) as sum from journal_lines`,
  );
  expect(Number(total?.sum ?? 0), why).toBe(0);

  // 2. No net is released while its refund is open (unless it was released before the request).
  const open = await queryRows<{ order_item_id: string }>(
    t.db,
    sql`select r.order_item_id from refund_requests r
      where r.status in (${sql.join(
        openRefundStatuses.map((s) => sql`${s}`),
        sql`, `,
      )})
      and exists (select 1 from journal_entries e where e.source_key = 'release:' || r.order_item_id)`,
  );
  for (const { order_item_id } of open) expect(releasedAtRequest.has(order_item_id), why).toBe(true);

  // 3. Every payout on its way pays the account its batch approved: the bank file says so, to the digit.
  const batches = [...new Set(inTransit.map((p) => p.batchId))];
  for (const batchId of batches) {
    const file = await superAdmin.get(`/api/admin/payouts/batches/${batchId}/bank-file.csv`);
    expect(file.statusCode, why).toBe(200);
    const rows = new Map(
      file.body
        .trim()
        .split("\r\n")
        .slice(1)
        // Cells are quoted text without commas here (ids, names, IBANs).
        .map((line) => line.split(",").map((cell) => cell.replace(/^"(.*)"$/, "$1")))
        .map((cells) => [cells[0], cells[3]]),
    );
    for (const payout of inTransit.filter((p) => p.batchId === batchId)) {
      const approved = compact(accounts[payout.account]?.iban ?? "");
      expect(rows.get(payout.payoutId), why).toBe(approved);
      const [stored] = await t.db
        .select({ destination: payouts.destination })
        .from(payouts)
        .where(eq(payouts.id, payout.payoutId));
      expect(stored?.destination, why).toBe(maskAccount(approved));
    }
  }
}

test(`money invariants hold over ${STEPS} random steps (seed ${SEED})`, { timeout: 180_000 }, async () => {
  for (const seller of sellers) await setAccount(seller, sellers.indexOf(seller));
  const [steps] = fc.sample(fc.array(stepArb, { minLength: STEPS, maxLength: STEPS }), {
    seed: SEED,
    numRuns: 1,
  });
  const log: string[] = [];
  for (const step of steps ?? []) {
    log.push(await run(step));
    await checkInvariants(log);
  }
  // Finally every window ends and a batch pays what can be paid, checked like every other step.
  log.push(await run({ choice: -1, a: 7, b: 0 }));
  await checkInvariants(log);
  log.push(await payoutBatch());
  await checkInvariants(log);
  if (SEED === DEFAULT_SEED) {
    // The default run does what it is for: money moved every way it can (another seed may not).
    const ran = log.join("\n");
    expect(
      log.some((line) => line.startsWith("payout: ") && line.endsWith("paid")),
      ran,
    ).toBe(true);
    expect(
      log.some((line) => / approved$/.test(line)),
      ran,
    ).toBe(true);
    expect(
      log.some((line) => /rejected$/.test(line)),
      ran,
    ).toBe(true);
    expect(
      log.some((line) => line.endsWith("(late)")),
      ran,
    ).toBe(true);
    expect(
      log.some((line) => line === "deleteBuyer: deleted"),
      ran,
    ).toBe(true);
  }
});
