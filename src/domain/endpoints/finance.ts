import { endpoint } from "#domain/endpoint";
import { financeSummarySchema, periodSchema, reconciliationSchema } from "#domain/finance";

export const financeEndpoints = {
  "GET /admin/finance": endpoint({ query: periodSchema, answer: financeSummarySchema, errors: [] }),
  "GET /admin/finance/reconciliation": endpoint({ answer: reconciliationSchema, errors: [] }),
} as const;
