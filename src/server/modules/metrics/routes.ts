import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { Unauthorized } from "#server/errors";
import { route } from "#server/http/route";
import { bearerMatches } from "#server/lib/metrics";

/**
 * GET /metrics for a Prometheus scraper holding METRICS_TOKEN. Without a token configured it answers
 * exactly as a path that does not exist, and it stays out of the public API docs either way.
 */
export const metricsRoutes: FastifyPluginAsyncZod = async (app) => {
  const token = app.env.METRICS_TOKEN;
  route(
    app,
    "GET /metrics",
    { summary: "Prometheus metrics, for a scraper holding METRICS_TOKEN", hide: true },
    async (request, reply) => {
      if (!token) return reply.callNotFound();
      if (!bearerMatches(request.headers.authorization, token)) {
        reply.header("www-authenticate", 'Bearer realm="metrics"');
        throw new Unauthorized("A valid metrics token is needed.", "INVALID_METRICS_TOKEN");
      }
      const { contentType, body } = await app.metrics.scrape();
      return reply.type(contentType).header("cache-control", "no-store").send(body);
    },
  );
};
