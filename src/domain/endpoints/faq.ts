import { endpoint } from "#domain/endpoint";
import { faqVoteSchema, faqVotesSchema } from "#domain/faq";

/** What the web calls of the server's `faq` module (`src/server/modules/faq/routes.ts`). */
export const faqEndpoints = {
  "GET /faq/votes": endpoint({ answer: faqVotesSchema, errors: [] }),
  "POST /faq/votes": endpoint({
    body: faqVoteSchema,
    answer: faqVotesSchema,
    errors: ["FAQ_QUESTION_NOT_FOUND"],
  }),
} as const;
