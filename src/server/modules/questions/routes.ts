import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser, requireAnyRole, requireRole, requireUser, signedInUser } from "#server/auth/guards";
import { route } from "#server/http/route";
import {
  answerQuestion,
  askQuestion,
  moderateQuestion,
  questionDepsOf,
  questionsOfProduct,
  reportQuestion,
  sellerQuestions,
} from "#server/modules/questions/service";

// Per address, on top of the per-account limit on asking that the service keeps.
const writes = { rateLimit: { max: 30, timeWindow: "1 minute" } };

/** Questions and answers on product pages: asked by signed-in visitors, answered by the seller or an admin. */
export const questionRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = () => questionDepsOf(app);

  route(
    app,
    "GET /products/:id/questions",
    {
      tags: ["questions"],
      summary: "A product's questions the visitor may read, newest first, and the seller's answer time",
      description:
        "Everyone reads answered, published questions; the asker also reads their own, the product's seller its unanswered ones, and admins hidden ones too.",
    },
    async (request, reply) => {
      const me = await currentUser(request, reply);
      return questionsOfProduct(deps(), me, request.params.id, request.query.page);
    },
  );

  route(
    app,
    "POST /products/:id/questions",
    {
      tags: ["questions"],
      summary: "Ask about a product (not your own); its seller is e-mailed",
      description: "At most 5 questions an hour per account (429 QUESTION_LIMIT).",
      onRequest: requireUser,
      config: writes,
    },
    async (request, reply) => {
      const question = await askQuestion(deps(), signedInUser(request), request.params.id, request.body.text);
      return reply.code(201).send(question);
    },
  );

  route(
    app,
    "PUT /questions/:id/answer",
    {
      tags: ["questions"],
      summary:
        "The product's seller or an admin answers (once; the answerer may edit); the asker is e-mailed",
      onRequest: requireUser,
      config: writes,
    },
    async (request) => answerQuestion(deps(), signedInUser(request), request.params.id, request.body.text),
  );

  route(
    app,
    "POST /questions/:id/report",
    {
      tags: ["questions"],
      summary: "Report a question to the admins (once per person)",
      onRequest: requireUser,
      config: writes,
    },
    async (request, reply) => {
      await reportQuestion(deps(), signedInUser(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  route(
    app,
    "GET /seller/questions",
    {
      tags: ["questions"],
      summary: "Questions about your products, unanswered first",
      onRequest: requireAnyRole("seller", "admin"),
    },
    async (request) => sellerQuestions(deps(), signedInUser(request), request.query.page),
  );

  for (const [action, to] of [
    ["hide", "hidden"],
    ["restore", "published"],
  ] as const) {
    route(
      app,
      `POST /admin/questions/:id/${action}`,
      {
        tags: ["questions"],
        summary: `${action === "hide" ? "Hide" : "Restore"} a question, with a reason the asker is e-mailed`,
        onRequest: requireRole("admin"),
      },
      async (request) =>
        moderateQuestion(deps(), signedInUser(request), request.params.id, to, request.body.reason),
    );
  }
};
