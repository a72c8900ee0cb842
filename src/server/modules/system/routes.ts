import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireRole, signedInUser } from "#server/auth/guards";
import { route } from "#server/http/route";
import { countRecords, type FxRateRow, listFxRates } from "#server/modules/system/repository";
import { retryDeadLetters, setFxRate } from "#server/modules/system/service";
import packageJson from "../../../../package.json" with { type: "json" };

const version = packageJson.version;

const toRate = (row: FxRateRow) => ({
  currencyCode: row.currencyCode,
  rateToUsd: Number(row.rateToUsd),
  fxBuffer: Number(row.fxBuffer),
  updatedAt: row.updatedAt.toISOString(),
});

/** The running system at a glance, and the exchange rates prices are converted with; super admins only. */
export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  route(
    app,
    "GET /admin/system",
    {
      tags: ["admin"],
      summary: "Version, uptime, database health, mail and storage, record counts and exchange rates",
      description: "An unreachable database answers healthy false (counts null), not an error.",
      onRequest: requireRole("superAdmin"),
    },
    async (request) => {
      const { database, env, storage } = app;
      const started = performance.now();
      let healthy = true;
      try {
        await database.ping();
      } catch (error) {
        request.log.error({ err: error }, "system: database unreachable");
        healthy = false;
      }
      const latencyMs = healthy ? Math.round((performance.now() - started) * 10) / 10 : null;
      const [figures, rates] = healthy ? await Promise.all([countRecords(db), listFxRates(db)]) : [null, []];
      return {
        version,
        uptimeSeconds: Math.round(process.uptime()),
        nodeVersion: process.version,
        database: { kind: database.kind, healthy, latencyMs },
        mail: { transport: env.SMTP_URL ? ("smtp" as const) : ("outbox" as const) },
        storage: { driver: storage.driver },
        counts: figures,
        fxRates: rates.map(toRate),
      };
    },
  );

  route(
    app,
    "GET /admin/jobs",
    {
      tags: ["admin"],
      summary: "Background job queues: waiting, running and dead-lettered jobs, and each queue's last run",
      onRequest: requireRole("superAdmin"),
    },
    async () => {
      const [queues, deadLetters] = await Promise.all([app.jobs.status(), app.jobs.deadLetters(100)]);
      const iso = (date: Date | null) => date?.toISOString() ?? null;
      return {
        queues: queues.map((queue) => ({
          ...queue,
          lastRun: queue.lastRun
            ? {
                ...queue.lastRun,
                startedAt: queue.lastRun.startedAt.toISOString(),
                finishedAt: iso(queue.lastRun.finishedAt),
              }
            : null,
        })),
        deadLetters: deadLetters.map((job) => ({ ...job, failedAt: job.failedAt.toISOString() })),
      };
    },
  );

  route(
    app,
    "POST /admin/jobs/retry",
    {
      tags: ["admin"],
      summary: "Send dead-lettered jobs (these, or all) back to their queue for another round of attempts",
      onRequest: requireRole("superAdmin"),
    },
    async (request) => {
      const { ids } = request.body;
      const retried = await retryDeadLetters(db, app.jobs, signedInUser(request), ids);
      return { retried };
    },
  );

  route(
    app,
    "PUT /admin/fx-rates/:code",
    {
      tags: ["admin"],
      summary: "Set a currency's rate to USD and its buffer; displayed prices use them on the next load",
      description:
        "USD is the base currency and is refused. The public GET /api/fx-rates reads the same rows.",
      onRequest: requireRole("superAdmin"),
    },
    async (request) => {
      const me = signedInUser(request);
      const { code } = request.params;
      const { rateToUsd, fxBuffer } = request.body;
      const row = await setFxRate(db, me, code, { rateToUsd, fxBuffer });
      request.log.info({ currency: code, rateToUsd, fxBuffer, by: me.id }, "exchange rate changed");
      return { rate: toRate(row) };
    },
  );
};
