import { createPublicKey, verify } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DAY_MS } from "#domain/dates";
import type {
  License,
  LicenseFile,
  LicenseFilePayload,
  LicenseKeySet,
  SellerLicenseDetail,
  SellerLicensePage,
} from "#domain/license-schemas";
import { unpaidRenewalEndsAt } from "#domain/subscriptions";
import { licenseActivations, licenses } from "#server/db/schema/after-sale";
import { auditLog } from "#server/db/schema/audit";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { subscriptions } from "#server/db/schema/subscriptions";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import type { AdjustableClock } from "#server/lib/clock";
import { licenseDepsOf, staleActivationsJob } from "#server/modules/licenses/service";
import { createTestApp } from "#server/test/app";
import { type createClient, createVerifiedAccount, signedInClient } from "#server/test/client";
import { placeAndPay } from "#server/test/orders";

type Client = ReturnType<typeof createClient>;

let t: Awaited<ReturnType<typeof createTestApp>>;
let clock: AdjustableClock;
let buyer: Client;
let stranger: Client;
let seller: Client;
let otherSeller: Client;
const ids: Record<string, string> = {};
const prices: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  clock = t.app.clock as AdjustableClock;
  buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
  seller = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
  const person = await createVerifiedAccount(t.app, t.dataDir, { email: "stranger@example.com" });
  stranger = await signedInClient(t.app, person.email, person.password);
  const vendor = await createVerifiedAccount(t.app, t.dataDir, {
    email: "other-vendor@example.com",
    accountType: "seller",
  });
  otherSeller = await signedInClient(t.app, vendor.email, vendor.password);
  const sellerIdOf = async (email: string) =>
    (await t.db.select({ id: user.id }).from(user).where(eq(user.email, email)))[0]?.id ?? "";
  const sellerId = await sellerIdOf("seller@stackbay.test");
  const otherId = await sellerIdOf(vendor.email);
  const made = await t.db
    .insert(products)
    .values([
      { name: "Desk Tool", category: "software", price: "20", vendor: "Acme", sellerId },
      {
        name: "Cloud Tool",
        category: "saas",
        price: "9",
        pricingUnit: "month",
        vendor: "Acme",
        sellerId,
      },
      { name: "Rival Tool", category: "software", price: "15", vendor: "Rival", sellerId: otherId },
    ])
    .returning({ id: products.id, name: products.name, price: products.price });
  for (const row of made) {
    ids[row.name] = row.id;
    prices[row.name] = Number(row.price);
  }
});
afterAll(async () => {
  clock.reset();
  await t.close();
});

/** Buys one unit of each product named and answers its licences by product name. */
async function buy(client: Client, names: string[]) {
  const order = await placeAndPay(t.app, client, {
    items: names.map((name) => ({ productId: ids[name] ?? "", quantity: 1, price: prices[name] ?? 0 })),
  });
  const rows = await t.db.select().from(licenses).where(eq(licenses.orderId, order.id));
  return Object.fromEntries(rows.map((row) => [row.productName, row]));
}

async function licenseBought(client: Client, name: string) {
  const row = (await buy(client, [name]))[name];
  if (!row) throw new Error(`no licence for ${name}`);
  return row;
}

let address = 0;
/** A call of vendors' software: no cookie, an address of its own (each address has its own limit). */
function software(url: string, payload: object) {
  return t.app.inject({ method: "POST", url, payload, remoteAddress: `10.88.${++address % 250}.7` });
}
const activate = (key: string, machine: string, label?: string) =>
  software("/api/licenses/activate", { key, machine, ...(label === undefined ? {} : { label }) });
const validate = (key: string, machine?: string) =>
  software("/api/licenses/validate", { key, ...(machine === undefined ? {} : { machine }) });
const deactivate = (key: string, machine: string) => software("/api/licenses/deactivate", { key, machine });

