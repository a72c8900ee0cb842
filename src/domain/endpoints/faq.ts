import { endpoint } from "#domain/endpoint";
import { faqVoteSchema, faqVotesSchema } from "#domain/faq";

export const faqEndpoints = {
  "GET /faq/votes": endpoint({ answer: faqVotesSchema, errors: [] }),
  "POST /faq/votes": endpoint({
    body: faqVoteSchema,
    answer: faqVotesSchema,
    errors: ["FAQ_QUESTION_NOT_FOUND"],
  }),
} as const;
