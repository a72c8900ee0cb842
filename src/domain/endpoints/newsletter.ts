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

const tokenQuery = z.object({ token: z.string().min(20).max(100) });

/** The links in the confirmation e-mail: each sends the browser to the home page with the outcome. */
export const newsletterExternalEndpoints = {
  "GET /newsletter/confirm": endpoint({ query: tokenQuery, answer: { redirect: 303 }, errors: [] }),
  "GET /newsletter/unsubscribe": endpoint({ query: tokenQuery, answer: { redirect: 303 }, errors: [] }),
} as const;
