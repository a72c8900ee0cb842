import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, expectTypeOf, test } from "vitest";
import type { z } from "zod";
import type { productDetailSchema, productListSchema } from "#domain/catalog-schemas";
import type { Endpoints } from "#domain/endpoints";
import type { getProducts } from "#web/features/catalog/api/get-products";
import { type CallAnswer, type CallInput, call } from "#web/lib/api";

/**
 * The web reaches the API only through `call` and the declarations in src/domain (decision 0023). The type
 * checks below are compiled by `tsc --noEmit`: an answer, params or body that does not match its
 * declaration stops the build.
 */

type Declared<K extends keyof Endpoints> = Endpoints[K]["answer"] extends z.ZodType
  ? z.output<Endpoints[K]["answer"]>
  : null;

/** For every declared endpoint: what `call` answers is the declared answer schema's type. */
type Mismatched = {
  [K in keyof Endpoints]: [CallAnswer<K>] extends [Declared<K>]
    ? [Declared<K>] extends [CallAnswer<K>]
      ? never
      : K
    : K;
}[keyof Endpoints];

describe("call's types come from the declarations", () => {
  test("every endpoint answers its declared schema's type", () => {
    expectTypeOf<Mismatched>().toEqualTypeOf<never>();
    expectTypeOf<CallAnswer<"GET /products/:id">>().toEqualTypeOf<z.infer<typeof productDetailSchema>>();
    expectTypeOf<Awaited<ReturnType<typeof getProducts>>>().toEqualTypeOf<
      z.infer<typeof productListSchema>
    >();
  });

  test("a fetcher that claims another answer, or sends the wrong input, does not compile", () => {
    // Never run: only compiled.
    const typesOnly = () => {
      // @ts-expect-error the product detail is not a list of categories
      const wrong: Promise<{ slug: string }[]> = call("GET /products/:id", { params: { id: "p" } });
      // @ts-expect-error the path's :id is required
      void call("GET /products/:id");
      // @ts-expect-error the path has no :slug
      void call("GET /products/:id", { params: { slug: "p" } });
      // @ts-expect-error no such endpoint
      void call("GET /product");
      return wrong;
    };
    expectTypeOf<CallInput<"GET /products/:id">>().toEqualTypeOf<{ params: { id: string } }>();
    expect(typesOnly).toBeTypeOf("function");
  });
});

const web = path.resolve(fileURLToPath(new URL(".", import.meta.url)));

function webFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return webFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

