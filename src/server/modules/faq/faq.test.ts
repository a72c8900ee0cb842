import { afterAll, beforeAll, expect, test } from "vitest";
import { faqItems } from "#domain/faq";
import { createTestApp } from "#server/test/app";

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const vote = (questionId: string, value: string, cookie?: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/faq/votes",
    payload: { questionId, vote: value },
    headers: cookie ? { cookie } : {},
  });

test("one vote per visitor per question: voting again changes it; another visitor adds to the count", async () => {
  const id = faqItems[0]!.id;
  const first = await vote(id, "helpful");
  expect(first.statusCode).toBe(200);
  const setCookie = String(first.headers["set-cookie"]);
  expect(setCookie).toMatch(/sb_visitor=[A-Za-z0-9_-]{22};/);
  expect(setCookie).toMatch(/HttpOnly/);
  expect(setCookie).toMatch(/SameSite=Lax/);
  const cookie = setCookie.split(";")[0]!;
  expect(first.json().votes[id]).toEqual({ helpful: 1, notHelpful: 0, mine: "helpful" });

  const again = await vote(id, "helpful", cookie);
  expect(again.json().votes[id]).toEqual({ helpful: 1, notHelpful: 0, mine: "helpful" });
  const changed = await vote(id, "not_helpful", cookie);
  expect(changed.json().votes[id]).toEqual({ helpful: 0, notHelpful: 1, mine: "not_helpful" });

  const other = await vote(id, "helpful");
  expect(other.json().votes[id]).toEqual({ helpful: 1, notHelpful: 1, mine: "helpful" });

  const anonymous = await t.app.inject({ method: "GET", url: "/api/faq/votes" });
  expect(anonymous.json().votes[id]).toEqual({ helpful: 1, notHelpful: 1, mine: null });
  expect(anonymous.headers["set-cookie"]).toBeUndefined();
});

test("unknown questions and bad votes are refused", async () => {
  expect((await vote("no-such-question", "helpful")).statusCode).toBe(404);
  const bad = await vote(faqItems[0]!.id, "love-it");
  expect(bad.statusCode).toBe(400);
  expect(bad.json().details[0].message).toBe("Vote must be helpful or not_helpful");
});
