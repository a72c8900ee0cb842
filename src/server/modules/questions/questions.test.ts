import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Question, QuestionList, SellerQuestionList } from "#domain/questions";
import type { VendorPage } from "#domain/storefronts";
import { auditLog } from "#server/db/schema/audit";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { productQuestions } from "#server/db/schema/questions";
import { DEMO_PASSWORD, demoProductId } from "#server/db/seed/demo";
import type { AdjustableClock } from "#server/lib/clock";
import { askQuestion } from "#server/modules/questions/service";
import { createTestApp } from "#server/test/app";
import { createClient, createVerifiedAccount, signedInClient } from "#server/test/client";
import { readOutbox } from "#server/test/outbox";

type Client = ReturnType<typeof createClient>;

let t: Awaited<ReturnType<typeof createTestApp>>;
const ids: Record<string, string> = {};
let seller: Client;
let otherSeller: Client;
let admin: Client;
let buyer: Client;
let stranger: Client;
let buyerId = "";
const buyerEmail = "asker@example.com";
const HOUR = 60 * 60 * 1000;

async function account(email: string, firstName: string, accountType: "buyer" | "seller" = "buyer") {
  const made = await createVerifiedAccount(t.app, t.dataDir, { email, firstName, accountType });
  return signedInClient(t.app, made.email, made.password);
}

const clock = () => t.app.clock as AdjustableClock;
const list = async (client: Client, name: string) => {
  const res = await client.get(`/api/products/${ids[name]}/questions`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as QuestionList;
};
const ask = async (client: Client, name: string, text: string) => {
  const res = await client.post(`/api/products/${ids[name]}/questions`, { text });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Question;
};
const answer = (client: Client, id: string, text: string) =>
  client.request("PUT", `/api/questions/${id}/answer`, { text });

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  const [demoSeller] = await t.db
    .select({ id: user.id })
    .from(user)
    .where(eq(user.email, "seller@stackbay.test"));
  seller = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
  admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
  otherSeller = await account("timing-seller@example.com", "Tia", "seller");
  buyer = await account(buyerEmail, "Quinn");
  stranger = await account("stranger@example.com", "Stan");
  const [timingSeller] = await t.db
    .select({ id: user.id })
    .from(user)
    .where(eq(user.email, "timing-seller@example.com"));
  const [asker] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, buyerEmail));
  buyerId = asker?.id ?? "";
  const base = { category: "software", price: "19.99", vendor: "Acme" } as const;
  const made = await t.db
    .insert(products)
    .values([
      { ...base, name: "QA Seat", sellerId: demoSeller?.id },
      { ...base, name: "Pending Seat", sellerId: demoSeller?.id, moderationStatus: "pending" },
      { ...base, name: "Off Seat", sellerId: demoSeller?.id, isActive: false },
      { ...base, name: "Timing Tool", sellerId: timingSeller?.id },
    ])
    .returning({ id: products.id, name: products.name });
  for (const row of made) ids[row.name] = row.id;
});
afterAll(() => t.close());

