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
    product: "nimbus-crm-pro",
    asker: 0,
    text: "Can we import contacts and deal history from a spreadsheet export of our old CRM?",
    daysAgo: 40,
    answer: "Yes. The import wizard takes CSV and XLSX files and maps deal stages as you upload them.",
    answerAfter: 45 * MINUTE,
  },
  {
    product: "nimbus-crm-pro",
    asker: 3,
    text: "Is there a limit on the number of custom fields per record?",
    daysAgo: 12,
    answer: "Up to 200 custom fields per record type on every plan.",
    answerAfter: 3 * HOUR,
  },
  {
    product: "corvane-helpdesk",
    asker: 1,
    text: "Does the helpdesk support several support mailboxes routed to different teams?",
    daysAgo: 30,
    answer: "It does: each mailbox can route to its own team and have its own reply signature.",
    answerAfter: 5 * HOUR,
  },
  {
    product: "geolane-geocode-api",
    asker: 2,
    text: "What is the rate limit per API key, and can it be raised for batch jobs?",
    daysAgo: 21,
    answer: "600 requests a minute per key by default; write to us and we raise it for batch windows.",
    answerAfter: 26 * HOUR,
  },
  {
    product: "ferrowave-fw4800p-switch",
    asker: 4,
    text: "Does the switch ship with rack ears and a console cable in the box?",
    daysAgo: 8,
    answer: "Both are in the box, along with a power cord for your region.",
    answerAfter: 2 * HOUR,
  },
  {
    product: "tessellate-vault-24-nas",
    asker: 5,
    text: "Which drive sizes have been validated for this NAS, and are drives included?",
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
