import {
  earningsOverviewSchema,
  payoutHistorySchema,
  receivedOrdersPageSchema,
  saleLinesPageSchema,
  sellerStatsSchema,
} from "#domain/earnings";
import { endpoint, pageQuery } from "#domain/endpoint";

/** What the web calls of the server's `earnings` module (`src/server/modules/earnings/routes.ts`). */
export const earningsEndpoints = {
  "GET /earnings": endpoint({ answer: earningsOverviewSchema, errors: [] }),
  "GET /earnings/payouts": endpoint({ query: pageQuery, answer: payoutHistorySchema, errors: [] }),
  "GET /earnings/sales": endpoint({ query: pageQuery, answer: saleLinesPageSchema, errors: ["FORBIDDEN"] }),
  "GET /earnings/stats": endpoint({ answer: sellerStatsSchema, errors: ["FORBIDDEN"] }),
  "GET /seller/orders": endpoint({
    query: pageQuery,
    answer: receivedOrdersPageSchema,
    errors: ["FORBIDDEN"],
  }),
} as const;

/** Opened as a link rather than through `call`. */
export const earningsExternalEndpoints = {
  "GET /earnings/sales.csv": endpoint({ answer: { file: "text/csv; charset=utf-8" }, errors: ["FORBIDDEN"] }),
} as const;
