import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Subscription } from "#domain/subscription-schemas";
import {
  licenseActivations,
  licenses,
  referralClicks,
  resellerCodes,
  resellerFingerprints,
} from "#server/db/schema/after-sale";
import { auditLog } from "#server/db/schema/audit";
import { emailCodeSends, session, twoFactor, user } from "#server/db/schema/auth";
import { products, storefrontChanges, storefronts } from "#server/db/schema/catalog";
import { newsletterSubscriptions } from "#server/db/schema/inbound";
import { notifications } from "#server/db/schema/notifications";
import { orders, savedItems } from "#server/db/schema/orders";
import { payoutAccounts } from "#server/db/schema/payouts";
import { productQuestions, questionReports } from "#server/db/schema/questions";
import { reviewReports, reviews } from "#server/db/schema/reviews";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp, queryRows } from "#server/test/app";
import { createClient, createVerifiedAccount, signedInClient } from "#server/test/client";
import { placeOrder } from "#server/test/orders";
import { readOutbox } from "#server/test/outbox";
import { payOrder, saveTestMethod } from "#server/test/payments";

let t: Awaited<ReturnType<typeof createTestApp>>;
let productId = "";
beforeAll(async () => {
  t = await createTestApp({ seed: true });
  const [made] = await t.db
    .insert(products)
    .values({ name: "Privacy Seat", category: "software", price: "19.99", vendor: "Acme" })
    .returning({ id: products.id });
  productId = made?.id ?? "";
});
afterAll(() => t.close());

type Client = ReturnType<typeof createClient>;
let n = 0;
async function newBuyer(accountType: "buyer" | "seller" = "buyer") {
  const email = `privacy.${++n}.${Date.now()}@example.com`;
  const { password } = await createVerifiedAccount(t.app, t.dataDir, { email, accountType });
  return { email, password, client: await signedInClient(t.app, email, password) };
}

async function placeAs(client: Client, email: string) {
  return (
    await placeOrder(client, { fullName: "Priya Private", email, items: [{ productId, price: 19.99 }] })
  ).orderId;
}

const orderRow = async (id: string) => (await t.db.select().from(orders).where(eq(orders.id, id)))[0];

describe("download my data", () => {
  test("a file with the person's own data only, keys masked and no secrets", async () => {
    const { email, client } = await newBuyer();
    const paid = await placeAs(client, email);
    await payOrder(t.app, client, paid);
    expect((await client.patch("/api/me/preferences", { theme: "system" })).statusCode).toBe(200);
    const other = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
    const othersOrder = await placeAs(other, "buyer@stackbay.test");

    const res = await client.get("/api/me/export");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-disposition"]).toMatch(
      /^attachment; filename="stackbay-my-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(res.headers["cache-control"]).toBe("private, no-store");
    const data = res.json();
    expect(data.profile).toMatchObject({ email, preferences: { theme: "system" } });
    expect(data.orders).toHaveLength(1);
    expect(data.orders[0]).toMatchObject({ id: paid, customerInfo: { fullName: "Priya Private" } });
    expect(data.orders[0].items).toEqual([
      expect.objectContaining({ productName: "Privacy Seat", quantity: 1 }),
    ]);

    const [license] = await t.db.select().from(licenses).where(eq(licenses.orderId, paid));
    expect(data.licenses).toHaveLength(1);
    expect(data.licenses[0].key).toBe(`••••${license?.key.slice(-4)}`);
    const body = res.body;
    expect(body).not.toContain(license?.key);
    expect(body).not.toContain(othersOrder);
    expect(body).not.toContain("buyer@stackbay.test");
    expect(body).not.toMatch(/\$argon2|password|secret|token|idempotency/i);
    const [sessionRow] = await t.db.select().from(session).limit(1);
    expect(body).not.toContain(sessionRow?.token);
  });
});