describe("activations by vendors' software", () => {
  test("a key takes one machine per seat; the same machine again takes no new seat; deactivating frees it", async () => {
    const license = await licenseBought(buyer, "Desk Tool");
    expect(license.seats).toBe(1);
    const first = await activate(license.key.toLowerCase(), "machine-a", "  Office PC ");
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      valid: true,
      status: "active",
      product: "Desk Tool",
      seats: 1,
      seatsUsed: 1,
      activation: { machine: "machine-a", label: "Office PC" },
    });
    clock.advance(60_000);
    const again = await activate(license.key, "machine-a", "Renamed PC");
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ seatsUsed: 1, activation: { label: "Renamed PC" } });
    expect(again.json().activation.activatedAt).toBe(first.json().activation.activatedAt);
    expect(Date.parse(again.json().activation.lastSeenAt)).toBeGreaterThan(
      Date.parse(first.json().activation.lastSeenAt),
    );

    const full = await activate(license.key, "machine-b");
    expect(full.statusCode).toBe(409);
    expect(full.json().code).toBe("LICENSE_SEATS_FULL");

    // A check with a machine says whether it is activated, and records its check-in.
    clock.advance(60_000);
    expect((await validate(license.key, "machine-a")).json()).toMatchObject({
      valid: true,
      seats: 1,
      seatsUsed: 1,
      activated: true,
    });
    const [seen] = await t.db
      .select()
      .from(licenseActivations)
      .where(eq(licenseActivations.licenseId, license.id));
    expect(seen?.lastSeenAt.getTime()).toBeGreaterThan(Date.parse(again.json().activation.lastSeenAt));
    expect((await validate(license.key, "machine-b")).json()).toMatchObject({ activated: false });
    expect((await validate(license.key)).json()).toMatchObject({ activated: null });

    expect((await deactivate(license.key, "machine-b")).json().code).toBe("LICENSE_ACTIVATION_NOT_FOUND");
    const freed = await deactivate(license.key, "machine-a");
    expect(freed.statusCode).toBe(200);
    expect(freed.json()).toEqual({ seats: 1, seatsUsed: 0 });
    expect((await activate(license.key, "machine-b")).statusCode).toBe(200);
  });

  test("ten machines activating a three-seat licence at once: exactly three get seats", async () => {
    const license = await licenseBought(buyer, "Desk Tool");
    await t.db.update(licenses).set({ seats: 3 }).where(eq(licenses.id, license.id));
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => activate(license.key, `racer-${i}`, `Racer ${i}`)),
    );
    const statuses = answers.map((res) => res.statusCode).sort();
    expect(statuses).toEqual([200, 200, 200, 409, 409, 409, 409, 409, 409, 409]);
    for (const res of answers.filter((r) => r.statusCode === 409))
      expect(res.json().code).toBe("LICENSE_SEATS_FULL");
    const rows = await t.db
      .select()
      .from(licenseActivations)
      .where(eq(licenseActivations.licenseId, license.id));
    expect(rows).toHaveLength(3);
  });

  test("bad input is refused on its field; an unknown key is not found; a key not valid is not activated", async () => {
    const license = await licenseBought(buyer, "Desk Tool");
    const empty = await activate(license.key, "");
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details).toEqual([
      { path: "machine", message: "The machine's identifier is required" },
    ]);
    expect((await activate(license.key, "m".repeat(201))).statusCode).toBe(400);
    expect((await activate(license.key, "m".repeat(200))).statusCode).toBe(200);
    const longLabel = await activate(license.key, "other", "l".repeat(101));
    expect(longLabel.statusCode).toBe(400);
    expect(longLabel.json().details[0].path).toBe("label");
    expect((await software("/api/licenses/activate", { key: license.key })).statusCode).toBe(400);

    for (const key of ["ABCD-EFGH-JKMN-PQRS", "not a key"]) {
      const unknown = await activate(key, "m1");
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().code).toBe("LICENSE_NOT_FOUND");
      expect((await deactivate(key, "m1")).json().code).toBe("LICENSE_NOT_FOUND");
    }

    await t.db
      .update(licenses)
      .set({ status: "revoked", revokedAt: clock.now() })
      .where(eq(licenses.id, license.id));
    const revoked = await activate(license.key, "m2");
    expect(revoked.statusCode).toBe(409);
    expect(revoked.json().code).toBe("LICENSE_NOT_VALID");
    // A revoked key still frees its machines.
    expect((await deactivate(license.key, "m".repeat(200))).statusCode).toBe(200);
  });

  test("the daily job frees machines not seen for LICENSE_ACTIVATION_STALE_DAYS days, and keeps the others", async () => {
    const license = await licenseBought(buyer, "Desk Tool");
    await t.db.update(licenses).set({ seats: 2 }).where(eq(licenses.id, license.id));
    expect((await activate(license.key, "old-laptop")).statusCode).toBe(200);
    clock.advance(20 * DAY_MS);
    expect((await activate(license.key, "new-laptop")).statusCode).toBe(200);
    clock.advance(10 * DAY_MS + 60_000);
    const deps = licenseDepsOf(t.app);
    expect(deps.staleDays).toBe(30);
    await staleActivationsJob(deps).run(undefined as never, { id: "test", retryCount: 0 });
    const left = await t.db
      .select({ machine: licenseActivations.machine })
      .from(licenseActivations)
      .where(eq(licenseActivations.licenseId, license.id));
    expect(left.map((row) => row.machine)).toEqual(["new-laptop"]);
    expect((await validate(license.key, "old-laptop")).json()).toMatchObject({
      activated: false,
      seatsUsed: 1,
    });
  });
});

