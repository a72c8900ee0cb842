import { describe, expect, test } from "vitest";
import {
  accountStatusOf,
  bankAccountSchema,
  maskAccount,
  maskBankAccount,
  payoutHoldEnds,
  usesIban,
  usesIfsc,
} from "#domain/payouts";

const parse = (input: Record<string, unknown>) => bankAccountSchema.safeParse(input);
const messages = (input: Record<string, unknown>) => {
  const result = parse(input);
  return result.success
    ? {}
    : Object.fromEntries(result.error.issues.map((i) => [i.path.join("."), i.message]));
};

describe("bank account", () => {
  test("an IBAN country takes an IBAN and a BIC, typed with spaces and lower case", () => {
    const result = parse({
      holderName: "  Sam Seller ",
      country: "de",
      iban: "de89 3704 0044 0532 0130 00",
      swift: "deutdeff",
      accountNumber: "123456",
    });
    expect(result.success).toBe(true);
    expect(result.data).toEqual({
      holderName: "Sam Seller",
      country: "DE",
      iban: "DE89370400440532013000",
      accountNumber: null,
      swift: "DEUTDEFF",
      ifsc: null,
    });
  });

  test("the UAE IBAN and an 11-character BIC are valid", () => {
    expect(
      parse({ holderName: "Ali", country: "AE", iban: "AE070331234567890123456", swift: "EBILAEADXXX" })
        .success,
    ).toBe(true);
  });

  test("a wrong check digit, a missing IBAN or another country's IBAN is refused with a clear message", () => {
    expect(
      messages({ holderName: "Sam", country: "DE", iban: "DE88370400440532013000", swift: "DEUTDEFF" }),
    ).toEqual({
      iban: "This IBAN is not valid: check the country code, check digits and account number",
    });
    expect(messages({ holderName: "Sam", country: "DE", swift: "DEUTDEFF" })).toEqual({
      iban: "Enter the account's IBAN",
    });
    expect(
      messages({ holderName: "Sam", country: "FR", iban: "DE89370400440532013000", swift: "DEUTDEFF" }),
    ).toEqual({
      iban: "This IBAN belongs to another country than the bank's (FR)",
    });
  });

  test("BICs: too short, wrong shape or missing are refused", () => {
    const base = { holderName: "Sam", country: "DE", iban: "DE89370400440532013000" };
    expect(messages({ ...base, swift: "DEUT" }).swift).toMatch(/8 or 11 characters/);
    expect(messages({ ...base, swift: "1EUTDEFF" }).swift).toMatch(/8 or 11 characters/);
    expect(messages({ ...base }).swift).toBe("Enter the bank's SWIFT/BIC code");
  });

  test("a country without IBAN takes an account number and a BIC", () => {
    const result = parse({
      holderName: "Uma",
      country: "US",
      accountNumber: "000123456789",
      swift: "CHASUS33",
      iban: "x",
    });
    expect(result.data).toMatchObject({
      country: "US",
      iban: null,
      accountNumber: "000123456789",
      swift: "CHASUS33",
    });
    expect(messages({ holderName: "Uma", country: "US", swift: "CHASUS33" })).toEqual({
      accountNumber: "Enter the account number",
    });
    expect(
      messages({ holderName: "Uma", country: "US", accountNumber: "12", swift: "CHASUS33" }).accountNumber,
    ).toMatch(/4 to 34/);
  });

  test("India takes an account number and an IFSC instead of a BIC", () => {
    const result = parse({
      holderName: "Ravi",
      country: "IN",
      accountNumber: "50100012345678",
      ifsc: "hdfc0001234",
      swift: "HDFCINBB",
    });
    expect(result.data).toMatchObject({ accountNumber: "50100012345678", ifsc: "HDFC0001234", swift: null });
    expect(
      messages({ holderName: "Ravi", country: "IN", accountNumber: "50100012345678", ifsc: "HDFC1001234" })
        .ifsc,
    ).toMatch(/IFSC code is 4 letters/);
    expect(
      messages({ holderName: "Ravi", country: "IN", accountNumber: "50100012345678", ifsc: "HDF00012345" })
        .ifsc,
    ).toMatch(/IFSC/);
    expect(messages({ holderName: "Ravi", country: "IN", accountNumber: "50100012345678" })).toEqual({
      ifsc: "Enter the branch's IFSC code",
    });
  });

  test("an unknown country or a missing holder is refused", () => {
    expect(messages({ holderName: "Sam", country: "ZZ", accountNumber: "1234", swift: "CHASUS33" })).toEqual({
      country: "Choose the country of the bank",
    });
    expect(
      messages({ holderName: " ", country: "US", accountNumber: "1234", swift: "CHASUS33" }).holderName,
    ).toMatch(/holder's name/);
  });

  test("which fields a country needs", () => {
    expect([usesIban("DE"), usesIban("AE"), usesIban("US"), usesIban("IN")]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect([usesIfsc("IN"), usesIfsc("US")]).toEqual([true, false]);
  });
});

describe("masking", () => {
  test("only the last four characters are shown", () => {
    expect(maskAccount("DE89370400440532013000")).toBe("•••• 3000");
    expect(maskAccount("de89 3704 0044 0532 0130 00")).toBe("•••• 3000");
    expect(maskBankAccount({ iban: null, accountNumber: "000123456789" })).toBe("•••• 6789");
  });
});

describe("connected account status", () => {
  test("enabled only when Stripe pays out and has every detail; restricted with what is due otherwise", () => {
    expect(accountStatusOf({ payoutsEnabled: true, detailsSubmitted: true, currentlyDue: [] })).toEqual({
      status: "enabled",
      requirements: [],
    });
    expect(
      accountStatusOf({ payoutsEnabled: false, detailsSubmitted: true, currentlyDue: ["external_account"] }),
    ).toEqual({ status: "restricted", requirements: ["external_account"] });
    expect(
      accountStatusOf({
        payoutsEnabled: true,
        detailsSubmitted: false,
        currentlyDue: ["tos_acceptance.date"],
      }),
    ).toEqual({ status: "restricted", requirements: ["tos_acceptance.date"] });
  });
});

describe("payout cooling-off", () => {
  test("payouts to changed details may start the given hours after the change, not before", () => {
    const changed = new Date("2026-11-27T10:00:00Z");
    expect(payoutHoldEnds(changed, 72).toISOString()).toBe("2026-11-30T10:00:00.000Z");
    expect(payoutHoldEnds(changed, 0).getTime()).toBe(changed.getTime());
  });
});
