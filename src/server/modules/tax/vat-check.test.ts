import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { PlaceOrderInput } from "#domain/checkout";
import { EU_REVERSE_CHARGE_NOTE, UK_REVERSE_CHARGE_NOTE, vatChargedNote } from "#domain/tax";
import { products } from "#server/db/schema/catalog";
import { vatChecks } from "#server/db/schema/ledger";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { createClient, signedInClient } from "#server/test/client";
import { orderBody } from "#server/test/orders";
import { getOrder, payOrder } from "#server/test/payments";
import { startVatStandIn, type VatStandIn } from "#server/test/vat-registers-stand-in";

/**
 * A VAT number earns the reverse charge only when its register confirms it: VIES for EU numbers, HMRC
 * for UK ones (the real clients, against the local stand-in of both). Check digits alone, a register
 * saying no, or a register out of reach all charge VAT, and the order keeps what the register said.
 */

type Client = ReturnType<typeof createClient>;
let registers: VatStandIn;
let t: Awaited<ReturnType<typeof createTestApp>>;
let buyer: Client;
let productId = "";

// Well-formed, with valid check digits: jsvat accepts both. Only the first is registered.
const REGISTERED_DE = "DE136695976";
const MADE_UP_DE = "DE811907980";
const REGISTERED_GB = "GB980780684";
const MADE_UP_GB = "GB434031494";

beforeAll(async () => {
  registers = await startVatStandIn({ registered: [REGISTERED_DE, REGISTERED_GB] });
  t = await createTestApp({
    seed: true,
    env: {
      VIES_API_BASE: registers.viesUrl,
      VIES_REQUESTER_VAT: "NL 8179.04.289.B01",
      HMRC_API_BASE: registers.hmrcUrl,
      HMRC_CLIENT_ID: registers.hmrc.clientId,
      HMRC_CLIENT_SECRET: registers.hmrc.clientSecret,
      HMRC_REQUESTER_VRN: "GB 553 5575 81",
    },
  });
  buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
  const [made] = await t.db
    .insert(products)
    .values({ name: "VAT Seat", category: "software", price: "100", vendor: "Acme" })
    .returning({ id: products.id });
  productId = made?.id ?? "";
});
afterAll(async () => {
  await t?.close();
  await registers?.close();
});

const order = (country: string, taxId: string): PlaceOrderInput =>
  orderBody({ country, business: true, company: "Acme", taxId, items: [{ productId, price: 100 }] });

async function place(body: PlaceOrderInput) {
  const res = await buyer.post("/api/orders", body);
  expect(res.statusCode, res.body).toBe(201);
  return getOrder(buyer, res.json().orderId);
}

const asked = (register: "VIES" | "HMRC") =>
  registers.requests.filter((r) => r.register === register && !r.path.endsWith("/oauth/token")).length;

describe("EU VAT numbers and VIES", () => {
  test("a made-up number with valid check digits pays German VAT, and the order says how to reclaim it", async () => {
    const placed = await place(order("DE", MADE_UP_DE));
    expect(placed).toMatchObject({
      tax: 19,
      totalAmount: 119,
      buyerTaxId: MADE_UP_DE,
      taxLabel: "Germany VAT",
      taxRate: "0.1900",
      reverseCharge: false,
      taxNote: vatChargedNote({ register: "VIES", status: "invalid" }),
      // VIES's consultation number proves the "no" as well as a "yes".
      vatCheck: { register: "VIES", status: "invalid", reference: expect.stringMatching(/^WAPI/) },
    });
    // VIES was asked with the number split as it wants it, and the operator's number as requester.
    expect(registers.requests.at(-1)).toMatchObject({
      register: "VIES",
      body: {
        countryCode: "DE",
        vatNumber: "811907980",
        requesterMemberStateCode: "NL",
        requesterNumber: "817904289B01",
      },
    });
  });

  test("a registered number: reverse charge, with VIES's consultation number on the order and the invoice", async () => {
    const placed = await place(order("DE", "136 695 976"));
    expect(placed).toMatchObject({
      tax: 0,
      reverseCharge: true,
      taxNote: EU_REVERSE_CHARGE_NOTE,
      vatCheck: { register: "VIES", status: "valid", reference: expect.stringMatching(/^WAPI[0-9A-F]{12}$/) },
    });
    const reference = placed.vatCheck?.reference ?? "";
    expect((await payOrder(t.app, buyer, placed.id)).paymentStatus).toBe("mock_confirmed");
    const invoice = await buyer.get(`/api/orders/${placed.id}/invoice.html`);
    expect(invoice.statusCode).toBe(200);
    expect(invoice.body).toContain(`consultation number ${reference}`);
  });

  test("a confirmation is kept for 24 hours: the next orders do not ask VIES again until it is older", async () => {
    await place(order("DE", REGISTERED_DE));
    const before = asked("VIES");
    const again = await place(order("DE", REGISTERED_DE));
    expect(again).toMatchObject({ reverseCharge: true, vatCheck: { status: "valid" } });
    const check = await buyer.post("/api/tax/vat-check", { country: "DE", taxId: REGISTERED_DE });
    expect(check.json()).toMatchObject({ vatNumber: REGISTERED_DE, check: { status: "valid" } });
    expect(asked("VIES")).toBe(before);

    await t.db
      .update(vatChecks)
      .set({ checkedAt: sql`now() - interval '25 hours'` })
      .where(eq(vatChecks.vatNumber, REGISTERED_DE));
    await place(order("DE", REGISTERED_DE));
    expect(asked("VIES")).toBe(before + 1);
  });

  test("VIES unavailable: VAT is charged with the reason, nothing is kept, and the number is asked again", async () => {
    registers.setDown("VIES", true);
    try {
      const placed = await place(order("FR", "FR40303265045"));
      expect(placed).toMatchObject({
        tax: 20,
        reverseCharge: false,
        taxNote: vatChargedNote({ register: "VIES", status: "unavailable" }),
        vatCheck: { register: "VIES", status: "unavailable", reference: null },
      });
      expect(placed.taxNote).toContain("reclaim this VAT");
    } finally {
      registers.setDown("VIES", false);
    }
    expect(await t.db.select().from(vatChecks).where(eq(vatChecks.vatNumber, "FR40303265045"))).toEqual([]);
  });
});

