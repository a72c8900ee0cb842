import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { HeldCommissionList } from "#domain/commission-holds";
import { DAY_MS } from "#domain/dates";
import type { ResellerLinks } from "#domain/referrals";
import { commissions, resellerFingerprints } from "#server/db/schema/after-sale";
import { auditLog } from "#server/db/schema/audit";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { orderItems } from "#server/db/schema/orders";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { cancelCommissionForItem, settleCommissions } from "#server/modules/referrals/service";
import { createTestApp } from "#server/test/app";
import { createClient, createVerifiedAccount, signedInClient } from "#server/test/client";
import { placeAndPay } from "#server/test/orders";

type Client = ReturnType<typeof createClient>;

// Documentation ranges (RFC 5737): routable-looking addresses that belong to nobody.
const HOME = "203.0.113.10";
const CAFE = "198.51.100.20";
const TRAIN = "192.0.2.55";
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0";
const SAFARI =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Version/18.0 Safari/605.1.15";
const CHROME =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0 Safari/537.36";

let t: Awaited<ReturnType<typeof createTestApp>>;
let productId: string;
let code: string;
let resellerId: string;

/** Signs `email` in from an address and browser of our choosing, as the reseller would from home. */
async function signInFrom(email: string, password: string, ip: string, agent: string): Promise<Client> {
  const client = createClient(t.app, ip, agent);
  const res = await client.post("/api/auth/sign-in", { email, password });
  expect(res.statusCode, res.body).toBe(200);
  return client;
}

/** A second account: signs up, then follows the link and buys from the given address and browser. */
async function buyThroughLink(options: { ip: string; agent: string; email?: string; withCode?: string }) {
  const person = await createVerifiedAccount(t.app, t.dataDir, {
    email: options.email ?? `second-${randomUUID()}@gmail.com`,
  });
  const buyer = await signInFrom(person.email, person.password, options.ip, options.agent);
  const visit = await buyer.post("/api/referrals/visit", { code: options.withCode ?? code, productId });
  expect(visit.json()).toEqual({ counted: true });
  const order = await placeAndPay(t.app, buyer, {
    email: person.email,
    paymentMethod: "paypal",
    items: [{ productId, price: 100 }],
  });
  return order.id;
}

async function commissionOf(orderId: string) {
  const [row] = await t.db
    .select({
      id: commissions.id,
      status: commissions.status,
      holdReasons: commissions.holdReasons,
      eligibleAt: commissions.eligibleAt,
      orderItemId: commissions.orderItemId,
    })
    .from(commissions)
    .where(eq(commissions.orderId, orderId));
  if (!row) throw new Error(`no commission on order ${orderId}`);
  return row;
}

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  const [made] = await t.db
    .insert(products)
    .values({ name: "Hold Suite", category: "software", price: "100", vendor: "Acme", isResellable: true })
    .returning({ id: products.id });
  productId = made?.id ?? "";
  const [row] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, "reseller@stackbay.test"));
  resellerId = row?.id ?? "";
  // The reseller signs in at home with Firefox and reads their links there.
  const reseller = await signInFrom("reseller@stackbay.test", DEMO_PASSWORD, HOME, FIREFOX);
  code = ((await reseller.get("/api/reseller/links?pageSize=100")).json() as ResellerLinks).code;
});
afterAll(() => t.close());

