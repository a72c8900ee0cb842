import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  adminFxRateSchema,
  fxRateParams,
  fxRateUpdateSchema,
  jobsSchema,
  retriedJobsSchema,
  retryJobsSchema,
  systemSchema,
} from "#domain/system";
import { requireRole, signedInUser } from "#server/auth/guards";
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
  app.addHook("onRequest", requireRole("superAdmin"));

  app.get(
    "/admin/system",
    {
      schema: {
        tags: ["admin"],
        summary: "Version, uptime, database health, mail and storage, record counts and exchange rates",
        description: "An unreachable database answers healthy false (counts null), not an error.",
        response: { 200: systemSchema },
      },
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

  app.get(
    "/admin/jobs",
    {
      schema: {
        tags: ["admin"],
        summary: "Background job queues: waiting, running and dead-lettered jobs, and each queue's last run",
        response: { 200: jobsSchema },
      },
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

  app.post(
    "/admin/jobs/retry",
    {
      schema: {
        tags: ["admin"],
        summary: "Send dead-lettered jobs (these, or all) back to their queue for another round of attempts",
        body: retryJobsSchema,
        response: { 200: retriedJobsSchema },
      },
    },
    async (request) => {
      const { ids } = request.body;
      const retried = await retryDeadLetters(db, app.jobs, signedInUser(request), ids);
      return { retried };
    },
  );

  app.put(
    "/admin/fx-rates/:code",
    {
      schema: {
        tags: ["admin"],
        summary: "Set a currency's rate to USD and its buffer; displayed prices use them on the next load",
        description:
          "USD is the base currency and is refused. The public GET /api/fx-rates reads the same rows.",
        params: fxRateParams,
        body: fxRateUpdateSchema,
        response: { 200: z.object({ rate: adminFxRateSchema }) },
      },
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
