import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { createClient, signedInClient } from "#server/test/client";

/** "seller": sellers manage their own products; admins and super admins every product. */
/**
 * `seller` admits admins too (they manage every product); `sellerOnly` is a seller's own money;
 * `earner` is anyone paid by Stackbay (sellers and resellers); `sellerKey` is the seller API, which
 * takes a seller's API key and never a session (every caller here, signed in or not, gets 401
 * `API_KEY_INVALID`).
 */
type Access =
  | "public"
  | "user"
  | "seller"
  | "sellerOnly"
  | "reseller"
  | "earner"
  | "admin"
  | "superAdmin"
  | "sellerKey";

/**
 * Who may call what: every operation of the OpenAPI document must be listed here, so a new route
 * cannot ship without someone deciding its access (the first test fails until it is added).
 */
const access: Record<string, Access> = {
  "POST /api/auth/sign-up": "public",
  "POST /api/auth/verification-code": "public",
  "POST /api/auth/verify-email": "public",
  "POST /api/auth/sign-in": "public",
  "POST /api/auth/two-factor": "public",
  "POST /api/auth/sign-out": "public",
  "POST /api/auth/password/forgot": "public",
  "POST /api/auth/password/reset": "public",
  "GET /api/health": "public",
  "GET /api/health/live": "public",
  "GET /api/health/ready": "public",
  "GET /api/me": "public",
  "PATCH /api/me": "user",
  "PATCH /api/me/preferences": "user",
  "POST /api/me/password": "user",
  "POST /api/me/two-factor/enable": "user",
  "POST /api/me/two-factor/confirm": "user",
  "POST /api/me/two-factor/disable": "user",
  "GET /api/me/export": "user",
  "DELETE /api/me": "user",
  "POST /api/newsletter": "public",
  "GET /api/newsletter/confirm": "public",
  "GET /api/newsletter/unsubscribe": "public",
  "GET /api/products": "public",
  "GET /api/marketplace-stats": "public",
  "GET /api/products/{id}": "public",
  "GET /api/compare": "public",
  "GET /api/products/{id}/related": "public",
  "GET /api/categories": "public",
  "GET /api/fx-rates": "public",
  "GET /api/content-blocks": "public",
  "GET /api/site-links": "public",
  "GET /api/faq/votes": "public",
  "GET /api/search/suggestions": "public",
  "GET /api/admin/search/synonyms": "admin",
  "POST /api/admin/search/synonyms": "admin",
  "PUT /api/admin/search/synonyms/{id}": "admin",
  "DELETE /api/admin/search/synonyms/{id}": "admin",
  "POST /api/faq/votes": "public",
  "POST /api/contact": "public",
  "POST /api/partner-applications": "public",
  "GET /api/admin/inbox/messages": "admin",
  "GET /api/admin/inbox/applications": "admin",
  "PATCH /api/admin/inbox/applications/{id}": "admin",
  "GET /api/admin/inbox/subscribers": "admin",
  "GET /api/admin/inbox/subscribers.csv": "admin",
  "GET /api/saved": "user",
  "GET /api/saved/{productId}": "user",
  "PUT /api/saved/{productId}": "user",
  "DELETE /api/saved/{productId}": "user",
  "POST /api/orders": "user",
  "GET /api/orders": "user",
  "GET /api/orders/{id}": "user",
  "GET /api/orders/{id}/payment": "user",
  "POST /api/orders/{id}/payment": "user",
  "POST /api/orders/{id}/payment/complete": "user",
  "POST /api/orders/{id}/cancel": "user",
  "GET /api/payments/config": "public",
  // Signed by the provider, not the caller: anyone may post, only a valid signature is acted on.
  "POST /api/payments/webhooks/{provider}": "public",
  "GET /api/payments/test/sessions/{ref}": "user",
  "GET /api/payment-methods": "user",
  "POST /api/payment-methods/setups": "user",
  "POST /api/payment-methods/setups/{id}/complete": "user",
  "POST /api/payment-methods/bank-transfer": "user",
  "POST /api/payment-methods/{id}/default": "user",
  "DELETE /api/payment-methods/{id}": "user",
  "PUT /api/subscriptions/{id}/payment-method": "user",
  "PUT /api/subscriptions/{id}/spending-cap": "user",
  "GET /api/payment-methods/test/setups/{ref}": "user",
  "POST /api/payment-methods/test/setups/{ref}/choice": "user",
  "POST /api/payments/test/sessions/{ref}/choice": "user",
  "GET /api/admin/orders": "admin",
  "PATCH /api/admin/orders/{id}": "admin",
  "GET /api/admin/orders/{id}/bank-transfer": "admin",
  "POST /api/admin/orders/{id}/bank-transfers": "admin",
  "GET /api/admin/bank-transfers/lookup": "admin",
  "GET /api/orders/{id}/bank-transfer": "user",
  "GET /api/manage/products": "seller",
  "POST /api/manage/products": "seller",
  "GET /api/manage/products/{id}": "seller",
  "PATCH /api/manage/products/{id}": "seller",
  "DELETE /api/manage/products/{id}": "seller",
  "POST /api/manage/products/{id}/restore": "seller",
  "GET /api/manage/products/{id}/plans": "seller",
  "PUT /api/manage/products/{id}/plans": "seller",
  "POST /api/uploads/images": "seller",
  "GET /api/admin/categories": "admin",
  "POST /api/admin/categories": "admin",
  "DELETE /api/admin/categories/{id}": "admin",
  "GET /api/pages/{slug}": "public",
  "GET /api/admin/pages": "admin",
  "POST /api/admin/pages": "admin",
  "GET /api/admin/pages/{id}": "admin",
  "PATCH /api/admin/pages/{id}": "admin",
  "DELETE /api/admin/pages/{id}": "admin",
  "GET /api/admin/content-blocks": "admin",
  "PUT /api/admin/content-blocks/{key}": "admin",
  "GET /api/admin/users": "superAdmin",
  "PATCH /api/admin/users/{id}": "superAdmin",
  "GET /api/admin/system": "superAdmin",
  "PUT /api/admin/fx-rates/{code}": "superAdmin",
  "GET /api/tax/rates": "public",
  "POST /api/tax/vat-check": "user",
  "GET /api/admin/tax-rates": "superAdmin",
  "PUT /api/admin/tax-rates/{jurisdiction}": "superAdmin",
  "DELETE /api/admin/tax-rates/{jurisdiction}": "superAdmin",
  "GET /api/earnings": "user",
  "GET /api/earnings/sales": "sellerOnly",
  "GET /api/earnings/sales.csv": "sellerOnly",
  "GET /api/earnings/payouts": "user",
  "GET /api/earnings/stats": "sellerOnly",
  "POST /api/test/clock": "superAdmin",
  "POST /api/test/clock/reset": "superAdmin",
  "GET /api/admin/finance": "superAdmin",
  "GET /api/admin/overview": "admin",
  "GET /api/admin/finance/reconciliation": "superAdmin",
  "GET /api/admin/finance/export.csv": "superAdmin",
  "GET /api/admin/fees": "superAdmin",
  "PUT /api/admin/fees": "superAdmin",
  "DELETE /api/admin/fees/{scope}/{subject}?": "superAdmin",
  "GET /api/fees/mine": "sellerOnly",
  "GET /api/payouts/account": "earner",
  "PUT /api/payouts/account/bank": "earner",
  "POST /api/payouts/account/stripe": "earner",
  "DELETE /api/payouts/account": "earner",
  "GET /api/payouts/test/connect/{accountId}": "user",
  "POST /api/payouts/test/connect/{accountId}/choice": "user",
  "GET /api/admin/payouts/preview": "superAdmin",
  "POST /api/admin/payouts/batches": "superAdmin",
  "GET /api/admin/payouts/batches": "superAdmin",
  "GET /api/admin/payouts/batches/{id}": "superAdmin",
  "GET /api/admin/payouts/batches/{id}/bank-file.csv": "superAdmin",
  "POST /api/admin/payouts/{id}/paid": "superAdmin",
  "POST /api/admin/payouts/{id}/failed": "superAdmin",
  "GET /api/admin/jobs": "superAdmin",
  "POST /api/admin/jobs/retry": "superAdmin",
  "GET /api/admin/audit": "superAdmin",
  "GET /api/licenses": "user",
  "POST /api/licenses/validate": "public",
  "POST /api/licenses/activate": "public",
  "POST /api/licenses/deactivate": "public",
  "DELETE /api/licenses/{id}/activations/{activationId}": "user",
  "GET /api/licenses/{id}/file": "user",
  "GET /api/subscriptions": "user",
  "GET /api/subscriptions/calendar.ics": "user",
  "GET /api/subscriptions/calendar.csv": "user",
  "POST /api/subscriptions/{id}/cancel": "user",
  "POST /api/subscriptions/{id}/resume": "user",
  "POST /api/subscriptions/{id}/change/preview": "user",
  "POST /api/subscriptions/{id}/change": "user",
  "POST /api/subscriptions/{id}/restart": "user",
  "GET /api/seller/subscriptions": "sellerOnly",
  "GET /api/admin/subscriptions": "admin",
  "POST /api/admin/subscriptions/{id}/remind": "admin",
  "POST /api/admin/subscriptions/{id}/retry": "admin",
  "POST /api/admin/subscriptions/{id}/cancel": "admin",
  "GET /api/products/{id}/reviews": "public",
  "POST /api/products/{id}/reviews": "user",
  "PATCH /api/reviews/{id}": "user",
  "POST /api/reviews/{id}/reply": "user",
  "POST /api/reviews/{id}/report": "user",
  "POST /api/admin/reviews/{id}/hide": "admin",
  "POST /api/admin/reviews/{id}/restore": "admin",
  "GET /api/products/{id}/questions": "public",
  "POST /api/products/{id}/questions": "user",
  "PUT /api/questions/{id}/answer": "user",
  "POST /api/questions/{id}/report": "user",
  "GET /api/seller/questions": "seller",
  "POST /api/admin/questions/{id}/hide": "admin",
  "POST /api/admin/questions/{id}/restore": "admin",
  "GET /api/orders/{id}/invoice.html": "user",
  "POST /api/referrals/visit": "public",
  "GET /api/reseller/links": "reseller",
  "POST /api/orders/{orderId}/items/{itemId}/refund": "user",
  "GET /api/seller/orders": "sellerOnly",
  "GET /api/seller/refunds": "seller",
  "GET /api/seller/shipments": "seller",
  "POST /api/shipments/{itemId}/ship": "seller",
  "POST /api/orders/{orderId}/items/{itemId}/confirm-delivery": "user",
  "POST /api/refunds/{id}/decision": "user",
  "GET /api/refunds/mine": "user",
  "GET /api/refunds/{id}/messages": "user",
  "POST /api/refunds/{id}/messages": "user",
  "GET /api/notifications": "user",
  "GET /api/notifications/unread-count": "user",
  "POST /api/notifications/{id}/read": "user",
  "POST /api/notifications/read-all": "user",
  "GET /api/admin/refunds": "admin",
  "POST /api/admin/refunds/{id}/payout/retry": "admin",
  "POST /api/admin/refunds/{id}/payout/transferred": "admin",
  "GET /api/admin/commissions": "admin",
  "POST /api/admin/commissions/{id}/decision": "admin",
  "GET /api/featured-products": "public",
  "GET /api/admin/moderation": "admin",
  "POST /api/admin/moderation/{id}/approve": "admin",
  "POST /api/admin/moderation/{id}/reject": "admin",
  "PUT /api/admin/users/{id}/trusted-seller": "admin",
  "GET /api/admin/featured-products": "admin",
  "PUT /api/admin/featured-products": "admin",
  "GET /api/vendors/{slug}": "public",
  "GET /api/seller/storefront": "sellerOnly",
  "PUT /api/seller/storefront": "sellerOnly",
  "PUT /api/admin/vendors/{slug}/verification": "admin",
  "GET /api/admin/storefront-changes": "admin",
  "POST /api/admin/storefront-changes/{slug}/approve": "admin",
  "POST /api/admin/storefront-changes/{slug}/reject": "admin",
  "GET /api/seller-api/keys": "sellerOnly",
  "POST /api/seller-api/keys": "sellerOnly",
  "POST /api/seller-api/keys/{id}/roll": "sellerOnly",
  "DELETE /api/seller-api/keys/{id}": "sellerOnly",
  "GET /api/seller-api/calls": "sellerOnly",
  "GET /api/seller/v1/key": "sellerKey",
  "GET /api/seller/v1/orders": "sellerKey",
  "GET /api/seller/v1/subscriptions": "sellerKey",
  "GET /api/seller/v1/subscriptions/{id}/usage": "sellerKey",
  "POST /api/seller/v1/usage": "sellerKey",
  "POST /api/seller/v1/usage/batch": "sellerKey",
  "GET /api/seller/v1/licenses": "sellerKey",
  "GET /api/seller/v1/licenses/{id}": "sellerKey",
  "POST /api/seller/v1/licenses/{id}/suspend": "sellerKey",
  "POST /api/seller/v1/licenses/{id}/reinstate": "sellerKey",
  "DELETE /api/seller/v1/licenses/{id}/activations/{activationId}": "sellerKey",
  "GET /api/seller-webhooks/endpoints": "sellerOnly",
  "POST /api/seller-webhooks/endpoints": "sellerOnly",
  "PATCH /api/seller-webhooks/endpoints/{id}": "sellerOnly",
  "DELETE /api/seller-webhooks/endpoints/{id}": "sellerOnly",
  "POST /api/seller-webhooks/endpoints/{id}/rotate": "sellerOnly",
  "POST /api/seller-webhooks/endpoints/{id}/test": "sellerOnly",
  "GET /api/seller-webhooks/deliveries": "sellerOnly",
  "POST /api/seller-webhooks/deliveries/{id}/replay": "sellerOnly",
  "GET /api/seller/v1/webhooks": "sellerKey",
  "POST /api/seller/v1/webhooks": "sellerKey",
  "PATCH /api/seller/v1/webhooks/{id}": "sellerKey",
  "DELETE /api/seller/v1/webhooks/{id}": "sellerKey",
  "POST /api/seller/v1/webhooks/{id}/rotate": "sellerKey",
  "POST /api/seller/v1/webhooks/{id}/test": "sellerKey",
  "GET /api/seller/v1/webhook-deliveries": "sellerKey",
  "POST /api/seller/v1/webhook-deliveries/{id}/replay": "sellerKey",
};