describe("the buyer's activations", () => {
  test("the list shows each licence's seats and machines; the owner deactivates one, anyone else gets 404", async () => {
    const license = await licenseBought(buyer, "Desk Tool");
    await activate(license.key, "studio-mac", "Studio Mac");
    const listed = ((await buyer.get("/api/licenses")).json().items as License[]).find(
      (l) => l.id === license.id,
    );
    expect(listed).toMatchObject({
      seats: 1,
      activations: [{ machine: "studio-mac", label: "Studio Mac" }],
    });
    const activationId = listed?.activations[0]?.id ?? "";
    const url = `/api/licenses/${license.id}/activations/${activationId}`;

    const foreign = await stranger.request("DELETE", url);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe("LICENSE_NOT_FOUND");
    expect((await t.app.inject({ method: "DELETE", url })).statusCode).toBe(401);
    expect((await buyer.request("DELETE", `/api/licenses/${license.id}/activations/nope`)).statusCode).toBe(
      400,
    );

    const done = await buyer.request("DELETE", url);
    expect(done.statusCode).toBe(200);
    expect((done.json() as License).activations).toEqual([]);
    const twice = await buyer.request("DELETE", url);
    expect(twice.statusCode).toBe(404);
    expect(twice.json().code).toBe("LICENSE_ACTIVATION_NOT_FOUND");
  });
});

