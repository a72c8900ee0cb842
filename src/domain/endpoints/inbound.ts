import { endpoint } from "#domain/endpoint";
import { contactSchema, partnerApplicationSchema, receivedSchema } from "#domain/inbound";

export const inboundEndpoints = {
  "POST /contact": endpoint({ body: contactSchema, answer: receivedSchema, errors: [] }),
  "POST /partner-applications": endpoint({
    body: partnerApplicationSchema,
    answer: receivedSchema,
    errors: [],
  }),
} as const;
