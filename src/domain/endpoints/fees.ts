import { z } from "zod";
import { endpoint } from "#domain/endpoint";
import {
  feeRuleInputSchema,
  feeRulesSchema,
  feeRuleViewSchema,
  feeScopes,
  sellerFeesSchema,
} from "#domain/fees";

const ruleParams = z.object({
  scope: z.enum(feeScopes, { error: "Unknown fee scope" }),
  /** Empty for the default rule (`DELETE /admin/fees/default`). */
  subject: z.string().max(200).optional().default(""),
});

/** What the web calls of the server's `fees` module (`src/server/modules/fees/routes.ts`). */
export const feesEndpoints = {
  "DELETE /admin/fees/:scope/:subject?": endpoint({
    params: ruleParams,
    answer: null,
    errors: ["FEE_RULE_NOT_FOUND"],
  }),
  "GET /admin/fees": endpoint({ answer: feeRulesSchema, errors: [] }),
  "GET /fees/mine": endpoint({ answer: sellerFeesSchema, errors: [] }),
  "PUT /admin/fees": endpoint({
    body: feeRuleInputSchema,
    answer: z.object({ rule: feeRuleViewSchema }),
    errors: ["CATEGORY_NOT_FOUND", "SELLER_NOT_FOUND"],
  }),
} as const;
