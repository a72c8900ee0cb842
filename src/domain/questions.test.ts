import { describe, expect, test } from "vitest";
import { DAY_MS } from "#domain/dates";
import { ANSWER_TIME_MIN_ANSWERS, answerTimeLabel, questionInputSchema } from "#domain/questions";

const HOUR = 60 * 60 * 1000;
const label = (medianMs: number, answered = ANSWER_TIME_MIN_ANSWERS) =>
  answerTimeLabel({ answered, medianMs });

describe("the seller's answer time", () => {
  test("nothing is said with fewer than three answers, or none", () => {
    expect(ANSWER_TIME_MIN_ANSWERS).toBe(3);
    expect(answerTimeLabel(null)).toBeNull();
    expect(label(HOUR, 0)).toBeNull();
    expect(label(HOUR, 2)).toBeNull();
    expect(label(HOUR, 3)).not.toBeNull();
  });

  test("up to an hour reads as within an hour", () => {
    expect(label(0)).toBe("Usually answers within an hour");
    expect(label(5 * 60_000)).toBe("Usually answers within an hour");
    expect(label(HOUR)).toBe("Usually answers within an hour");
  });

  test("under a day: whole hours, rounded up", () => {
    expect(label(HOUR + 1)).toBe("Usually answers within 2 hours");
    expect(label(2 * HOUR)).toBe("Usually answers within 2 hours");
    expect(label(23 * HOUR)).toBe("Usually answers within 23 hours");
  });

  test("a day, then whole days rounded up", () => {
    expect(label(23 * HOUR + 1)).toBe("Usually answers within a day");
    expect(label(DAY_MS)).toBe("Usually answers within a day");
    expect(label(DAY_MS + 1)).toBe("Usually answers within 2 days");
    expect(label(2.5 * DAY_MS)).toBe("Usually answers within 3 days");
    expect(label(40 * DAY_MS)).toBe("Usually answers within 40 days");
  });
});

describe("the question form", () => {
  test("takes 10 to 1000 characters after trimming", () => {
    expect(questionInputSchema.safeParse({ text: "  too short " }).success).toBe(false);
    expect(questionInputSchema.safeParse({ text: "Does it work offline?" }).data).toEqual({
      text: "Does it work offline?",
    });
    expect(questionInputSchema.safeParse({ text: "x".repeat(1000) }).success).toBe(true);
    const long = questionInputSchema.safeParse({ text: "x".repeat(1001) });
    expect(long.error?.issues[0]?.message).toBe("Question must be at most 1000 characters");
  });
});
