import { describe, expect, test } from "vitest";
import { DAY_MS } from "#domain/dates";
import {
  canEditReview,
  isReceived,
  RATING_PRIOR_MEAN,
  RATING_PRIOR_WEIGHT,
  reviewInputSchema,
  summariseRatings,
  utcDay,
} from "#domain/reviews";

describe("ratings from reviews", () => {
  test("no reviews: no rating and no sort score", () => {
    expect(summariseRatings(0, 0)).toEqual({ rating: null, reviewsCount: 0, score: null });
  });

  test("the rating is the plain mean to one decimal, rounded half up", () => {
    expect(summariseRatings(1, 4).rating).toBe("4.0");
    expect(summariseRatings(3, 14).rating).toBe("4.7");
    expect(summariseRatings(4, 17).rating).toBe("4.3");
    expect(summariseRatings(20, 89).rating).toBe("4.5");
  });

  test("the score is the Bayesian average (C·m + Σstars) / (C + n) to four decimals", () => {
    expect(RATING_PRIOR_MEAN).toBe(3);
    expect(RATING_PRIOR_WEIGHT).toBe(5);
    expect(summariseRatings(1, 5).score).toBe("3.3333");
    expect(summariseRatings(100, 480).score).toBe("4.7143");
    expect(summariseRatings(3, 3).score).toBe("2.2500");
  });

  test("one five-star review ranks below a hundred 4.8s", () => {
    expect(Number(summariseRatings(1, 5).score)).toBeLessThan(Number(summariseRatings(100, 480).score));
  });

  test("refuses sums 1–5 star reviews cannot make", () => {
    expect(() => summariseRatings(2, 11)).toThrow(RangeError);
    expect(() => summariseRatings(2, 1)).toThrow(RangeError);
  });
});

describe("review rules", () => {
  test("editable for 30 days", () => {
    const written = new Date("2026-01-01T12:00:00Z");
    expect(canEditReview(written, new Date(written.getTime() + 30 * DAY_MS))).toBe(true);
    expect(canEditReview(written, new Date(written.getTime() + 30 * DAY_MS + 1))).toBe(false);
  });

  test("digital goods are received when paid; hardware only once delivered", () => {
    expect(isReceived({ orderPaid: true, shippingState: null })).toBe(true);
    expect(isReceived({ orderPaid: false, shippingState: null })).toBe(false);
    expect(isReceived({ orderPaid: true, shippingState: "awaiting_shipment" })).toBe(false);
    expect(isReceived({ orderPaid: true, shippingState: "shipped" })).toBe(false);
    expect(isReceived({ orderPaid: true, shippingState: "delivered" })).toBe(true);
    expect(isReceived({ orderPaid: false, shippingState: "delivered" })).toBe(false);
  });

  test("validation days are UTC calendar days", () => {
    expect(utcDay(new Date("2026-03-01T23:59:59-05:00"))).toBe("2026-03-02");
  });

  test("1–5 whole stars, a title and at least 10 characters of text", () => {
    const ok = { rating: 5, title: " Great ", body: "Works as promised." };
    expect(reviewInputSchema.parse(ok).title).toBe("Great");
    expect(reviewInputSchema.safeParse({ ...ok, rating: 0 }).success).toBe(false);
    expect(reviewInputSchema.safeParse({ ...ok, rating: 4.5 }).success).toBe(false);
    expect(reviewInputSchema.safeParse({ ...ok, title: " " }).success).toBe(false);
    expect(reviewInputSchema.safeParse({ ...ok, body: "short" }).success).toBe(false);
  });
});
