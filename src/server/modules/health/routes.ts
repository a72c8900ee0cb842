import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";

const healthSchema = z.object({
  status: z.enum(["ok", "degraded"]),
  database: z.enum(["ok", "unreachable"]),
  databaseKind: z.enum(["pglite", "postgres"]),
  uptimeSeconds: z.number(),
});

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/health",
    {
      schema: {
        tags: ["system"],
        summary: "Liveness and database round trip",
        response: { 200: healthSchema, 503: healthSchema },
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
