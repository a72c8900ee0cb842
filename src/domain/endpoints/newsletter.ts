import { z } from "zod";
import { endpoint } from "#domain/endpoint";
import { newsletterSchema } from "#domain/newsletter";

export const newsletterEndpoints = {
  "POST /newsletter": endpoint({
    body: newsletterSchema,
    answer: z.object({ subscribed: z.literal(true) }),
    errors: [],
  }),
} as const;
