import { describe, expect, test } from "vitest";
import {
  applyTransfers,
  isTransferExpired,
  MAX_TRANSFER_AMOUNT,
  parseTransferReference,
  recordTransferSchemaAt,
  transferAmountDue,
  transferExpiresAt,
  transferInstruction,
  transferReference,
  transferReferenceQuerySchema,
} from "#domain/bank-transfer";
import { DAY_MS } from "#domain/dates";
import { fromUnits, toUnits } from "#domain/money";

/**
 * fast-check is not among the project's packages, so the properties below are checked over many
 * generated cases from a seeded generator (the same cases every run, so a failure can be replayed),
 * and exhaustively where the space is small (every typo of a reference).
 */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  const uuid = () =>
    "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx".replace(/[xy]/g, (c) =>
      (c === "x" ? int(16) : 8 + int(4)).toString(16),
    );
  return { int, uuid };
}

const DIGITS = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

describe("transferReference", () => {
  test("is SB- and 9 Crockford characters, the same for the same order", () => {
    const id = "2b9c4f8e-6a1d-4c3b-9e7f-0d5a8b2c1e4f";
    expect(transferReference(id)).toMatch(/^SB-[0-9A-HJKMNP-TV-Z]{9}$/);
    expect(transferReference(id)).toBe(transferReference(id));
    expect(transferReference(id, 1)).not.toBe(transferReference(id));
  });

  test("round-trips through parseTransferReference, however the buyer spells it", () => {
    const { uuid } = generator(1);
    for (let i = 0; i < 2000; i++) {
      const reference = transferReference(uuid(), i % 3);
      expect(parseTransferReference(reference)).toBe(reference);
      const body = reference.slice(3);
      const spelt = ` sb ${body.slice(0, 4).toLowerCase()}-${body.slice(4)} `
        .replace(/0/g, "o")
        .replace(/1/g, i % 2 ? "l" : "I");
      expect(parseTransferReference(spelt)).toBe(reference);
      expect(parseTransferReference(body)).toBe(reference);
    }
  });

  test("different orders almost never share one (40 bits), and the attempt gives another", () => {
    const { uuid } = generator(2);
    const seen = new Set<string>();
    for (let i = 0; i < 20_000; i++) seen.add(transferReference(uuid()));
    // Expected collisions among 20,000 draws of 2^40 values: 0.0002.
    expect(seen.size).toBe(20_000);
  });

  test("every single wrong character and every swap of neighbours is refused", () => {
    const { uuid } = generator(3);
    for (let i = 0; i < 300; i++) {
      const reference = transferReference(uuid());
      const body = reference.slice(3);
      for (let at = 0; at < body.length; at++) {
        for (const other of DIGITS) {
          if (other === body[at]) continue;
          const typo = body.slice(0, at) + other + body.slice(at + 1);
          expect(parseTransferReference(`SB-${typo}`), `${reference} → SB-${typo}`).toBeNull();
        }
        if (at + 1 < body.length && body[at] !== body[at + 1]) {
          const swapped = body.slice(0, at) + body[at + 1] + body[at] + body.slice(at + 2);
          expect(parseTransferReference(`SB-${swapped}`), `${reference} → SB-${swapped}`).toBeNull();
        }
      }
    }
  });

  test("a missing or extra character, a U, or other text is not a reference", () => {
    const reference = transferReference("5f0c1a2b-3d4e-4f60-8172-839405a6b7c8");
    const body = reference.slice(3);
    for (const text of [
      "",
      "SB-",
      `SB-${body.slice(1)}`,
      `SB-${body}0`,
      `SB-${body.slice(0, 8)}U`,
      `XX-${body}`,
      `SB-${body.slice(0, 4)}*${body.slice(5)}`,
      "order 1234",
    ])
      expect(parseTransferReference(text), text).toBeNull();
  });
});