const callers = ["anonymous", "buyer", "seller", "reseller", "admin", "superadmin"] as const;
type Caller = (typeof callers)[number];

/** What each caller must get: a refusal code, or "through" (anything but 401 and 403). */
function expected(rule: Access, caller: Caller): 401 | 403 | "through" {
  if (rule === "public") return "through";
  if (caller === "anonymous" || rule === "sellerKey") return 401;
  if (rule === "user") return "through";
  if (rule === "seller") return caller === "buyer" || caller === "reseller" ? 403 : "through";
  if (rule === "reseller") return caller === "reseller" ? "through" : 403;
  if (rule === "sellerOnly") return caller === "seller" ? "through" : 403;
  if (rule === "earner") return caller === "seller" || caller === "reseller" ? "through" : 403;
  if (rule === "admin") return caller === "admin" || caller === "superadmin" ? "through" : 403;
  return caller === "superadmin" ? "through" : 403;
}

let t: Awaited<ReturnType<typeof createTestApp>>;
let operations: { method: string; path: string; key: string }[];
const clients = {} as Record<Caller, ReturnType<typeof createClient>>;

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  const doc = (await t.app.inject({ url: "/api/openapi.json" })).json() as {
    paths: Record<string, Record<string, unknown>>;
  };
  operations = Object.entries(doc.paths)
    .flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => ({
        method: method.toUpperCase(),
        path,
        key: `${method.toUpperCase()} ${path}`,
      })),
    )
    // Signing out ends the caller's session, so it goes last.
    .sort((a, b) => Number(a.path.endsWith("/sign-out")) - Number(b.path.endsWith("/sign-out")));
  clients.anonymous = createClient(t.app);
  for (const caller of callers.slice(1)) {
    clients[caller] = await signedInClient(t.app, `${caller}@stackbay.test`, DEMO_PASSWORD);
  }
});
afterAll(() => t.close());