describe("asking", () => {
  test("signed out, the product's own seller, bad input and non-public products are refused", async () => {
    const url = (name: string) => `/api/products/${ids[name]}/questions`;
    const text = "Does the seat license cover contractors?";
    expect((await createClient(t.app).post(url("QA Seat"), { text })).statusCode).toBe(401);

    const own = await seller.post(url("QA Seat"), { text });
    expect(own.statusCode).toBe(403);
    expect(own.json().code).toBe("OWN_PRODUCT");

    for (const bad of [{ text: "  short   " }, { text: "x".repeat(1001) }, {}]) {
      const res = await buyer.post(url("QA Seat"), bad);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe("VALIDATION_ERROR");
    }
    for (const name of ["Pending Seat", "Off Seat"]) {
      for (const res of [await buyer.post(url(name), { text }), await createClient(t.app).get(url(name))]) {
        expect(res.statusCode).toBe(404);
        expect(res.json().code).toBe("PRODUCT_NOT_FOUND");
      }
    }
    expect(await t.db.select().from(productQuestions).where(eq(productQuestions.askerId, buyerId))).toEqual(
      [],
    );
    expect((await list(seller, "QA Seat")).viewer).toMatchObject({ canAsk: false, isSeller: true });
    expect((await list(buyer, "QA Seat")).viewer).toMatchObject({ canAsk: true, isSeller: false });
  });

  test("an account may ask five questions an hour", async () => {
    const eager = await account("eager@example.com", "Eve");
    for (let i = 0; i < 5; i++) await ask(eager, "Timing Tool", `Eager question number ${i} about it?`);
    const sixth = await eager.post(`/api/products/${ids["Timing Tool"]}/questions`, {
      text: "One question too many?",
    });
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().code).toBe("QUESTION_LIMIT");
    clock().advance(HOUR + 1000);
    await ask(eager, "Timing Tool", "After an hour I may ask again?");
    await t.db.delete(productQuestions).where(eq(productQuestions.productId, ids["Timing Tool"] ?? ""));
  });

  test("the limit holds against parallel requests: the count and the insert are one step", async () => {
    const hasty = await account("hasty@example.com", "Hal");
    for (let i = 0; i < 3; i++) await ask(hasty, "Timing Tool", `Hasty question number ${i} about it?`);
    const [me] = await t.db.select().from(user).where(eq(user.email, "hasty@example.com"));
    if (!me) throw new Error("no account");
    // Straight to the service, all at once: requests through the app arrive one after the other.
    const deps = {
      db: t.db,
      clock: t.app.clock,
      jobs: t.app.jobs,
      mailer: t.app.mailer,
      baseUrl: "http://localhost",
    };
    const settled = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        askQuestion(deps, me, ids["Timing Tool"] ?? "", `Parallel question number ${i}?`),
      ),
    );
    expect(settled.filter((s) => s.status === "fulfilled")).toHaveLength(2);
    for (const refused of settled.filter((s) => s.status === "rejected"))
      expect(refused.reason).toMatchObject({ statusCode: 429, code: "QUESTION_LIMIT" });
    const stored = await t.db.select().from(productQuestions).where(eq(productQuestions.askerId, me.id));
    expect(stored).toHaveLength(5);
    await t.db.delete(productQuestions).where(eq(productQuestions.productId, ids["Timing Tool"] ?? ""));
  });
});