describe("delete my account", () => {
  test("refused with an open order, then allowed once it is settled; the person is erased and signed out", async () => {
    const { email, password, client } = await newBuyer();
    const invoiced = await placeAs(client, email);
    await payOrder(t.app, client, invoiced);
    const open = await placeAs(client, email);
    const me = (await client.get("/api/me")).json().user;

    const wrong = await client.request("DELETE", "/api/me", { password: "not my password" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe("INVALID_PASSWORD");

    const refused = await client.request("DELETE", "/api/me", { password });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: "ACCOUNT_DELETION_BLOCKED",
      message: `Your order #${open.slice(0, 8).toUpperCase()} is still awaiting payment. Your account can be deleted once it is paid, cancelled or expired.`,
      details: { reason: "order_in_progress" },
    });
    expect((await client.get("/api/me")).json().user.email).toBe(email);

    // The buyer cancels on the payment page: the order is settled as failed.
    expect((await payOrder(t.app, client, open, "cancel")).paymentStatus).toBe("failed");
    const otherBefore = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
    const othersMe = (await otherBefore.get("/api/me")).json().user;

    const deleted = await client.request("DELETE", "/api/me", { password });
    expect(deleted.statusCode).toBe(204);
    const cleared = deleted.cookies.find((c) => c.name === "stackbay.session_token");
    expect(cleared?.value).toBe("");
    expect((await client.get("/api/me")).json()).toEqual({ user: null });
    expect(await t.db.select().from(session).where(eq(session.userId, me.id))).toEqual([]);

    const [row] = await t.db.select().from(user).where(eq(user.id, me.id));
    expect(row).toMatchObject({
      firstName: "Former customer",
      lastName: "",
      phone: null,
      banned: true,
      isBuyer: false,
    });
    expect(row?.email).toMatch(/^deleted-[0-9a-f-]{36}@deleted\.stackbay\.invalid$/);
    // The issued invoice stays as issued; the order that never got one loses the person's details.
    expect((await orderRow(invoiced))?.customerInfo).toMatchObject({ fullName: "Priya Private", email });
    expect((await orderRow(open))?.customerInfo).toEqual({
      fullName: "Former customer",
      email: row?.email,
      address: "",
      city: "",
      country: "",
    });
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.entityId, me.id));
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toContain(email);

    const login = await createClient(t.app).post("/api/auth/sign-in", { email, password });
    expect(login.statusCode).toBe(401);
    expect(login.json().code).toBe("INVALID_CREDENTIALS");
    // The address is free again: a new, separate account.
    await createVerifiedAccount(t.app, t.dataDir, { email, password: "a brand new password" });
    const again = await signedInClient(t.app, email, "a brand new password");
    const newMe = (await again.get("/api/me")).json().user;
    expect(newMe.id).not.toBe(me.id);
    expect(newMe.firstName).toBe("Test");

    const otherAfter = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
    expect((await otherAfter.get("/api/me")).json().user).toEqual(othersMe);
  });

  test("a seller's listings come off sale and the storefront goes", async () => {
    const { password, client } = await newBuyer("seller");
    const me = (await client.get("/api/me")).json().user;
    const [listing] = await t.db
      .insert(products)
      .values({ name: "Leaving Soon", category: "software", price: "5", vendor: "Me", sellerId: me.id })
      .returning({ id: products.id });
    expect(await t.db.select().from(storefronts).where(eq(storefronts.userId, me.id))).toHaveLength(1);

    expect((await client.request("DELETE", "/api/me", { password })).statusCode).toBe(204);
    const [after] = await t.db
      .select()
      .from(products)
      .where(eq(products.id, listing?.id ?? ""));
    expect(after?.isActive).toBe(false);
    expect(await t.db.select().from(storefronts).where(eq(storefronts.userId, me.id))).toEqual([]);
  });

  test("a leaving seller's subscribers keep the period they paid for, renew no more, and are told by e-mail", async () => {
    const { password, client } = await newBuyer("seller");
    const me = (await client.get("/api/me")).json().user;
    const [listing] = await t.db
      .insert(products)
      .values({ name: "Leaving Monthly", category: "saas", price: "12", pricingUnit: "month", vendor: "Me" })
      .returning({ id: products.id });
    const subscriber = await newBuyer();
    const { orderId } = await placeOrder(subscriber.client, {
      items: [{ productId: listing?.id ?? "", price: 12 }],
    });
    await payOrder(t.app, subscriber.client, orderId);
    // The sale's earnings are paid out before the seller may leave: the product is theirs from here on.
    await t.db
      .update(products)
      .set({ sellerId: me.id })
      .where(eq(products.id, listing?.id ?? ""));
    const [before] = (await subscriber.client.get("/api/subscriptions")).json().items as Subscription[];
    expect(before?.status).toBe("active");

    expect((await client.request("DELETE", "/api/me", { password })).statusCode).toBe(204);
    const [after] = (await subscriber.client.get("/api/subscriptions")).json().items as Subscription[];
    expect(after).toMatchObject({
      status: "cancelling",
      paidThrough: before?.paidThrough,
      endsAt: before?.paidThrough,
    });
    await t.app.jobs.idle();
    // To the billing address of the order that started it.
    const [order] = await t.db.select().from(orders).where(eq(orders.id, orderId));
    const told = (await readOutbox(t.dataDir)).filter(
      (m) => m.subject === "Your Leaving Monthly subscription will not renew",
    );
    expect(told.map((m) => m.to)).toEqual([order?.customerInfo.email]);
    expect(told[0]?.body).toContain("It keeps working until");
  });
});

