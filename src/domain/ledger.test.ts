import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  accountId,
  applyRate,
  balances,
  commissionApprovedLines,
  commissionRejectedLines,
  itemNet,
  type Payee,
  type PostingLine,
  payoutFailedLines,
  payoutLines,
  payoutPaidLines,
  refundLines,
  refundPaidLines,
  releaseLines,
  type SaleItem,
  saleLines,
} from "#domain/ledger";

describe("applyRate", () => {
  test("rounds half up, exactly, at four decimals of rate", () => {
    expect(applyRate(1_000_000, "0.1000")).toBe(100_000);
    expect(applyRate(5, "0.1")).toBe(1); // 0.5 rounds up
    expect(applyRate(4, "0.1")).toBe(0);
    expect(applyRate(999_999_999_999, "0.125")).toBe(125_000_000_000);
    expect(applyRate(3, "0.5")).toBe(2);
    expect(() => applyRate(100, "-0.1")).toThrow(RangeError);
    expect(() => applyRate(100, "0.12345")).toThrow(RangeError);
  });
});

describe("sale lines", () => {
  const item: SaleItem = {
    orderItemId: "i1",
    sellerId: "s1",
    line: 1_000_000,
    tax: 50_000,
    fee: 100_000,
    commission: { resellerId: "r1", amount: 100_000 },
  };

  test("split the charge into tax, fee, commission and the seller's net, with rounding to whole cents", () => {
    const lines = saleLines({ charged: 1_050_000, jurisdiction: "AE", items: [item] });
    expect(balances(lines)).toBe(true);
    const by = Object.fromEntries(lines.map((l) => [accountId(l.account), l.amount]));
    expect(by).toEqual({
      clearing: 1_050_000,
      "tax:AE": -50_000,
      platform_fees: -100_000,
      "reseller_pending:r1": -100_000,
      "seller_pending:s1": -800_000,
    });
    // A total of $105.0049 is charged as $105.00: the 49 units left are explained as rounding.
    const odd = saleLines({ charged: 1_050_000, jurisdiction: "AE", items: [{ ...item, tax: 50_049 }] });
    expect(balances(odd)).toBe(true);
    expect(odd.find((l) => l.account.kind === "rounding")?.amount).toBe(49);
  });

  test("a product no seller owns earns the platform", () => {
    const lines = saleLines({ charged: 1_050_000, jurisdiction: "AE", items: [{ ...item, sellerId: null }] });
    expect(lines.find((l) => l.account.kind === "platform_sales")?.amount).toBe(-800_000);
  });

  test("tax with no jurisdiction is refused rather than booked nowhere", () => {
    expect(() => saleLines({ charged: 1_050_000, jurisdiction: null, items: [item] })).toThrow(RangeError);
  });
});

/*
 * The property: over any sequence of sales, releases, commission decisions, refunds and payouts (paid
 * or failed), every entry balances, and each seller's available + pending + paid equals their net
 * sales minus what refunds took back; each reseller's equals commissions earned minus those reversed or
 * rejected. Balances are only ever sums of the entries' lines, as on the server.
 */
type ModelItem = SaleItem & {
  released: boolean;
  refunded: boolean;
  commissionState: "pending" | "approved" | "rejected" | "reversed" | null;
};

const sellers = ["s1", "s2", null] as const;
const resellers = ["r1", "r2"] as const;

const itemArb = fc.record({
  seller: fc.constantFrom(...sellers),
  line: fc.integer({ min: 0, max: 100_000_000 }),
  taxRate: fc.constantFrom("0", "0.05", "0.18", "0.2", "0.255"),
  feeRate: fc.constantFrom("0", "0.1", "0.125", "0.5"),
  commission: fc.option(
    fc.record({ reseller: fc.constantFrom(...resellers), rate: fc.constantFrom("0.05", "0.1", "0.5") }),
  ),
});

const opArb = fc.oneof(
  fc.record({ op: fc.constant("sale" as const), items: fc.array(itemArb, { minLength: 1, maxLength: 3 }) }),
  fc.record({ op: fc.constant("release" as const), pick: fc.nat() }),
  fc.record({ op: fc.constant("approve" as const), pick: fc.nat() }),
  fc.record({ op: fc.constant("reject" as const), pick: fc.nat() }),
  fc.record({ op: fc.constant("refund" as const), pick: fc.nat() }),
  fc.record({
    op: fc.constant("payout" as const),
    payee: fc.constantFrom<Payee>(
      { role: "seller", owner: "s1" },
      { role: "seller", owner: "s2" },
      { role: "reseller", owner: "r1" },
    ),
    fails: fc.boolean(),
  }),
);

function cents(units: number): number {
  return Math.round(units / 100) * 100;
}

