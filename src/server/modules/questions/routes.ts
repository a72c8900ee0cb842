import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  answerInputSchema,
  questionInputSchema,
  questionListQuery,
  questionListSchema,
  questionModerationSchema,
  questionSchema,
  sellerQuestionListSchema,
} from "#domain/questions";
import { currentUser, requireAnyRole, requireRole, requireUser, signedInUser } from "#server/auth/guards";
import {
  answerQuestion,
  askQuestion,
  moderateQuestion,
  questionDepsOf,
  questionsOfProduct,
  reportQuestion,
  sellerQuestions,
} from "#server/modules/questions/service";

const productParams = z.object({ id: z.uuid({ error: "Product not found" }) });
const questionParams = z.object({ id: z.uuid({ error: "Question not found" }) });
// Per address, on top of the per-account limit on asking that the service keeps.
const writes = { rateLimit: { max: 30, timeWindow: "1 minute" } };

/** Questions and answers on product pages: asked by signed-in visitors, answered by the seller or an admin. */
export const questionRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = () => questionDepsOf(app);

  app.get(
    "/products/:id/questions",
    {
      schema: {
        tags: ["questions"],
        summary: "A product's questions the visitor may read, newest first, and the seller's answer time",
        description:
          "Everyone reads answered, published questions; the asker also reads their own, the product's seller its unanswered ones, and admins hidden ones too.",
        params: productParams,
        querystring: questionListQuery,
        response: { 200: questionListSchema },
      },
    },
    async (request, reply) => {
      const me = await currentUser(request, reply);
      return questionsOfProduct(deps(), me, request.params.id, request.query.page);
    },
  );

  app.post(
    "/products/:id/questions",
    {
      onRequest: requireUser,
      config: writes,
      schema: {
        tags: ["questions"],
        summary: "Ask about a product (not your own); its seller is e-mailed",
        description: "At most 5 questions an hour per account (429 QUESTION_LIMIT).",
        params: productParams,
        body: questionInputSchema,
        response: { 201: questionSchema },
      },
    },
    async (request, reply) => {
      const question = await askQuestion(deps(), signedInUser(request), request.params.id, request.body.text);
      return reply.code(201).send(question);
    },
  );

  app.put(
    "/questions/:id/answer",
    {
      onRequest: requireUser,
      config: writes,
      schema: {
        tags: ["questions"],
        summary:
          "The product's seller or an admin answers (once; the answerer may edit); the asker is e-mailed",
        params: questionParams,
        body: answerInputSchema,
        response: { 200: questionSchema },
      },
    },
    async (request) => answerQuestion(deps(), signedInUser(request), request.params.id, request.body.text),
  );

  app.post(
    "/questions/:id/report",
    {
      onRequest: requireUser,
      config: writes,
      schema: {
        tags: ["questions"],
        summary: "Report a question to the admins (once per person)",
        params: questionParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await reportQuestion(deps(), signedInUser(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    "/seller/questions",
    {
      onRequest: requireAnyRole("seller", "admin"),
      schema: {
        tags: ["questions"],
        summary: "Questions about your products, unanswered first",
        querystring: questionListQuery,
        response: { 200: sellerQuestionListSchema },
      },
    },
    async (request) => sellerQuestions(deps(), signedInUser(request), request.query.page),
  );

  for (const [action, to] of [
    ["hide", "hidden"],
    ["restore", "published"],
  ] as const) {
    app.post(
      `/admin/questions/:id/${action}`,
      {
        onRequest: requireRole("admin"),
        schema: {
          tags: ["questions"],
          summary: `${action === "hide" ? "Hide" : "Restore"} a question, with a reason the asker is e-mailed`,
          params: questionParams,
          body: questionModerationSchema,
          response: { 200: questionSchema },
        },
      },
      async (request) =>
        moderateQuestion(deps(), signedInUser(request), request.params.id, to, request.body.reason),
    );
  }
};