/**
 * What deleting an account does to every column that points at a person (decision 0016), by
 * `table.column`. `removed`: no row of the person is left. `anonymised`: rows stay, and none of the
 * person's rows matches `identifies` (SQL on that table) afterwards. `kept`: rows stay as they are, for
 * the reason given. A new table that references users makes the first test below fail until it is here.
 */
type Fate = { does: "removed" } | { does: "anonymised"; identifies: string } | { does: "kept"; why: string };
const removed: Fate = { does: "removed" };
const kept = (why: string): Fate => ({ does: "kept", why });
const adminAct = kept("an admin's action on someone else's record; the id names a Former customer row");
const books = kept("accounting record (ledger, invoice or payout), kept for the retention period");
const TOMBSTONE = "'deleted-%@deleted.stackbay.invalid'";
const onDeletion: Record<string, Fate> = {
  "accounts.user_id": removed,
  "audit_log.actor_id": { does: "anonymised", identifies: `actor_email not like ${TOMBSTONE}` },
  "audit_log.actor_email": { does: "anonymised", identifies: "true" },
  "bank_transfers.recorded_by": adminAct,
  "commissions.reseller_id": books,
  "contact_messages.email": kept(
    "sent through the public form with an address nobody verified, so an account cannot claim it; erased on request (privacy page)",
  ),
  "email_code_sends.email": removed,
  "featured_products.added_by": adminAct,
  "fee_rules.updated_by": adminAct,
  "journal_entries.created_by": books,
  "ledger_accounts.owner_id": books,
  "licenses.user_id": books,
  "newsletter_subscriptions.email": removed,
  "notifications.user_id": removed,
  "order_items.delivered_by": kept("'buyer' or 'automatic', not a person's id"),
  "order_items.seller_id": books,
  "orders.user_id": {
    does: "anonymised",
    identifies: `shipping_address is not null or (payment_status not in ('mock_confirmed', 'partially_refunded', 'refunded') and customer_info->>'email' not like ${TOMBSTONE})`,
  },
  "partner_applications.email": kept(
    "a business's application through the public form, not part of the account; erased on request (privacy page)",
  ),
  "payment_customers.user_id": removed,
  "payment_method_setups.user_id": removed,
  "payment_methods.email": kept(
    'a PayPal account\'s masked e-mail ("j•••@example.com"), never a whole address; its row goes with payment_methods.user_id',
  ),
  "payment_methods.user_id": removed,
  "payout_accounts.user_id": removed,
  "payout_batches.created_by": adminAct,
  "payouts.user_id": books,
  "product_questions.answered_by": kept("answers stay, shown as the seller's or the team's"),
  "product_questions.asker_id": kept('questions stay, shown as asked by a "Former customer"'),
  "product_questions.moderated_by": adminAct,
  "products.moderated_by": adminAct,
  "products.seller_id": { does: "anonymised", identifies: "is_active" },
  "question_reports.user_id": removed,
  "referral_clicks.reseller_id": removed,
  "refund_messages.author_id": kept(
    "the conversation is part of the refund request's record, kept with it; the id names a Former customer row",
  ),
  "refund_requests.buyer_id": books,
  "refund_requests.seller_id": books,
  "reseller_codes.user_id": removed,
  "reseller_fingerprints.user_id": removed,
  "review_reports.user_id": removed,
  "reviews.user_id": kept('reviews stay, shown as written by a "Former customer"; ratings stay consistent'),
  "saved_items.user_id": removed,
  "seller_api_calls.seller_id": removed,
  "seller_api_keys.seller_id": removed,
  "seller_webhook_endpoints.seller_id": removed,
  "seller_webhook_events.seller_id": removed,
  "sessions.impersonated_by": removed,
  "sessions.user_id": removed,
  "storefront_changes.decided_by": adminAct,
  "storefront_changes.user_id": removed,
  "storefronts.user_id": removed,
  "storefronts.verified_by": adminAct,
  "subscriptions.user_id": kept(
    "what the buyer subscribed to, beside the orders that paid it; ended at deletion, so nothing renews or falls due",
  ),
  "tax_rates.updated_by": adminAct,
  "two_factors.user_id": removed,
  "usage_records.seller_id": kept(
    "the use billed on buyers' invoices: quantities and times, no personal data; the id names a Former customer row",
  ),
  "uploads.owner_id": kept(
    "pictures of listings kept for the order history; the owner id names a Former customer row",
  ),
};

