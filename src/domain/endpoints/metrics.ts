import { endpoint } from "#domain/endpoint";

/** The server's `metrics` module (`src/server/modules/metrics/routes.ts`): read by a Prometheus scraper. */
export const metricsExternalEndpoints = {
  "GET /metrics": endpoint({
    root: true,
    answer: { file: "text/plain; version=0.0.4; charset=utf-8" },
    errors: ["INVALID_METRICS_TOKEN", "NOT_FOUND"],
  }),
} as const;
