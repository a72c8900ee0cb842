import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, expectTypeOf, test } from "vitest";
import type { z } from "zod";
import type { codeSentSchema, meSchema } from "#domain/accounts";
import type { adminOverviewSchema } from "#domain/admin-overview";
import type { categoryListSchema, productListSchema } from "#domain/catalog-schemas";
import type { adminCategoryListSchema } from "#domain/category-admin";
import type { adminOrderListSchema, orderSchema } from "#domain/checkout";
import type { compareAnswerSchema, relatedAnswerSchema } from "#domain/compare";
import type {
  earningsOverviewSchema,
  payoutHistorySchema,
  receivedOrdersPageSchema,
  saleLinesPageSchema,
  sellerStatsSchema,
} from "#domain/earnings";
import type { faqVotesSchema } from "#domain/faq";
import type { Paged, paged } from "#domain/paging";
import type { uploadedImageSchema } from "#domain/product-admin";
import type { payoutAnswerSchema, refundAnswerSchema } from "#domain/refunds";
import type { getAdminOverview } from "#web/features/admin-overview/api/get-admin-overview";
import type { getMe } from "#web/features/auth/api/get-me";
import type { sendVerificationCode } from "#web/features/auth/api/send-verification-code";
import type { getCategories } from "#web/features/catalog/api/get-categories";
import type { getProducts } from "#web/features/catalog/api/get-products";
import type { getAdminCategories } from "#web/features/categories/api/get-admin-categories";
import type { getCompare } from "#web/features/compare/api/get-compare";
import type { getRelated } from "#web/features/compare/api/get-related";
import type {
  getEarnings,
  getPayouts,
  getSales,
  getSellerStats,
} from "#web/features/earnings/api/get-earnings";
import type { getReceivedOrders } from "#web/features/earnings/api/get-received-orders";
import type { voteOnFaq } from "#web/features/faq/api/vote";
import type { getAdminOrders } from "#web/features/orders/api/get-admin-orders";
import type { getOrder } from "#web/features/orders/api/get-order";
import type { markTransferred } from "#web/features/refunds/api/mark-transferred";
import type { requestRefund } from "#web/features/refunds/api/request-refund";
import type { retryPayout } from "#web/features/refunds/api/retry-payout";
import type { uploadImage } from "#web/features/uploads/api/upload-image";

/**
 * The API contract is declared once, in src/domain, and both sides derive from it (docs/ARCHITECTURE.md,
 * "Schemas"). The type checks below are compiled by `tsc --noEmit`: a web fetcher that answers with a
 * hand-written type that drifts from the schema the route sends stops the build.
 */

type Answer<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>;

describe("the web fetchers answer with the domain schemas' types", () => {
  test("the signed-in user", () => {
    expectTypeOf<Answer<typeof getMe>>().toEqualTypeOf<z.infer<typeof meSchema> | null>();
  });

  test("an order and a paged list of orders", () => {
    expectTypeOf<Answer<typeof getOrder>>().toEqualTypeOf<z.infer<typeof orderSchema>>();
    expectTypeOf<Answer<typeof getAdminOrders>>().toEqualTypeOf<z.infer<typeof adminOrderListSchema>>();
    expectTypeOf<Answer<typeof getAdminOverview>>().toEqualTypeOf<z.infer<typeof adminOverviewSchema>>();
    expectTypeOf<Answer<typeof getProducts>>().toEqualTypeOf<z.infer<typeof productListSchema>>();
  });

  test("the paged envelope is the same for every list", () => {
    type Item = z.infer<typeof orderSchema>;
    expectTypeOf<Paged<Item>>().toEqualTypeOf<{
      items: Item[];
      total: number;
      page: number;
      pageSize: number;
    }>();
    expectTypeOf<z.infer<ReturnType<typeof paged<typeof orderSchema>>>>().toEqualTypeOf<Paged<Item>>();
  });

  test("categories, uploads, FAQ votes, code e-mails and refunds", () => {
    expectTypeOf<Answer<typeof getCategories>>().toEqualTypeOf<z.infer<typeof categoryListSchema>>();
    expectTypeOf<Answer<typeof getAdminCategories>>().toEqualTypeOf<
      z.infer<typeof adminCategoryListSchema>
    >();
    expectTypeOf<Answer<typeof uploadImage>>().toEqualTypeOf<z.infer<typeof uploadedImageSchema>>();
    expectTypeOf<Answer<typeof voteOnFaq>>().toEqualTypeOf<z.infer<typeof faqVotesSchema>>();
    expectTypeOf<Answer<typeof sendVerificationCode>>().toEqualTypeOf<z.infer<typeof codeSentSchema>>();
    expectTypeOf<Answer<typeof requestRefund>>().toEqualTypeOf<
      z.infer<typeof refundAnswerSchema>["refund"]
    >();
    type Payout = z.infer<typeof payoutAnswerSchema>["payout"];
    expectTypeOf<Answer<typeof retryPayout>>().toEqualTypeOf<Payout>();
    expectTypeOf<Answer<typeof markTransferred>>().toEqualTypeOf<Payout>();
  });

  test("a comparison and the related products", () => {
    expectTypeOf<Answer<typeof getCompare>>().toEqualTypeOf<z.infer<typeof compareAnswerSchema>>();
    expectTypeOf<Answer<typeof getRelated>>().toEqualTypeOf<z.infer<typeof relatedAnswerSchema>>();
  });

  test("earnings: balances, sales, payouts and the seller's figures", () => {
    expectTypeOf<Answer<typeof getEarnings>>().toEqualTypeOf<z.infer<typeof earningsOverviewSchema>>();
    expectTypeOf<Answer<typeof getSales>>().toEqualTypeOf<z.infer<typeof saleLinesPageSchema>>();
    expectTypeOf<Answer<typeof getPayouts>>().toEqualTypeOf<z.infer<typeof payoutHistorySchema>>();
    expectTypeOf<Answer<typeof getSellerStats>>().toEqualTypeOf<z.infer<typeof sellerStatsSchema>>();
    expectTypeOf<Answer<typeof getReceivedOrders>>().toEqualTypeOf<
      z.infer<typeof receivedOrdersPageSchema>
    >();
  });
});

const web = path.resolve(fileURLToPath(new URL(".", import.meta.url)));

function webFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return webFiles(full);
    // Test files are not the app; this one spells the patterns out to check the scan itself.
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

/** Answer types that src/domain declares; the web imports them and never writes its own. */
const contractTypes = [
  "Me",
  "CodeSent",
  "UploadedImage",
  "FaqVotes",
  "FaqVoteTally",
  "Category",
  "SignInResult",
];
const redeclared = new RegExp(`\\b(?:type|interface)\\s+(${contractTypes.join("|")})\\b(?=\\s*[=<{])`, "g");

describe("src/web declares no copy of a contract type", () => {
  test("the scan reads the web app and would see a copy", () => {
    expect(webFiles(web).length).toBeGreaterThan(50);
    expect("export type Me = {".match(redeclared)).toEqual(["type Me"]);
    expect("interface Me {".match(redeclared)).toEqual(["interface Me"]);
    expect("type MeQuery = {".match(redeclared)).toBeNull();
  });

  test("no file under src/web declares `type Me =`, `interface Me` or another contract type", () => {
    const copies = webFiles(web).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(redeclared)].map(
        (m) => `${path.relative(web, file)}: ${m[0]} (import it from src/domain)`,
      ),
    );
    expect(copies).toEqual([]);
  });
});