describe("UK VAT numbers and HMRC", () => {
  test("a registered number: reverse charge, with HMRC's consultation number; a made-up one pays 20%", async () => {
    const registered = await place(order("GB", "GB 980 7806 84"));
    expect(registered).toMatchObject({
      tax: 0,
      reverseCharge: true,
      taxNote: UK_REVERSE_CHARGE_NOTE,
      vatCheck: {
        register: "HMRC",
        status: "valid",
        reference: expect.stringMatching(/^\w{4}-\w{4}-\w{4}$/),
      },
    });
    const lookup = registers.requests.findLast((r) => r.path.includes("/lookup/"));
    expect(lookup).toMatchObject({
      path: "/hmrc/organisations/vat/check-vat-number/lookup/980780684/553557581",
      accept: "application/vnd.hmrc.2.0+json",
    });

    const madeUp = await place(order("GB", MADE_UP_GB));
    expect(madeUp).toMatchObject({
      tax: 20,
      reverseCharge: false,
      taxNote: vatChargedNote({ register: "HMRC", status: "invalid" }),
      vatCheck: { register: "HMRC", status: "invalid" },
    });
  });
});

describe("POST /api/tax/vat-check", () => {
  test("answers the register's verdict to a signed-in buyer, nothing for a malformed number, 401 to a stranger", async () => {
    const stranger = createClient(t.app);
    expect((await stranger.post("/api/tax/vat-check", { country: "DE", taxId: MADE_UP_DE })).statusCode).toBe(
      401,
    );
    const madeUp = await buyer.post("/api/tax/vat-check", { country: "DE", taxId: MADE_UP_DE });
    expect(madeUp.statusCode).toBe(200);
    expect(madeUp.json()).toEqual({
      vatNumber: MADE_UP_DE,
      check: {
        register: "VIES",
        status: "invalid",
        reference: expect.any(String),
        checkedAt: expect.any(String),
      },
    });
    const before = registers.requests.length;
    const typo = await buyer.post("/api/tax/vat-check", { country: "DE", taxId: "DE136695977" });
    expect(typo.json()).toEqual({ vatNumber: null, check: null });
    // A GSTIN is no VAT number: no register is asked.
    const gstin = await buyer.post("/api/tax/vat-check", { country: "IN", taxId: "27AAPFU0939F1ZV" });
    expect(gstin.json()).toEqual({ vatNumber: null, check: null });
    expect(registers.requests.length).toBe(before);
  });
});

describe("without HMRC credentials (zero configuration)", () => {
  let bare: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    bare = await createTestApp({ seed: true, env: { VIES_API_BASE: registers.viesUrl } });
  });
  afterAll(() => bare?.close());

  test("a UK number cannot be confirmed: 20% VAT, and the checkout and order say it is unverified", async () => {
    const client = await signedInClient(bare.app, "buyer@stackbay.test", DEMO_PASSWORD);
    const before = registers.requests.filter((r) => r.register === "HMRC").length;
    const check = await client.post("/api/tax/vat-check", { country: "GB", taxId: REGISTERED_GB });
    expect(check.json()).toMatchObject({ check: { register: "HMRC", status: "unchecked" } });
    const [made] = await bare.db
      .insert(products)
      .values({ name: "VAT Seat", category: "software", price: "100", vendor: "Acme" })
      .returning({ id: products.id });
    const res = await client.post("/api/orders", {
      ...order("GB", REGISTERED_GB),
      items: [{ productId: made?.id, quantity: 1, price: 100 }],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(await getOrder(client, res.json().orderId)).toMatchObject({
      tax: 20,
      reverseCharge: false,
      taxNote: vatChargedNote({ register: "HMRC", status: "unchecked" }),
      vatCheck: { register: "HMRC", status: "unchecked", reference: null },
    });
    // Nothing was asked of HMRC, and nothing is kept.
    expect(registers.requests.filter((r) => r.register === "HMRC").length).toBe(before);
    expect(await bare.db.select().from(vatChecks)).toEqual([]);
  });
});
