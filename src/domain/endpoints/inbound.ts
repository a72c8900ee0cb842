import { z } from "zod";
import { endpoint } from "#domain/endpoint";
import { contactSchema, partnerApplicationSchema } from "#domain/inbound";

/** What a public form answers once its message is kept. */
export const receivedSchema = z.object({ received: z.literal(true) });

/** What the web calls of the server's `inbound` module (`src/server/modules/inbound/routes.ts`). */
export const inboundEndpoints = {
  "POST /contact": endpoint({ body: contactSchema, answer: receivedSchema, errors: [] }),
  "POST /partner-applications": endpoint({
    body: partnerApplicationSchema,
    answer: receivedSchema,
    errors: [],
  }),
} as const;