describe("permission matrix", () => {
  test("every route in the OpenAPI document has a declared access rule, and no rule is stale", () => {
    expect(operations.map((o) => o.key).sort()).toEqual(Object.keys(access).sort());
  });

  test.each(callers)("each route answers %s as its rule says", async (caller) => {
    const outcomes: string[] = [];
    const wrong: string[] = [];
    for (const op of operations) {
      const rule = access[op.key];
      if (!rule) continue;
      const url = op.path.replaceAll(/\{[^}]+\}/g, "00000000-0000-4000-8000-000000000000");
      const res = await clients[caller].request(
        op.method as "GET",
        url,
        op.method === "GET" || op.method === "DELETE" ? undefined : {},
      );
      const want = expected(rule, caller);
      const ok =
        want === "through" ? res.statusCode !== 401 && res.statusCode !== 403 : res.statusCode === want;
      outcomes.push(`${op.key} → ${res.statusCode}`);
      if (!ok)
        wrong.push(
          `${op.key}: ${caller} got ${res.statusCode}, expected ${want} (${res.body.slice(0, 120)})`,
        );
      if (want !== "through") {
        const code = rule === "sellerKey" ? "API_KEY_INVALID" : want === 401 ? "UNAUTHORIZED" : "FORBIDDEN";
        expect(res.json(), op.key).toMatchObject({ code });
      }
    }
    expect(wrong).toEqual([]);
    expect(outcomes.length).toBe(operations.length);
  });
});