describe("self-referral through a second account", () => {
  test("a second account buying from the reseller's sign-in address and browser is held, with both reasons", async () => {
    const orderId = await buyThroughLink({ ip: HOME, agent: FIREFOX });
    const row = await commissionOf(orderId);
    expect(row.status).toBe("held");
    expect(row.holdReasons).toEqual([{ code: "same_device" }, { code: "same_network" }]);
  });

  test("the same address in another browser is held for the shared network only", async () => {
    const row = await commissionOf(await buyThroughLink({ ip: HOME, agent: SAFARI }));
    expect(row).toMatchObject({ status: "held", holdReasons: [{ code: "same_network" }] });
  });

  test("another address and browser with a public mail address earns a pending commission as before", async () => {
    const row = await commissionOf(await buyThroughLink({ ip: CAFE, agent: SAFARI }));
    expect(row).toMatchObject({ status: "pending", holdReasons: null });
  });

  test("where the reseller visited their own link counts like a sign-in", async () => {
    const session = await signedInClient(t.app, "reseller@stackbay.test", DEMO_PASSWORD);
    const onTheTrain = createClient(t.app, TRAIN, CHROME);
    for (const [name, value] of session.jar) onTheTrain.jar.set(name, value);
    const own = await onTheTrain.post("/api/referrals/visit", { code, productId });
    expect(own.json()).toEqual({ counted: false });

    const row = await commissionOf(await buyThroughLink({ ip: TRAIN, agent: CHROME }));
    expect(row).toMatchObject({
      status: "held",
      holdReasons: [{ code: "same_device" }, { code: "same_network" }],
    });
  });

  test("local addresses (a laptop, a proxy without TRUST_PROXY) are never compared", async () => {
    await signInFrom("reseller@stackbay.test", DEMO_PASSWORD, "127.0.0.1", CHROME);
    const row = await commissionOf(await buyThroughLink({ ip: "127.0.0.1", agent: CHROME }));
    expect(row.status).toBe("pending");
  });

  test("a buyer on the reseller's own company domain is held, whatever the device", async () => {
    const domain = `acme-${randomUUID().slice(0, 8)}.io`;
    const company = await createVerifiedAccount(t.app, t.dataDir, { email: `rex@${domain}` });
    await t.db.update(user).set({ isReseller: true }).where(eq(user.email, company.email));
    const companyReseller = await signedInClient(t.app, company.email, company.password);
    const companyCode = (
      (await companyReseller.get("/api/reseller/links?pageSize=100")).json() as ResellerLinks
    ).code;

    const row = await commissionOf(
      await buyThroughLink({ ip: CAFE, agent: FIREFOX, email: `bob@sales.${domain}`, withCode: companyCode }),
    );
    expect(row).toMatchObject({ status: "held", holdReasons: [{ code: "own_email_domain", domain }] });
  });

  test("only keyed hashes of where the reseller was are kept, never an address", async () => {
    const rows = await t.db
      .select()
      .from(resellerFingerprints)
      .where(eq(resellerFingerprints.userId, resellerId));
    expect(new Set(rows.map((r) => r.kind))).toEqual(new Set(["device", "network"]));
    for (const r of rows) expect(r.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toMatch(/203\.0\.113|192\.0\.2|Firefox/);
  });

  test("the reseller sees held commission as on hold, apart from pending", async () => {
    const reseller = await signedInClient(t.app, "reseller@stackbay.test", DEMO_PASSWORD);
    const links = (await reseller.get("/api/reseller/links?pageSize=100")).json() as ResellerLinks;
    const item = links.items.find((i) => i.productId === productId);
    // Three held orders of 100 × 10%; two pending (another device, a local address).
    expect(item?.commission).toEqual({ pending: 20, held: 30, approved: 0, cancelled: 0 });
    expect(links.totals).toMatchObject({ pending: 20, held: 30 });
  });

  test("settlement leaves held commissions alone, however late", async () => {
    await settleCommissions(t.db, new Date(Date.now() + 400 * DAY_MS));
    const held = await t.db
      .select({ id: commissions.id })
      .from(commissions)
      .where(eq(commissions.status, "held"));
    expect(held).toHaveLength(4);
  });
});

describe("admin review of held commissions", () => {
  let admin: Client;
  let list: HeldCommissionList;

  beforeAll(async () => {
    admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
  });

  test("admins list held commissions with order, reseller, buyer, product, amount and reasons", async () => {
    const res = await admin.get("/api/admin/commissions?status=held");
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("private, no-store");
    list = res.json();
    expect(list).toMatchObject({ total: 4, page: 1, pageSize: 25 });
    const first = list.items.find((i) => i.reasons.some((r) => r.code === "same_device"));
    expect(first).toMatchObject({
      resellerEmail: "reseller@stackbay.test",
      productName: "Hold Suite",
      amount: 10,
      status: "held",
    });
    expect(first?.buyerEmail).toMatch(/^second-.*@gmail\.com$/);
    expect(first?.orderId).toMatch(/^[0-9a-f-]{36}$/);
    // Newest first.
    const times = list.items.map((i) => i.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    // The default status is held.
    expect(((await admin.get("/api/admin/commissions")).json() as HeldCommissionList).total).toBe(4);
  });

  test("buyers, sellers and resellers get 403, strangers 401", async () => {
    const id = list.items[0]?.id ?? "";
    for (const who of ["buyer", "seller", "reseller"]) {
      const client = await signedInClient(t.app, `${who}@stackbay.test`, DEMO_PASSWORD);
      expect((await client.get("/api/admin/commissions")).statusCode, who).toBe(403);
      const res = await client.post(`/api/admin/commissions/${id}/decision`, { decision: "release" });
      expect(res.statusCode, who).toBe(403);
    }
    expect((await createClient(t.app).get("/api/admin/commissions")).statusCode).toBe(401);
    expect((await commissionOf(list.items[0]?.orderId ?? "")).status).toBe("held");
  });

  test("release: pending until the refund window has passed, then approved; audited", async () => {
    const target = list.items[0];
    const res = await admin.post(`/api/admin/commissions/${target?.id}/decision`, {
      decision: "release",
      note: "Office colleague, checked",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ commission: { id: target?.id, status: "pending" } });
    const row = await commissionOf(target?.orderId ?? "");
    expect(row.status).toBe("pending");
    expect(row.holdReasons?.length).toBeGreaterThan(0);

    expect(await settleCommissions(t.db, new Date(Date.now() + 13 * DAY_MS))).toBe(0);
    await settleCommissions(t.db, new Date(Date.now() + 15 * DAY_MS));
    expect((await commissionOf(target?.orderId ?? "")).status).toBe("approved");

    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, "commission"), eq(auditLog.entityId, target?.id ?? "")));
    expect(entry).toMatchObject({ actorEmail: "admin@stackbay.test", action: "update" });
    expect(entry?.changes).toMatchObject({
      status: { before: "held", after: "pending" },
      note: { after: "Office colleague, checked" },
    });
  });

  test("reject cancels; deciding twice, or on a commission that is not held, is a conflict", async () => {
    const target = list.items[1];
    const url = `/api/admin/commissions/${target?.id}/decision`;
    const res = await admin.post(url, { decision: "reject" });
    expect(res.json()).toEqual({ commission: { id: target?.id, status: "cancelled" } });
    expect((await commissionOf(target?.orderId ?? "")).status).toBe("cancelled");

    for (const decision of ["reject", "release"]) {
      const again = await admin.post(url, { decision });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ code: "COMMISSION_NOT_HELD" });
    }
    const unknown = await admin.post(`/api/admin/commissions/${randomUUID()}/decision`, {
      decision: "reject",
    });
    expect(unknown.statusCode).toBe(404);
    const bad = await admin.post(url, { decision: "approve" });
    expect(bad.statusCode).toBe(400);

    const remaining = (await admin.get("/api/admin/commissions?status=held")).json() as HeldCommissionList;
    expect(remaining.total).toBe(2);
    const cancelled = (
      await admin.get("/api/admin/commissions?status=cancelled")
    ).json() as HeldCommissionList;
    expect(cancelled.items.map((i) => i.id)).toContain(target?.id);
  });

  test("a refund cancels a held commission too", async () => {
    const target = list.items[2];
    const row = await commissionOf(target?.orderId ?? "");
    const [item] = await t.db
      .select({ id: orderItems.id })
      .from(orderItems)
      .where(eq(orderItems.id, row.orderItemId));
    await t.db.transaction((tx) => cancelCommissionForItem(tx, item?.id ?? "", new Date()));
    expect((await commissionOf(target?.orderId ?? "")).status).toBe("cancelled");
  });
});
