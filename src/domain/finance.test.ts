import { describe, expect, test } from "vitest";
import { MAX_PAYOUT_BATCH_PAYEES, runPayoutBatchSchema } from "#domain/finance";

const payees = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ userId: `user-${i}`, role: "seller" as const }));

describe("payout batch request", () => {
  test("takes from one payee up to the bound, and refuses a longer list", () => {
    expect(runPayoutBatchSchema.safeParse({ minimum: 50, payees: payees(1) }).success).toBe(true);
    expect(
      runPayoutBatchSchema.safeParse({ minimum: 50, payees: payees(MAX_PAYOUT_BATCH_PAYEES) }).success,
    ).toBe(true);
    const over = runPayoutBatchSchema.safeParse({ minimum: 50, payees: payees(MAX_PAYOUT_BATCH_PAYEES + 1) });
    expect(over.success).toBe(false);
    expect(over.error?.issues[0]?.path).toEqual(["payees"]);
    expect(runPayoutBatchSchema.safeParse({ minimum: 50, payees: payees(100_000) }).success).toBe(false);
  });
});