describe("the ledger over random histories", () => {
  test("every entry balances and each earner's balances add up to what they earned", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), (ops) => {
        const ledger = new Map<string, number>();
        const paid = new Map<string, number>();
        const items: ModelItem[] = [];
        const book = (lines: PostingLine[]) => {
          expect(balances(lines)).toBe(true);
          for (const line of lines) {
            const id = accountId(line.account);
            ledger.set(id, (ledger.get(id) ?? 0) + line.amount);
          }
        };
        const balance = (id: string) => -(ledger.get(id) ?? 0);
        for (const op of ops) {
          if (op.op === "sale") {
            const sold = op.items.map((raw, i): ModelItem => {
              const commission = raw.commission
                ? { resellerId: raw.commission.reseller, amount: applyRate(raw.line, raw.commission.rate) }
                : null;
              const fee = Math.min(applyRate(raw.line, raw.feeRate), raw.line - (commission?.amount ?? 0));
              return {
                orderItemId: `${items.length}-${i}`,
                sellerId: raw.seller,
                line: raw.line,
                tax: applyRate(raw.line, raw.taxRate),
                fee,
                commission,
                released: false,
                refunded: false,
                commissionState: commission ? "pending" : null,
              };
            });
            const total = sold.reduce((sum, item) => sum + item.line + item.tax, 0);
            book(saleLines({ charged: cents(total), jurisdiction: "IN", items: sold }));
            items.push(...sold);
            continue;
          }
          if (op.op === "payout") {
            const kind = op.payee.role === "seller" ? "seller_available" : "reseller_available";
            const available = balance(`${kind}:${op.payee.owner}`);
            if (available <= 0) continue;
            book(payoutLines(op.payee, available));
            if (op.fails) book(payoutFailedLines(op.payee, available));
            else {
              book(payoutPaidLines(available));
              paid.set(op.payee.owner, (paid.get(op.payee.owner) ?? 0) + available);
            }
            continue;
          }
          const item = items.length > 0 ? items[op.pick % items.length] : undefined;
          if (!item) continue;
          if (op.op === "release" && item.sellerId && !item.released && !item.refunded) {
            book(releaseLines(item.sellerId, itemNet(item), item.orderItemId));
            item.released = true;
          }
          if (
            op.op === "approve" &&
            item.commission &&
            item.commissionState === "pending" &&
            !item.refunded
          ) {
            book(
              commissionApprovedLines(item.commission.resellerId, item.commission.amount, item.orderItemId),
            );
            item.commissionState = "approved";
          }
          if (op.op === "reject" && item.commission && item.commissionState === "pending" && !item.refunded) {
            book(
              commissionRejectedLines({
                resellerId: item.commission.resellerId,
                amount: item.commission.amount,
                sellerId: item.sellerId,
                released: item.released,
                orderItemId: item.orderItemId,
              }),
            );
            item.commissionState = "rejected";
          }
          if (op.op === "refund" && !item.refunded) {
            const refunded = cents(item.line + item.tax);
            const commissionReversed = item.commissionState === "pending";
            // A rejected commission went back to the seller with the net: the refund takes both from there.
            const booked = item.commissionState === "rejected" ? { ...item, commission: null } : item;
            book(
              refundLines({
                refunded,
                jurisdiction: "IN",
                item: booked,
                commissionReversed,
                released: item.released,
              }),
            );
            book(refundPaidLines(refunded));
            if (commissionReversed) item.commissionState = "reversed";
            item.refunded = true;
          }
        }
        for (const seller of ["s1", "s2"]) {
          const mine = items.filter((item) => item.sellerId === seller);
          const netSales = mine.reduce(
            (sum, item) =>
              sum +
              itemNet(item) +
              (item.commissionState === "rejected" ? (item.commission?.amount ?? 0) : 0),
            0,
          );
          const reversals = mine
            .filter((item) => item.refunded)
            .reduce(
              (sum, item) =>
                sum +
                itemNet(item) +
                (item.commissionState === "approved" || item.commissionState === "rejected"
                  ? (item.commission?.amount ?? 0)
                  : 0),
              0,
            );
          const total =
            balance(`seller_available:${seller}`) +
            balance(`seller_pending:${seller}`) +
            (paid.get(seller) ?? 0);
          expect({ seller, total }).toEqual({ seller, total: netSales - reversals });
          // What waits for the window is never negative; only a refund after a payout can make available so.
          expect(balance(`seller_pending:${seller}`)).toBeGreaterThanOrEqual(0);
        }
        for (const reseller of resellers) {
          const earned = items
            .filter((item) => item.commission?.resellerId === reseller)
            .filter((item) => item.commissionState === "pending" || item.commissionState === "approved")
            .reduce((sum, item) => sum + (item.commission?.amount ?? 0), 0);
          const total =
            balance(`reseller_available:${reseller}`) +
            balance(`reseller_pending:${reseller}`) +
            (paid.get(reseller) ?? 0);
          expect(total).toBe(earned);
        }
        // Nothing is owed to buyers once their refunds are paid, and the books as a whole balance.
        expect(ledger.get("refunds_payable") ?? 0).toBe(0);
        expect([...ledger.values()].reduce((a, b) => a + b, 0)).toBe(0);
      }),
      { numRuns: 300 },
    );
  });
});