describe("no fetcher bypasses the declarations", () => {
  test("no file in src/web calls `api<T>(…)` (an unchecked cast); fetchers use `call`", () => {
    const casts = webFiles(web)
      .filter((file) => file !== path.join(web, "lib", "api.ts"))
      .filter((file) => /\bapi<|\bapi\(/.test(readFileSync(file, "utf8")))
      .map((file) => path.relative(web, file));
    expect(casts.filter((file) => !notYetConverted.includes(file))).toEqual([]);
    // A converted file leaves the list below.
    expect(notYetConverted.filter((file) => !casts.includes(file))).toEqual([]);
  });
});

/** Fetchers still on `api<T>`, converted area by area; the list only shrinks. */
const notYetConverted: string[] = [
  "features/account/api/account-control.ts",
  "features/account/api/change-password.ts",
  "features/account/api/confirm-two-factor.ts",
  "features/account/api/disable-two-factor.ts",
  "features/account/api/enable-two-factor.ts",
  "features/account/api/update-preferences.ts",
  "features/account/api/update-profile.ts",
  "features/admin-overview/api/get-admin-overview.ts",
  "features/audit/api/get-audit-log.ts",
  "features/auth/api/forgot-password.ts",
  "features/auth/api/get-me.ts",
  "features/auth/api/reset-password.ts",
  "features/auth/api/send-verification-code.ts",
  "features/auth/api/sign-in.ts",
  "features/auth/api/sign-out.ts",
  "features/auth/api/sign-up.ts",
  "features/auth/api/verify-email.ts",
  "features/auth/api/verify-two-factor.ts",
  "features/categories/api/create-category.ts",
  "features/categories/api/delete-category.ts",
  "features/categories/api/get-admin-categories.ts",
  "features/compare/api/get-compare.ts",
  "features/compare/api/get-related.ts",
  "features/content-blocks/api/get-admin-content-blocks.ts",
  "features/content-blocks/api/get-content-blocks.ts",
  "features/content-blocks/api/update-content-block.ts",
  "features/earnings/api/get-earnings.ts",
  "features/earnings/api/get-received-orders.ts",
  "features/faq/api/get-votes.ts",
  "features/faq/api/vote.ts",
  "features/fees/api/fee-rules.ts",
  "features/finance/api/get-finance.ts",
  "features/inbound/api/apply-partner.ts",
  "features/inbound/api/send-contact.ts",
  "features/inbox/api/get-applications.ts",
  "features/inbox/api/get-messages.ts",
  "features/inbox/api/get-subscribers.ts",
  "features/inbox/api/update-application.ts",
  "features/licenses/api/get-licenses.ts",
  "features/manage-products/api/create-product.ts",
  "features/manage-products/api/delete-product.ts",
  "features/manage-products/api/get-managed-product.ts",
  "features/manage-products/api/get-managed-products.ts",
  "features/manage-products/api/restore-product.ts",
  "features/manage-products/api/update-product.ts",
  "features/moderation/api/decide-listing.ts",
  "features/moderation/api/featured.ts",
  "features/moderation/api/get-moderation-queue.ts",
  "features/moderation/api/storefront-changes.ts",
  "features/newsletter/api/subscribe.ts",
  "features/notifications/api/notifications.ts",
  "features/orders/api/admin-bank-transfers.ts",
  "features/orders/api/get-admin-orders.ts",
  "features/orders/api/get-order.ts",
  "features/orders/api/get-orders.ts",
  "features/orders/api/place-order.ts",
  "features/orders/api/update-order-status.ts",
  "features/pages/api/create-page.ts",
  "features/pages/api/delete-page.ts",
  "features/pages/api/get-admin-page.ts",
  "features/pages/api/get-admin-pages.ts",
  "features/pages/api/get-page.ts",
  "features/pages/api/update-page.ts",
  "features/payments/api/bank-transfer.ts",
  "features/payments/api/get-payments-config.ts",
  "features/payments/api/order-payment.ts",
  "features/payments/api/test-payment.ts",
  "features/payout-accounts/api/payout-account.ts",
  "features/payouts/api/get-payout-batches.ts",
  "features/payouts/api/get-payout-preview.ts",
  "features/payouts/api/run-payout-batch.ts",
  "features/questions/api/questions.ts",
  "features/referrals/api/decide-commission.ts",
  "features/referrals/api/get-commissions.ts",
  "features/referrals/api/get-reseller-links.ts",
  "features/referrals/api/record-visit.ts",
  "features/refunds/api/decide-refund.ts",
  "features/refunds/api/get-refunds.ts",
  "features/refunds/api/mark-transferred.ts",
  "features/refunds/api/refund-thread.ts",
  "features/refunds/api/request-refund.ts",
  "features/refunds/api/retry-payout.ts",
  "features/reviews/api/create-review.ts",
  "features/reviews/api/get-reviews.ts",
  "features/reviews/api/moderate-review.ts",
  "features/reviews/api/reply-to-review.ts",
  "features/reviews/api/report-review.ts",
  "features/reviews/api/update-review.ts",
  "features/saved/api/get-is-saved.ts",
  "features/saved/api/get-saved-products.ts",
  "features/saved/api/save-product.ts",
  "features/saved/api/unsave-product.ts",
  "features/search/api/get-suggestions.ts",
  "features/search/api/synonyms.ts",
  "features/shipping/api/shipments.ts",
  "features/storefronts/api/storefronts.ts",
  "features/system/api/get-jobs.ts",
  "features/system/api/get-system.ts",
  "features/system/api/retry-jobs.ts",
  "features/system/api/update-fx-rate.ts",
  "features/tax/api/admin-tax-rates.ts",
  "features/tax/api/check-vat-number.ts",
  "features/tax/api/get-tax-rates.ts",
  "features/uploads/api/upload-image.ts",
  "features/users/api/get-admin-users.ts",
  "features/users/api/trust-seller.ts",
  "features/users/api/update-user.ts",
];