/** Every column of the schema that points at a person: foreign keys to users, and columns named like one. */
async function columnsReferencingUsers() {
  const rows = await queryRows<{ ref: string }>(
    t.db,
    sql`select cl.relname || '.' || a.attname as ref
        from pg_constraint fk
        join pg_class cl on cl.oid = fk.conrelid
        join pg_attribute a on a.attrelid = fk.conrelid and a.attnum = any(fk.conkey)
        where fk.contype = 'f' and fk.confrelid = 'public.users'::regclass
        union
        select table_name || '.' || column_name
        from information_schema.columns
        where table_schema = 'public' and table_name <> 'users'
          and (column_name ~ '^(user|buyer|seller|reseller|asker|author|owner|actor|payee|recipient|customer)_id$'
            or column_name ~ '_by$' or column_name ~ 'email')`,
  );
  return rows.map((row) => row.ref).sort();
}

describe("what deletion does to each table that references a person", () => {
  test("every column that references a user is accounted for", async () => {
    expect(await columnsReferencingUsers()).toEqual(Object.keys(onDeletion).sort());
  });

  test("removed rows are gone and anonymised rows identify no one, sealed bank details included", async () => {
    const { email, password, client } = await newBuyer("seller");
    const me = (await client.get("/api/me")).json().user;
    const [other] = await t.db.select().from(user).where(eq(user.email, "buyer@stackbay.test"));
    const otherId = other?.id ?? "";
    const paid = await placeAs(client, email);
    await payOrder(t.app, client, paid);
    // A machine the person's licence is activated on: its name and identifier go, the licence stays.
    const [license] = await t.db.select().from(licenses).where(eq(licenses.orderId, paid));
    await t.db.insert(licenseActivations).values({
      licenseId: license?.id ?? "",
      machine: "deleted-person-laptop",
      label: "My laptop",
      activatedAt: new Date(),
      lastSeenAt: new Date(),
    });
    await t.db.insert(payoutAccounts).values({
      userId: me.id,
      method: "bank",
      bankSealed: "sealed:iban-and-holder",
      bankMasked: "•••• 3000",
      country: "DE",
    });
    await t.db.insert(savedItems).values({ userId: me.id, productId });
    // A saved card and a PayPal account, through the test provider's page.
    await saveTestMethod(t.app, client, { card: "4242" });
    await saveTestMethod(t.app, client, { paypal: true });
    await t.db.insert(resellerCodes).values({ userId: me.id, code: `code-${randomUUID()}` });
    await t.db.insert(resellerFingerprints).values({ userId: me.id, kind: "device", hash: "h" });
    await t.db
      .insert(referralClicks)
      .values({ resellerId: me.id, productId, visitorKey: "v", day: "2026-01-01" });
    const [review] = await t.db
      .insert(reviews)
      .values({ productId, userId: otherId, rating: 4, title: "Fine", body: "Fine for the price." })
      .returning();
    await t.db.insert(reviewReports).values({ reviewId: review?.id ?? "", userId: me.id });
    const [question] = await t.db
      .insert(productQuestions)
      .values({ productId, askerId: otherId, text: "Does it work offline?" })
      .returning();
    await t.db.insert(questionReports).values({ questionId: question?.id ?? "", userId: me.id });
    await t.db.insert(twoFactor).values({ id: randomUUID(), secret: "s", backupCodes: "b", userId: me.id });
    await t.db.insert(session).values({
      id: randomUUID(),
      token: randomUUID(),
      userId: otherId,
      expiresAt: new Date(Date.now() + 3_600_000),
      impersonatedBy: me.id,
    });
    await t.db.insert(newsletterSubscriptions).values({ email });
    await t.db.insert(notifications).values({
      userId: me.id,
      kind: "question-asked",
      title: "A question about your product",
      body: "Does it run offline?",
      link: "/dashboard/questions",
      action: "Answer the question",
    });
    await t.db.insert(storefrontChanges).values({ userId: me.id, name: "A name waiting for review" });
    // An API key, used once: the call is in the seller's access log.
    const issued = await client.post("/api/seller-api/keys", {
      name: "Deleted with me",
      scopes: ["orders:read"],
    });
    const apiKey = issued.json().secret as string;
    const apiCall = await t.app.inject({
      url: "/api/seller/v1/key",
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(apiCall.statusCode).toBe(200);
    // A webhook endpoint with a delivery of the test event (to nowhere that answers: it fails, and stays logged).
    const hook = await client.post("/api/seller-webhooks/endpoints", {
      url: "http://127.0.0.1:9/hook",
      events: ["order.paid"],
    });
    expect(hook.statusCode).toBe(201);
    expect(
      (await client.post(`/api/seller-webhooks/endpoints/${hook.json().endpoint.id}/test`, {})).statusCode,
    ).toBe(201);
    await t.db
      .insert(emailCodeSends)
      .values({ email, purpose: "test", sentAt: new Date() })
      .onConflictDoNothing();

    const personIn = (ref: string) => (ref.endsWith("email") ? email : me.id);
    const rowsOf = async (ref: string, where = "true") => {
      const [table, column] = ref.split(".");
      const [row] = await queryRows<{ n: number }>(
        t.db,
        sql`select count(*)::int as n from ${sql.identifier(table ?? "")} where ${sql.identifier(column ?? "")} = ${personIn(ref)} and (${sql.raw(where)})`,
      );
      return Number(row?.n);
    };
    const removedRefs = Object.keys(onDeletion).filter((ref) => onDeletion[ref]?.does === "removed");
    for (const ref of removedRefs) expect(await rowsOf(ref), `${ref} before`).toBeGreaterThan(0);

    expect((await client.request("DELETE", "/api/me", { password })).statusCode).toBe(204);
    const keyAfter = await t.app.inject({
      url: "/api/seller/v1/key",
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(keyAfter.statusCode).toBe(401);

    for (const ref of removedRefs) expect(await rowsOf(ref), ref).toBe(0);
    expect(
      await t.db
        .select()
        .from(licenseActivations)
        .where(eq(licenseActivations.licenseId, license?.id ?? "")),
    ).toEqual([]);
    expect(
      await t.db
        .select()
        .from(licenses)
        .where(eq(licenses.id, license?.id ?? "")),
    ).toHaveLength(1);
    for (const [ref, fate] of Object.entries(onDeletion))
      if (fate.does === "anonymised") expect(await rowsOf(ref, fate.identifies), ref).toBe(0);
    // The review and question of someone else the person reported are untouched.
    expect(
      await t.db
        .select()
        .from(reviews)
        .where(eq(reviews.id, review?.id ?? "")),
    ).toHaveLength(1);
  });
});
