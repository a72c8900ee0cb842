import { z } from "zod";
import { endpoint } from "#domain/endpoint";

/** The server's `test-clock` module: registered on test servers only, for journeys. */
export const testClockExternalEndpoints = {
  "POST /test/clock": endpoint({
    body: z.object({ advanceDays: z.number().int().min(0).max(400) }),
    answer: z.object({
      now: z.string(),
      delivered: z.number(),
      released: z.number(),
      approved: z.number(),
      renewals: z.object({ invoiced: z.number(), reminded: z.number(), ended: z.number() }),
    }),
    errors: ["INVALID_ORDER_TRANSITION"],
  }),
  "POST /test/clock/reset": endpoint({
    answer: z.object({ now: z.string() }),
    errors: [],
  }),
} as const;
