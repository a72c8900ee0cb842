import { z } from "zod";
import {
  commissionDecisionAnswerSchema,
  commissionDecisionSchema,
  heldCommissionListSchema,
  heldCommissionsQuery,
} from "#domain/commission-holds";
import { endpoint } from "#domain/endpoint";
import {
  referralVisitAnswer,
  referralVisitSchema,
  resellerLinksQuery,
  resellerLinksSchema,
} from "#domain/referrals";

/** What the web calls of the server's `referrals` module (`src/server/modules/referrals/routes.ts`). */
export const referralsEndpoints = {
  "GET /admin/commissions": endpoint({
    query: heldCommissionsQuery,
    answer: heldCommissionListSchema,
    errors: [],
  }),
  "GET /reseller/links": endpoint({ query: resellerLinksQuery, answer: resellerLinksSchema, errors: [] }),
  "POST /admin/commissions/:id/decision": endpoint({
    params: z.object({ id: z.uuid("Unknown commission") }),
    body: commissionDecisionSchema,
    answer: commissionDecisionAnswerSchema,
    errors: ["COMMISSION_NOT_FOUND", "COMMISSION_NOT_HELD"],
  }),
  "POST /referrals/visit": endpoint({
    body: referralVisitSchema,
    answer: referralVisitAnswer,
    errors: [],
  }),
} as const;
