import { z } from "zod";
import { endpoint } from "#domain/endpoint";

const healthSchema = z.object({
  status: z.enum(["ok", "degraded"]),
  database: z.enum(["ok", "unreachable"]),
  databaseKind: z.enum(["pglite", "postgres"]),
  uptimeSeconds: z.number(),
});

/** A saturated server answers every request, health checks included, with the busy error. */
const busySchema = z.object({
  code: z.literal("SERVICE_BUSY"),
  message: z.string(),
  details: z.object({ retryAfterSeconds: z.number() }),
});

const readySchema = z.object({
  status: z.enum(["ready", "unavailable"]),
  database: z.enum(["ok", "unreachable"]),
  shuttingDown: z.boolean(),
});

/** The server's `health` module (`src/server/modules/health/routes.ts`): probes of load balancers. */
export const healthExternalEndpoints = {
  "GET /health": endpoint({
    answer: healthSchema,
    otherAnswers: { 503: z.union([healthSchema, busySchema]) },
    errors: [],
  }),
  "GET /health/live": endpoint({ answer: z.object({ status: z.literal("ok") }), errors: [] }),
  "GET /health/ready": endpoint({
    answer: readySchema,
    otherAnswers: { 503: z.union([readySchema, busySchema]) },
    errors: [],
  }),
} as const;
