import { randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { type FaqVote, type FaqVotes, isFaqId } from "#domain/faq";
import { NotFound } from "#server/errors";
import { route } from "#server/http/route";
import { countFaqVotes, saveFaqVote } from "#server/modules/faq/repository";

const VISITOR_COOKIE = "sb_visitor";
const YEAR_SECONDS = 365 * 24 * 3600;

/** An anonymous, random visitor id in an httpOnly cookie: enough for "one vote per visitor", nothing more. */
function visitorId(request: FastifyRequest, reply: FastifyReply, create: boolean): string | null {
  const existing = request.cookies[VISITOR_COOKIE];
  if (existing && /^[A-Za-z0-9_-]{22}$/.test(existing)) return existing;
  if (!create) return null;
  const id = randomBytes(16).toString("base64url");
  reply.setCookie(VISITOR_COOKIE, id, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: request.protocol === "https",
    maxAge: YEAR_SECONDS,
  });
  return id;
}

export const faqRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  async function tally(visitor: string | null) {
    const rows = await countFaqVotes(db, visitor);
    const votes: FaqVotes["votes"] = {};
    for (const row of rows) {
      const entry = votes[row.questionId] ?? { helpful: 0, notHelpful: 0, mine: null };
      votes[row.questionId] = entry;
      if (row.vote === "helpful") entry.helpful = row.n;
      else entry.notHelpful = row.n;
      if (row.mine > 0) entry.mine = row.vote as FaqVote;
    }
    return { votes };
  }

  route(
    app,
    "GET /faq/votes",
    {
      tags: ["faq"],
      summary: "Helpful / not helpful counts per FAQ question",
    },
    async (request, reply) => tally(visitorId(request, reply, false)),
  );

  route(
    app,
    "POST /faq/votes",
    {
      tags: ["faq"],
      summary: "Record this visitor's vote on a question (voting again changes it)",
      config: { rateLimit: { max: 30, timeWindow: "1 minute" } },
    },
    async (request, reply) => {
      const { questionId, vote } = request.body;
      if (!isFaqId(questionId)) throw new NotFound("There is no such question.", "FAQ_QUESTION_NOT_FOUND");
      const visitor = visitorId(request, reply, true)!;
      await saveFaqVote(db, { questionId, visitorId: visitor, vote });
      return tally(visitor);
    },
  );
};
