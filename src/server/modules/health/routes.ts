import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { route } from "#server/http/route";

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  route(
    app,
    "GET /health",
    {
      tags: ["system"],
      summary: "Liveness and database round trip",
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

  route(
    app,
    "GET /health/live",
    {
      tags: ["system"],
      summary: "Liveness: the process answers",
      description:
        "200 while the process runs; touches no database, so a slow database never gets a live process restarted.",
      config: { shedLoad: false },
    },
    async () => ({ status: "ok" as const }),
  );

  route(
    app,
    "GET /health/ready",
    {
      tags: ["system"],
      summary: "Readiness: whether to send this instance requests",
      description:
        "200 when the database answers and the instance is not shutting down; 503 otherwise (from the first moment of a shutdown, so a load balancer stops sending requests before the server closes).",
    },
    async (request, reply) => {
      const shuttingDown = app.readiness.shuttingDown;
      let database: "ok" | "unreachable" = "ok";
      // A closing app may have closed its database already: the answer is 503 either way.
      if (shuttingDown) database = "unreachable";
      else {
        try {
          await app.database.ping();
        } catch (error) {
          database = "unreachable";
          request.log.warn({ err: error }, "readiness: database unreachable");
        }
      }
      const ready = database === "ok" && !shuttingDown;
      return reply
        .status(ready ? 200 : 503)
        .send({ status: ready ? "ready" : "unavailable", database, shuttingDown });
    },
  );
};
