import { z } from "zod";
import { endpoint } from "#domain/endpoint";
import {
  featuredAdminListSchema,
  featuredSelectionSchema,
  moderationDecisionSchema,
  moderationQueueQuery,
  moderationQueueSchema,
  rejectListingSchema,
  trustedSellerAnswerSchema,
  trustedSellerSchema,
} from "#domain/moderation";

const idParams = z.object({ id: z.uuid("Unknown product") });
const userParams = z.object({ id: z.string().min(1).max(64) });

/** What the web calls of the server's `moderation` module (`src/server/modules/moderation/routes.ts`). */
export const moderationEndpoints = {
  "GET /admin/featured-products": endpoint({ answer: featuredAdminListSchema, errors: [] }),
  "GET /admin/moderation": endpoint({
    query: moderationQueueQuery,
    answer: moderationQueueSchema,
    errors: [],
  }),
  "POST /admin/moderation/:id/approve": endpoint({
    params: idParams,
    answer: moderationDecisionSchema,
    errors: ["PRODUCT_NOT_FOUND"],
  }),
  "POST /admin/moderation/:id/reject": endpoint({
    params: idParams,
    body: rejectListingSchema,
    answer: moderationDecisionSchema,
    errors: ["PRODUCT_NOT_FOUND"],
  }),
  "PUT /admin/featured-products": endpoint({
    body: featuredSelectionSchema,
    answer: featuredAdminListSchema,
    errors: [],
  }),
  "PUT /admin/users/:id/trusted-seller": endpoint({
    params: userParams,
    body: trustedSellerSchema,
    answer: trustedSellerAnswerSchema,
    errors: ["USER_NOT_FOUND"],
  }),
} as const;
