import { z } from "zod";
import { endpoint } from "#domain/endpoint";
import { rejectListingSchema } from "#domain/moderation";
import {
  storefrontAnswerSchema,
  storefrontChangeQueueSchema,
  storefrontInputSchema,
  storefrontSlugParam,
  storefrontVerificationAnswerSchema,
  storefrontVerificationSchema,
  vendorPageQuery,
  vendorPageSchema,
} from "#domain/storefronts";

/** An admin's decision on a storefront change: the storefront as it now reads. */
export const storefrontDecisionSchema = z.object({
  slug: z.string(),
  name: z.string(),
  logoUrl: z.string().nullable(),
});

/** What the web calls of the server's `storefronts` module (`src/server/modules/storefronts/routes.ts`). */
export const storefrontsEndpoints = {
  "GET /admin/storefront-changes": endpoint({ answer: storefrontChangeQueueSchema, errors: [] }),
  "GET /seller/storefront": endpoint({ answer: storefrontAnswerSchema, errors: [] }),
  "GET /vendors/:slug": endpoint({
    // Any text: a slug that could not exist is answered like an unknown one, not as a bad request.
    params: z.object({ slug: z.string().max(100) }),
    query: vendorPageQuery,
    answer: vendorPageSchema,
    errors: ["STOREFRONT_NOT_FOUND"],
  }),
  "POST /admin/storefront-changes/:slug/approve": endpoint({
    params: storefrontSlugParam,
    answer: storefrontDecisionSchema,
    errors: ["STOREFRONT_CHANGE_NOT_FOUND"],
  }),
  "POST /admin/storefront-changes/:slug/reject": endpoint({
    params: storefrontSlugParam,
    body: rejectListingSchema,
    answer: storefrontDecisionSchema,
    errors: ["STOREFRONT_CHANGE_NOT_FOUND"],
  }),
  "PUT /admin/vendors/:slug/verification": endpoint({
    params: storefrontSlugParam,
    body: storefrontVerificationSchema,
    answer: storefrontVerificationAnswerSchema,
    errors: ["STOREFRONT_NOT_FOUND"],
  }),
  "PUT /seller/storefront": endpoint({
    body: storefrontInputSchema,
    answer: storefrontAnswerSchema,
    errors: ["IMAGE_NOT_YOURS"],
  }),
} as const;
