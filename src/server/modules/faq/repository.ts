import { count, sql } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { faqVotes } from "#server/db/schema/inbound";

type Vote = "helpful" | "not_helpful";

/** Votes per question and kind, with how many of them are this visitor's (0 or 1). */
export async function countFaqVotes(db: Db, visitorId: string | null) {
  return db
    .select({
      questionId: faqVotes.questionId,
      vote: faqVotes.vote,
      n: count(),
      mine: sql<number>`count(*) filter (where ${faqVotes.visitorId} = ${visitorId ?? ""})`.mapWith(Number),
    })
    .from(faqVotes)
    .groupBy(faqVotes.questionId, faqVotes.vote);
}

/** One vote per visitor and question: voting again replaces it. */
export async function saveFaqVote(db: Db, vote: { questionId: string; visitorId: string; vote: Vote }) {
  await db
    .insert(faqVotes)
    .values(vote)
    .onConflictDoUpdate({
      target: [faqVotes.questionId, faqVotes.visitorId],
      set: { vote: vote.vote, updatedAt: new Date() },
    });
}
