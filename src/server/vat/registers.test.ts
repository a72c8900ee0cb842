import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startVatStandIn, type VatStandIn } from "#server/test/vat-registers-stand-in";
import { createHmrc, createVies } from "./registers";

/**
 * The VIES and HMRC clients against the registers' local stand-in: what they send, and that every
 * answer that is not a register's "yes" or "no" is `unavailable` (or `unchecked`), never an error.
 */

let registers: VatStandIn;
const warnings: object[] = [];
const log = { warn: (details: object) => void warnings.push(details) };
const now = new Date("2026-11-27T10:00:00Z");

beforeAll(async () => {
  registers = await startVatStandIn({ registered: ["DE136695976", "GB980780684"] });
});
afterAll(() => registers?.close());

describe("VIES", () => {
  test("without a requester VIES answers without a consultation number; its date is kept", async () => {
    const vies = createVies({ apiBase: registers.viesUrl, log });
    const answer = await vies.check("DE136695976", now);
    expect(answer).toMatchObject({ register: "VIES", status: "valid", reference: null });
    expect(answer.checkedAt.toISOString().slice(0, 10)).toBe(new Date().toISOString().slice(0, 10));
    expect(registers.requests.at(-1)?.body).toEqual({ countryCode: "DE", vatNumber: "136695976" });
  });

  test("out of reach, or a member state down, is unavailable and logged without the number", async () => {
    const unreachable = createVies({ apiBase: "http://127.0.0.1:9/vies", log });
    expect(await unreachable.check("DE136695976", now)).toEqual({
      register: "VIES",
      status: "unavailable",
      reference: null,
      checkedAt: now,
    });
    registers.setDown("VIES", true);
    try {
      const vies = createVies({ apiBase: registers.viesUrl, log });
      expect((await vies.check("DE136695976", now)).status).toBe("unavailable");
    } finally {
      registers.setDown("VIES", false);
    }
    expect(JSON.stringify(warnings)).not.toContain("136695976");
  });
});

describe("HMRC", () => {
  const credentials = () => ({
    clientId: registers.hmrc.clientId,
    clientSecret: registers.hmrc.clientSecret,
  });

  test("without credentials nothing is asked: unchecked", async () => {
    const before = registers.requests.length;
    const hmrc = createHmrc({ apiBase: registers.hmrcUrl, log });
    expect(await hmrc.check("GB980780684", now)).toEqual({
      register: "HMRC",
      status: "unchecked",
      reference: null,
      checkedAt: now,
    });
    expect(registers.requests.length).toBe(before);
  });

  test("one token serves many lookups; a revoked one is replaced once and the lookup goes through", async () => {
    const hmrc = createHmrc({ apiBase: registers.hmrcUrl, ...credentials(), log });
    const tokens = registers.tokensIssued();
    expect((await hmrc.check("GB980780684", now)).status).toBe("valid");
    expect((await hmrc.check("GB434031494", now)).status).toBe("invalid");
    expect(registers.tokensIssued()).toBe(tokens + 1);
    registers.revokeTokens();
    expect(await hmrc.check("GB980780684", now)).toMatchObject({ status: "valid", reference: null });
    expect(registers.tokensIssued()).toBe(tokens + 2);
  });

  test("refused credentials, HMRC down or a wrong address are unavailable, not a 'no'", async () => {
    const wrongSecret = createHmrc({
      apiBase: registers.hmrcUrl,
      clientId: registers.hmrc.clientId,
      clientSecret: "not-the-secret",
      log,
    });
    expect((await wrongSecret.check("GB980780684", now)).status).toBe("unavailable");
    registers.setDown("HMRC", true);
    try {
      const hmrc = createHmrc({ apiBase: registers.hmrcUrl, ...credentials(), log });
      expect((await hmrc.check("GB980780684", now)).status).toBe("unavailable");
    } finally {
      registers.setDown("HMRC", false);
    }
    // A 404 that is not HMRC's NOT_FOUND (an address without the API) says nothing about the number.
    const wrongBase = createHmrc({ apiBase: `${registers.hmrcUrl}/elsewhere`, ...credentials(), log });
    expect((await wrongBase.check("GB434031494", now)).status).toBe("unavailable");
  });
});