describe("applyTransfers", () => {
  test("nothing received yet", () => {
    expect(applyTransfers("20.0000", [])).toEqual({
      status: "awaiting",
      receivedTotal: "0.0000",
      outstanding: "20.0000",
      excess: "0.0000",
      explanation: "No transfer received yet; $20.00 to pay.",
    });
  });

  test("part received", () => {
    expect(applyTransfers("20.0000", ["5.0000", "7.0000"])).toEqual({
      status: "partial",
      receivedTotal: "12.0000",
      outstanding: "8.0000",
      excess: "0.0000",
      explanation: "$12.00 of $20.00 received; $8.00 still to pay.",
    });
  });

  test("paid exactly, in one or several transfers", () => {
    expect(applyTransfers("20.0000", ["20.0000"]).status).toBe("paid");
    expect(applyTransfers("20.0000", ["12.0000", "8.0000"])).toEqual({
      status: "paid",
      receivedTotal: "20.0000",
      outstanding: "0.0000",
      excess: "0.0000",
      explanation: "Paid in full.",
    });
  });

  test("overpaid: the excess is named and goes back", () => {
    expect(applyTransfers("20.0000", ["23.0000"])).toEqual({
      status: "overpaid",
      receivedTotal: "23.0000",
      outstanding: "0.0000",
      excess: "3.0000",
      explanation: "Paid in full; $3.00 more than due will be returned to the sender.",
    });
  });

  test("a total with a fraction of a cent is due in whole cents, as every charge is", () => {
    expect(transferAmountDue("20.0050")).toBe("20.0100");
    expect(transferAmountDue("20.0049")).toBe("20.0000");
    expect(applyTransfers("20.0050", ["20.0100"]).status).toBe("paid");
    expect(applyTransfers("20.0049", ["20.0000"]).status).toBe("paid");
  });

  test("thousands read as people write them", () => {
    expect(applyTransfers("1500.0000", ["250.5000"]).explanation).toBe(
      "$250.50 of $1,500.00 received; $1,249.50 still to pay.",
    );
  });

  test("a negative transfer is refused", () => {
    expect(() => applyTransfers("20.0000", ["-1.0000"])).toThrow(RangeError);
  });

  test("received = due − outstanding + excess; nothing is ever negative; the status follows", () => {
    const { int } = generator(4);
    for (let i = 0; i < 5000; i++) {
      const dueUnits = int(100_000_000) * 100;
      const transfers = Array.from({ length: int(5) }, () => fromUnits(int(60_000_000) * 100));
      const standing = applyTransfers(fromUnits(dueUnits), transfers);
      const received = toUnits(standing.receivedTotal);
      const outstanding = toUnits(standing.outstanding);
      const excess = toUnits(standing.excess);
      expect(received).toBe(transfers.reduce((sum, t) => sum + toUnits(t), 0));
      expect(received).toBe(dueUnits - outstanding + excess);
      expect(outstanding).toBeGreaterThanOrEqual(0);
      expect(excess).toBeGreaterThanOrEqual(0);
      expect(outstanding === 0 || excess === 0).toBe(true);
      const expected =
        excess > 0 ? "overpaid" : outstanding === 0 ? "paid" : received === 0 ? "awaiting" : "partial";
      expect(standing.status).toBe(expected);
    }
  });
});

describe("transfer expiry", () => {
  const placedAt = new Date("2026-11-01T10:00:00Z");

  test("expires the given number of whole days after the order", () => {
    expect(transferExpiresAt(placedAt, 7)).toEqual(new Date("2026-11-08T10:00:00Z"));
  });

  test("is open until that moment and expired from it", () => {
    const expiresAt = transferExpiresAt(placedAt, 7).getTime();
    expect(isTransferExpired(placedAt, 7, new Date(expiresAt - 1))).toBe(false);
    expect(isTransferExpired(placedAt, 7, new Date(expiresAt))).toBe(true);
    expect(isTransferExpired(placedAt, 7, new Date(placedAt.getTime() + 8 * DAY_MS))).toBe(true);
  });
});

