import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";

const healthSchema = z.object({
  status: z.enum(["ok", "degraded"]),
  database: z.enum(["ok", "unreachable"]),
  databaseKind: z.enum(["pglite", "postgres"]),
  uptimeSeconds: z.number(),
});

const busySchema = z.object({
  code: z.literal("SERVICE_BUSY"),
  message: z.string(),
  details: z.object({ retryAfterSeconds: z.number() }),
});

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/health",
    {
      schema: {
        tags: ["system"],
        summary: "Liveness and database round trip",
        // A saturated server answers every request, this one included, with the busy error (app.ts).
        response: { 200: healthSchema, 503: z.union([healthSchema, busySchema]) },
      },
    },
    async (request, reply) => {
      const { database } = app;
      const base = { databaseKind: database.kind, uptimeSeconds: Math.round(process.uptime()) };
      try {
        await database.ping();
        return { status: "ok" as const, database: "ok" as const, ...base };
      } catch (error) {
        request.log.error({ err: error }, "health check: database unreachable");
        return reply.status(503).send({ status: "degraded", database: "unreachable", ...base });
      }
    },
  );
};
