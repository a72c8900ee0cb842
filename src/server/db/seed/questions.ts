import { eq, inArray } from "drizzle-orm";
import { DAY_MS } from "#domain/dates";
import type { Database } from "#server/db/client";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { productQuestions } from "#server/db/schema/questions";
import { demoReviewers } from "#server/db/seed/reviews";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Demo questions by the demo reviewers: asked `daysAgo`, answered by the product's seller `answerAfter`
 * later (varied, so the seller's median answer time means something), or left waiting when null.
 */
const demoQuestions: {
  product: string;
  asker: number;
  text: string;
  daysAgo: number;
  answer: string | null;
  answerAfter: number;
}[] = [
  {
    product: "cinderpath-endpoint-protect",
    asker: 0,
    text: "Can the agent run alongside our existing antivirus during a migration?",
    daysAgo: 40,
    answer: "Yes. Install it in monitor mode first; it stands down on files the other product quarantines.",
    answerAfter: 45 * MINUTE,
  },
  {
    product: "cinderpath-endpoint-protect",
    asker: 3,
    text: "Is there a limit on how many devices one console manages?",
    daysAgo: 12,
    answer:
      "One console handles up to 25,000 endpoints; larger fleets get a second console with shared policies.",
    answerAfter: 3 * HOUR,
  },
  {
    product: "cinderpath-incident-response-retainer",
    asker: 1,
    text: "How quickly does a responder join a call once we open an incident?",
    daysAgo: 30,
    answer:
      "Within one hour, any day of the year; the retainer's hours also cover a yearly tabletop exercise.",
    answerAfter: 5 * HOUR,
  },
  {
    product: "cinderpath-incident-response-retainer",
    asker: 2,
    text: "Do unused retainer hours roll over to the next year?",
    daysAgo: 21,
    answer:
      "Up to a quarter of the hours roll over once; the rest can be spent on assessments before renewal.",
    answerAfter: 26 * HOUR,
  },
  {
    product: "cinderpath-sentinel-firewall",
    asker: 4,
    text: "Does the firewall ship with rack ears and a console cable in the box?",
    daysAgo: 8,
    answer: "Both are in the box, along with a power cord for your region.",
    answerAfter: 2 * HOUR,
  },
  {
    product: "cinderpath-sentinel-firewall",
    asker: 5,
    text: "Which VPN clients can connect to the firewall, and is a client license included?",
    daysAgo: 2,
    answer: null,
    answerAfter: 0,
  },
];

/**
 * Questions on several demo products, most answered by each product's seller as read from the
 * database. Idempotent: nothing is written once any demo reviewer has asked a question.
 */
export async function seedDemoQuestions(
  db: Database,
  options: { now: Date; productIdOf: (key: string) => string },
) {
  const askers = await db
    .select({ id: user.id, email: user.email })
    .from(user)
    .where(
      inArray(
        user.email,
        demoReviewers.map((r) => r.email),
      ),
    );
  const askerId = new Map(askers.map((a) => [a.email, a.id]));
  if (askers.length === 0) return 0;
  const [asked] = await db
    .select({ id: productQuestions.id })
    .from(productQuestions)
    .where(
      inArray(
        productQuestions.askerId,
        askers.map((a) => a.id),
      ),
    )
    .limit(1);
  if (asked) return 0;

  let written = 0;
  await db.transaction(async (tx) => {
    for (const q of demoQuestions) {
      const asker = askerId.get(demoReviewers[q.asker]?.email ?? "");
      const [product] = await tx
        .select({ id: products.id, sellerId: products.sellerId })
        .from(products)
        .where(eq(products.id, options.productIdOf(q.product)));
      if (!asker || !product) continue;
      const createdAt = new Date(options.now.getTime() - q.daysAgo * DAY_MS);
      const answered = q.answer !== null && product.sellerId !== null;
      await tx.insert(productQuestions).values({
        productId: product.id,
        askerId: asker,
        text: q.text,
        createdAt,
        ...(answered
          ? {
              answer: q.answer,
              answeredBy: product.sellerId,
              answeredAt: new Date(createdAt.getTime() + q.answerAfter),
            }
          : {}),
      });
      written++;
    }
  });
  return written;
}