describe("recordTransferSchemaAt", () => {
  const now = new Date("2026-11-23T11:00:00Z");
  const schema = recordTransferSchemaAt(now);
  const valid = { amount: "120.50", receivedOn: "2026-11-22", bankReference: "  FT2611229XK4 " };
  const messages = (input: unknown) => {
    const result = schema.safeParse(input);
    return result.success ? [] : result.error.issues.map((i) => i.message);
  };

  test("a valid transfer reads back with a 4-place amount and a trimmed reference", () => {
    expect(schema.parse(valid)).toEqual({
      amount: "120.5000",
      receivedOn: "2026-11-22",
      bankReference: "FT2611229XK4",
    });
    expect(schema.parse({ ...valid, amount: 75 }).amount).toBe("75.0000");
  });

  test.each([
    ["", "Enter the amount received"],
    ["12,50", "Enter the amount as a number, like 120.50"],
    ["-5", "Enter the amount as a number, like 120.50"],
    ["1.005", "Banks send whole cents: use at most 2 decimals"],
    ["0", "The amount must be more than $0.00"],
    ["0.00", "The amount must be more than $0.00"],
  ])("amount %j: %s", (amount, message) => {
    expect(messages({ ...valid, amount })).toEqual([message]);
  });

  test("the largest order's total is accepted, a cent more is a typo", () => {
    expect(MAX_TRANSFER_AMOUNT).toBe("7425000000.0000");
    expect(schema.parse({ ...valid, amount: "7425000000.00" }).amount).toBe(MAX_TRANSFER_AMOUNT);
    expect(messages({ ...valid, amount: "7425000000.01" })).toEqual([
      "The amount must be at most $7,425,000,000.00; check the number of digits",
    ]);
  });

  test("the day: a real calendar day, today where it is already tomorrow at most", () => {
    expect(messages({ ...valid, receivedOn: "2026-11-23" })).toEqual([]);
    // 11:00 UTC is 01:00 on Nov 24 at UTC+14.
    expect(messages({ ...valid, receivedOn: "2026-11-24" })).toEqual([]);
    expect(messages({ ...valid, receivedOn: "2026-11-25" })).toEqual([
      "The day the transfer arrived cannot be in the future",
    ]);
    expect(messages({ ...valid, receivedOn: "2026-02-30" })).toEqual([
      "Enter the day as YYYY-MM-DD, like 2026-11-23",
    ]);
    expect(messages({ ...valid, receivedOn: "22/11/2026" })).toEqual([
      "Enter the day as YYYY-MM-DD, like 2026-11-23",
    ]);
    expect(messages({ ...valid, receivedOn: "" })).toEqual(["Enter the day the transfer arrived"]);
  });

  test("the bank reference: 1 to 64 visible characters after trimming", () => {
    expect(messages({ ...valid, bankReference: "   " })).toEqual([
      "Enter the bank's reference for this transfer",
    ]);
    expect(messages({ ...valid, bankReference: "R".repeat(64) })).toEqual([]);
    expect(messages({ ...valid, bankReference: "R".repeat(65) })).toEqual([
      "The bank reference must be at most 64 characters",
    ]);
    expect(messages({ ...valid, bankReference: "FT26\u0000112" })).toEqual([
      "The bank reference can only hold characters you can see (no control characters)",
    ]);
    expect(messages({ ...valid, bankReference: "Überweisung 4711" })).toEqual([]);
  });

  test("every field missing says what to enter", () => {
    expect(messages({})).toEqual([
      "Enter the amount received",
      "Enter the day the transfer arrived",
      "Enter the bank's reference for this transfer",
    ]);
  });
});

describe("what the API and screens say about a transfer", () => {
  test("the instruction names the amount in dollars, the account and the reference", () => {
    expect(transferInstruction("20.0000", { accountName: "Stackbay FZ-LLC" }, "SB-7K3M9QX2Z")).toBe(
      "Transfer $20.00 to Stackbay FZ-LLC with reference SB-7K3M9QX2Z.",
    );
  });

  test("the admin's reference search forgives a statement's spelling and refuses a typo", () => {
    const reference = transferReference("0b7e7a52-4f7e-4a38-9d2b-0c1d2e3f4a5b");
    const messy = reference.toLowerCase().replace("-", " ").replaceAll("0", "o");
    expect(transferReferenceQuerySchema.parse({ reference: messy })).toEqual({ reference });
    const typo = `${reference.slice(0, -1)}${reference.endsWith("0") ? "1" : "0"}`;
    const refused = transferReferenceQuerySchema.safeParse({ reference: typo });
    expect(refused.error?.issues[0]?.message).toBe(
      "This is not a Stackbay transfer reference; check it against the bank statement",
    );
    expect(transferReferenceQuerySchema.safeParse({ reference: "x".repeat(41) }).success).toBe(false);
  });
});