describe("signed offline licences", () => {
  async function publishedKey(kid: string) {
    const res = await t.app.inject({ method: "GET", url: "/.well-known/stackbay-license-keys.json" });
    expect(res.statusCode).toBe(200);
    const set = res.json() as LicenseKeySet;
    const jwk = set.keys.find((key) => key.kid === kid);
    if (!jwk) throw new Error("the file's key is not published");
    expect(jwk).toMatchObject({ kty: "OKP", crv: "Ed25519" });
    return createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: "jwk" });
  }

  test("a perpetual licence's file never expires, verifies with the published key, and fails when one byte changes", async () => {
    const license = await licenseBought(buyer, "Desk Tool");
    const res = await buyer.get(`/api/licenses/${license.id}/file`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-disposition"]).toBe(
      `attachment; filename="stackbay-license-${license.key}.json"`,
    );
    const file = res.json() as LicenseFile;
    const payload = JSON.parse(file.payload) as LicenseFilePayload;
    expect(payload).toMatchObject({
      licenseId: license.id,
      key: license.key,
      productId: ids["Desk Tool"],
      productName: "Desk Tool",
      seats: 1,
      status: "active",
      expiresAt: null,
    });
    const publicKey = await publishedKey(file.kid);
    const signature = Buffer.from(file.signature, "base64");
    expect(verify(null, Buffer.from(file.payload), publicKey, signature)).toBe(true);
    const tampered = Buffer.from(file.payload);
    tampered[tampered.length - 2] = (tampered[tampered.length - 2] ?? 0) ^ 1;
    expect(verify(null, tampered, publicKey, signature)).toBe(false);
    expect(
      verify(
        null,
        Buffer.from(file.payload.replace(license.key, "7KQ2-M9XH-4TRW-PBC3")),
        publicKey,
        signature,
      ),
    ).toBe(false);
  });

  test("a subscription's file expires with its paid period plus the grace of an unpaid renewal", async () => {
    const license = await licenseBought(buyer, "Cloud Tool");
    const [subscription] = await t.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.orderItemId, license.orderItemId));
    if (!subscription) throw new Error("a monthly SaaS starts a subscription");
    const file = (await buyer.get(`/api/licenses/${license.id}/file`)).json() as LicenseFile;
    const payload = JSON.parse(file.payload) as LicenseFilePayload;
    expect(payload.expiresAt).toBe(unpaidRenewalEndsAt(subscription.paidThrough).toISOString());
    expect(Date.parse(payload.expiresAt ?? "")).toBeGreaterThan(subscription.paidThrough.getTime());
  });

  test("another buyer's licence is not found; a revoked or suspended licence has no file", async () => {
    const license = await licenseBought(buyer, "Desk Tool");
    const foreign = await stranger.get(`/api/licenses/${license.id}/file`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe("LICENSE_NOT_FOUND");
    await t.db.update(licenses).set({ status: "suspended" }).where(eq(licenses.id, license.id));
    const suspended = await buyer.get(`/api/licenses/${license.id}/file`);
    expect(suspended.statusCode).toBe(409);
    expect(suspended.json()).toMatchObject({ code: "LICENSE_NOT_VALID" });
    expect(suspended.json().message).toContain("suspended");
    await t.db.update(licenses).set({ status: "revoked" }).where(eq(licenses.id, license.id));
    expect((await buyer.get(`/api/licenses/${license.id}/file`)).json().code).toBe("LICENSE_NOT_VALID");
  });
});

