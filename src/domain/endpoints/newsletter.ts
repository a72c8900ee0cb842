import { z } from "zod";
import { endpoint } from "#domain/endpoint";
import { newsletterSchema } from "#domain/newsletter";

/** What the web calls of the server's `newsletter` module (`src/server/modules/newsletter/routes.ts`). */
export const newsletterEndpoints = {
  "POST /newsletter": endpoint({
    body: newsletterSchema,
    answer: z.object({ subscribed: z.literal(true) }),
    errors: [],
  }),
} as const;
