import {
  earningsOverviewSchema,
  payoutHistorySchema,
  receivedOrdersPageSchema,
  saleLinesPageSchema,
  sellerStatsSchema,
} from "#domain/earnings";
import { endpoint } from "#domain/endpoint";
import { pageQuery } from "#domain/paging";

export const earningsEndpoints = {
  "GET /earnings": endpoint({ answer: earningsOverviewSchema, errors: [] }),
  "GET /earnings/payouts": endpoint({ query: pageQuery, answer: payoutHistorySchema, errors: [] }),
  "GET /earnings/sales": endpoint({ query: pageQuery, answer: saleLinesPageSchema, errors: [] }),
  "GET /earnings/stats": endpoint({ answer: sellerStatsSchema, errors: [] }),
  "GET /seller/orders": endpoint({ query: pageQuery, answer: receivedOrdersPageSchema, errors: [] }),
} as const;