describe("the seller API's licence operations", () => {
  let writer: string;
  let reader: string;
  let sold: Awaited<ReturnType<typeof licenseBought>>;
  let rival: Awaited<ReturnType<typeof licenseBought>>;

  async function makeKey(client: Client, scopes: string[]) {
    const res = await client.post("/api/seller-api/keys", { name: `Licences ${scopes.join(",")}`, scopes });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { key: { id: string }; secret: string };
  }
  const call = (key: string, method: "GET" | "POST" | "DELETE", url: string) =>
    t.app.inject({
      method,
      url,
      remoteAddress: `10.99.${++address % 250}.3`,
      headers: { authorization: `Bearer ${key}` },
    });

  beforeAll(async () => {
    writer = (await makeKey(seller, ["licenses:write"])).secret;
    reader = (await makeKey(seller, ["orders:read"])).secret;
    sold = await licenseBought(buyer, "Desk Tool");
    rival = await licenseBought(buyer, "Rival Tool");
    await activate(sold.key, "till-1", "Till 1");
  });

  test("the list holds the seller's own licences with their seats in use; another seller's licence is not found", async () => {
    const res = await call(writer, "GET", "/api/seller/v1/licenses");
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as SellerLicensePage;
    expect(page).toMatchObject({ page: 1, pageSize: 50 });
    const mine = page.items.find((l) => l.id === sold.id);
    expect(mine).toMatchObject({ key: sold.key, status: "active", seats: 1, seatsUsed: 1 });
    expect(page.items.some((l) => l.id === rival.id)).toBe(false);
    expect(page.total).toBe(page.items.length);

    const one = await call(writer, "GET", `/api/seller/v1/licenses/${sold.id}`);
    expect((one.json() as SellerLicenseDetail).activations).toMatchObject([
      { machine: "till-1", label: "Till 1" },
    ]);
    const foreign = await call(writer, "GET", `/api/seller/v1/licenses/${rival.id}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe("LICENSE_NOT_FOUND");
    expect((await call(writer, "POST", `/api/seller/v1/licenses/${rival.id}/suspend`)).statusCode).toBe(404);
    expect((await call(writer, "GET", "/api/seller/v1/licenses/not-an-id")).statusCode).toBe(400);
  });

  test("a key without the scope is refused 403, a revoked key 401, a session 401", async () => {
    const scoped = await call(reader, "GET", "/api/seller/v1/licenses");
    expect(scoped.statusCode).toBe(403);
    expect(scoped.json().code).toBe("API_KEY_SCOPE");
    expect(scoped.json().message).toContain("Manage licenses");
    const doomed = await makeKey(seller, ["licenses:write"]);
    expect((await seller.request("DELETE", `/api/seller-api/keys/${doomed.key.id}`)).statusCode).toBe(200);
    const revoked = await call(doomed.secret, "POST", `/api/seller/v1/licenses/${sold.id}/suspend`);
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json().code).toBe("API_KEY_INVALID");
    expect((await seller.get("/api/seller/v1/licenses")).statusCode).toBe(401);
    expect((await otherSeller.get("/api/seller/v1/licenses")).statusCode).toBe(401);
  });

  test("suspending makes checks answer suspended and refuses activation; reinstating undoes it; both are audited", async () => {
    const suspended = await call(writer, "POST", `/api/seller/v1/licenses/${sold.id}/suspend`);
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect(suspended.json()).toMatchObject({ status: "suspended", seatsUsed: 1 });
    expect(suspended.json().suspendedAt).not.toBeNull();
    expect((await validate(sold.key)).json()).toMatchObject({ valid: false, status: "suspended" });
    expect((await activate(sold.key, "till-2")).json().code).toBe("LICENSE_NOT_VALID");
    // Suspending again changes nothing and writes nothing.
    expect((await call(writer, "POST", `/api/seller/v1/licenses/${sold.id}/suspend`)).json().status).toBe(
      "suspended",
    );
    // The buyer sees it suspended.
    const listed = ((await buyer.get("/api/licenses")).json().items as License[]).find(
      (l) => l.id === sold.id,
    );
    expect(listed?.status).toBe("suspended");

    const reinstated = await call(writer, "POST", `/api/seller/v1/licenses/${sold.id}/reinstate`);
    expect(reinstated.json()).toMatchObject({ status: "active", suspendedAt: null });
    expect((await validate(sold.key)).json()).toMatchObject({ valid: true, status: "active" });

    const audits = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, "license"), eq(auditLog.entityId, sold.id)));
    expect(audits.map((a) => a.changes)).toEqual([
      { status: { before: "active", after: "suspended" } },
      { status: { before: "suspended", after: "active" } },
    ]);
    expect(JSON.stringify(audits)).not.toContain(sold.key);
  });

  test("a revoked licence cannot be suspended or reinstated", async () => {
    const gone = await licenseBought(buyer, "Desk Tool");
    await t.db
      .update(licenses)
      .set({ status: "revoked", revokedAt: clock.now() })
      .where(eq(licenses.id, gone.id));
    for (const action of ["suspend", "reinstate"]) {
      const res = await call(writer, "POST", `/api/seller/v1/licenses/${gone.id}/${action}`);
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe("LICENSE_REVOKED");
    }
  });

  test("the seller deactivates a machine; the calls are in the access log", async () => {
    const detail = (
      await call(writer, "GET", `/api/seller/v1/licenses/${sold.id}`)
    ).json() as SellerLicenseDetail;
    const activationId = detail.activations[0]?.id ?? "";
    const url = `/api/seller/v1/licenses/${sold.id}/activations/${activationId}`;
    const done = await call(writer, "DELETE", url);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ seatsUsed: 0, activations: [] });
    const again = await call(writer, "DELETE", url);
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe("LICENSE_ACTIVATION_NOT_FOUND");
    const log = (await seller.get("/api/seller-api/calls")).json().items as { operation: string }[];
    expect(log.map((c) => c.operation)).toContain("DELETE /seller/v1/licenses/:id/activations/:activationId");
    expect(log.map((c) => c.operation)).toContain("POST /seller/v1/licenses/:id/suspend");
  });
});