describe("answering and visibility", () => {
  let question: Question;

  test("a new question waits: only the asker, the seller and admins see it; the seller is e-mailed", async () => {
    question = await ask(buyer, "QA Seat", "  Does the seat license cover contractors?  ");
    expect(question).toMatchObject({
      text: "Does the seat license cover contractors?",
      askerFirstName: "Quinn",
      answer: null,
      isMine: true,
      canAnswer: false,
    });
    expect((await list(createClient(t.app), "QA Seat")).items).toEqual([]);
    expect((await list(stranger, "QA Seat")).items).toEqual([]);
    expect((await list(buyer, "QA Seat")).items.map((q) => q.id)).toEqual([question.id]);
    const forSeller = (await list(seller, "QA Seat")).items;
    expect(forSeller).toMatchObject([{ id: question.id, canAnswer: true, isMine: false }]);
    expect((await list(admin, "QA Seat")).items).toMatchObject([{ id: question.id, canAnswer: true }]);

    const dashboard = (await seller.get("/api/seller/questions")).json() as SellerQuestionList;
    // The demo seed leaves one of the demo seller's questions waiting too.
    expect(dashboard.unanswered).toBe(2);
    expect(dashboard.items.slice(0, 2).every((q) => q.answer === null)).toBe(true);
    expect(dashboard.items.slice(2).every((q) => q.answer !== null)).toBe(true);
    expect(dashboard.items.find((q) => q.id === question.id)).toMatchObject({ productName: "QA Seat" });
    expect((await stranger.get("/api/seller/questions")).statusCode).toBe(403);

    const mail = (await readOutbox(t.dataDir)).find((m) => m.to === "seller@stackbay.test");
    expect(mail?.subject).toBe("A buyer asked about QA Seat");
    expect(mail?.body).toContain("/dashboard/questions");
    expect(mail?.body).not.toContain(buyerEmail);
  });

  test("another seller and the asker cannot answer", async () => {
    for (const client of [otherSeller, buyer, stranger]) {
      const res = await answer(client, question.id, "We answer for them.");
      expect(res.statusCode).toBe(403);
    }
    expect((await answer(createClient(t.app), question.id, "Anyone")).statusCode).toBe(401);
    expect((await answer(seller, question.id, "   ")).statusCode).toBe(400);
  });

  test("the seller answers once and may edit; the asker is e-mailed and everyone sees it", async () => {
    const res = await answer(seller, question.id, "Yes, contractors count as seats.");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      answer: { text: "Yes, contractors count as seats.", by: "seller" },
      canAnswer: true,
    });
    const mail = (await readOutbox(t.dataDir)).find(
      (m) => m.to === buyerEmail && m.subject === "Your question about QA Seat has an answer",
    );
    expect(mail?.body).toContain("Yes, contractors count as seats.");
    expect(mail?.body).toContain(`/products/${ids["QA Seat"]}`);

    const second = await answer(admin, question.id, "A second answer from the team.");
    expect(second.statusCode).toBe(409);
    expect(second.json().code).toBe("ALREADY_ANSWERED");

    const edited = await answer(seller, question.id, "Yes: contractors count as seats.");
    expect(edited.statusCode).toBe(200);
    const publicList = await list(createClient(t.app), "QA Seat");
    expect(publicList.items).toMatchObject([
      {
        id: question.id,
        answer: { text: "Yes: contractors count as seats.", by: "seller" },
        canAnswer: false,
      },
    ]);
    expect((await list(admin, "QA Seat")).items[0]?.canAnswer).toBe(false);
    expect(((await seller.get("/api/seller/questions")).json() as SellerQuestionList).unanswered).toBe(1);
  });

  test("an admin may answer a question the seller has not", async () => {
    const waiting = await ask(stranger, "QA Seat", "Is there an education discount?");
    const res = await answer(admin, waiting.id, "Ask our sales team for the education price.");
    expect(res.statusCode).toBe(200);
    expect(res.json().answer).toMatchObject({ by: "admin" });
    expect((await answer(seller, waiting.id, "And the seller too")).json().code).toBe("ALREADY_ANSWERED");
  });
});

describe("moderation", () => {
  test("a signed-in user reports a question once", async () => {
    const [first] = (await list(createClient(t.app), "QA Seat")).items;
    if (!first) throw new Error("no public question");
    const url = `/api/questions/${first.id}/report`;
    expect((await createClient(t.app).post(url)).statusCode).toBe(401);
    expect((await stranger.post(url)).statusCode).toBe(204);
    const again = await stranger.post(url);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe("ALREADY_REPORTED");
    expect((await list(stranger, "QA Seat")).items.find((q) => q.id === first.id)?.reportedByMe).toBe(true);
    expect((await list(admin, "QA Seat")).items.find((q) => q.id === first.id)?.reportsCount).toBe(1);
    expect((await list(buyer, "QA Seat")).items.find((q) => q.id === first.id)?.reportsCount).toBeNull();
  });

  test("admins hide and restore with a reason: audited, the asker e-mailed, hidden leaves the public list", async () => {
    const target = (await list(buyer, "QA Seat")).items.find((q) => q.isMine);
    if (!target) throw new Error("no question of the buyer");
    const hide = `/api/admin/questions/${target.id}/hide`;
    expect((await seller.post(hide, { reason: "Not allowed" })).statusCode).toBe(403);
    const hidden = await admin.post(hide, { reason: "Contains a phone number" });
    expect(hidden.statusCode).toBe(200);
    expect(hidden.json()).toMatchObject({ status: "hidden", hiddenReason: "Contains a phone number" });
    expect((await list(createClient(t.app), "QA Seat")).items.map((q) => q.id)).not.toContain(target.id);
    expect((await list(seller, "QA Seat")).items.map((q) => q.id)).not.toContain(target.id);
    expect((await list(buyer, "QA Seat")).items.find((q) => q.id === target.id)).toMatchObject({
      status: "hidden",
      hiddenReason: "Contains a phone number",
    });
    const hiddenReport = await stranger.post(`/api/questions/${target.id}/report`);
    expect(hiddenReport.statusCode).toBe(404);
    expect(hiddenReport.json().code).toBe("QUESTION_NOT_FOUND");
    expect((await admin.post(hide, { reason: "again" })).json().code).toBe("QUESTION_UNCHANGED");

    const restored = await admin.post(`/api/admin/questions/${target.id}/restore`, {
      reason: "Number removed",
    });
    expect(restored.statusCode).toBe(200);
    expect((await list(createClient(t.app), "QA Seat")).items.map((q) => q.id)).toContain(target.id);

    const trail = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, "question"), eq(auditLog.entityId, target.id)));
    expect(trail.map((e) => e.action).sort()).toEqual(["restore", "update"]);
    const mails = (await readOutbox(t.dataDir)).filter((m) => m.to === buyerEmail);
    expect(mails.map((m) => m.subject)).toEqual(
      expect.arrayContaining([
        "Your question about QA Seat has been hidden",
        "Your question about QA Seat is visible again",
      ]),
    );
    expect(mails.find((m) => m.subject.endsWith("hidden"))?.body).toContain("Contains a phone number");
  });
});

describe("the seller's answer time", () => {
  const time = async () => (await list(createClient(t.app), "Timing Tool")).answerTime;

  test("the demo seed's answered questions give the demo seller an answer time", async () => {
    const res = await createClient(t.app).get(
      `/api/products/${demoProductId("cinderpath-endpoint-protect")}/questions`,
    );
    const seeded = res.json() as QuestionList;
    expect(seeded.items.length).toBeGreaterThanOrEqual(2);
    expect(seeded.items.every((q) => q.answer?.by === "seller")).toBe(true);
    // 45 min, 2 h, 3 h, 5 h and 26 h: the median is 3 hours.
    expect(seeded.answerTime).toBe("Usually answers within 3 hours");
    // The seller's storefront says the same.
    const storefront = await createClient(t.app).get("/api/vendors/cinderpath-security");
    expect(storefront.statusCode).toBe(200);
    expect((storefront.json() as VendorPage).answerTime).toBe("Usually answers within 3 hours");
    // A seller with fewer than three answers has none shown.
    const corvane = await createClient(t.app).get("/api/vendors/corvane-labs");
    expect(corvane.statusCode, corvane.body).toBe(200);
    expect((corvane.json() as VendorPage).answerTime).toBeNull();
  });

  test("the median of the seller's own answers of the last year, shown from three answers", async () => {
    const asked = [];
    for (const text of [
      "How long is the trial?",
      "Is SSO included?",
      "Can we pay yearly?",
      "Any API limits?",
    ])
      asked.push(await ask(buyer, "Timing Tool", text));
    const [a, b, c, d] = asked.map((q) => q.id);
    if (!a || !b || !c || !d) throw new Error("questions missing");
    expect(await time()).toBeNull();

    clock().advance(2 * HOUR);
    expect((await answer(otherSeller, a, "Fourteen days.")).statusCode).toBe(200);
    clock().advance(HOUR / 2);
    expect((await answer(otherSeller, b, "Yes, on every plan.")).statusCode).toBe(200);
    // An admin's answer says nothing about how fast the seller answers.
    expect((await answer(admin, d, "Documented in the API guide.")).statusCode).toBe(200);
    expect(await time()).toBeNull();

    clock().advance(27.5 * HOUR);
    expect((await answer(otherSeller, c, "Yes, with a discount.")).statusCode).toBe(200);
    // 2 h, 2.5 h and 30 h (plus the milliseconds the requests take): the median rounds up to 3 hours.
    expect(await time()).toBe("Usually answers within 3 hours");

    clock().advance(366 * 24 * HOUR);
    expect(await time()).toBeNull();
  });
});
