import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireRole, signedInUser } from "#server/auth/guards";
import { route } from "#server/http/route";
import { bankPaymentFile } from "#server/modules/payouts/bank-file";
import { listBatches } from "#server/modules/payouts/repository";
import {
  batchDetail,
  payoutDepsOf,
  previewPayouts,
  runPayoutBatch,
  settlePayoutByHand,
  toBatch,
} from "#server/modules/payouts/service";

const BATCHES_PAGE_SIZE = 20;
/** Payout batches: super admins only, every step audited and e-mailed to the payee. */
export const payoutRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = () => payoutDepsOf(app);

  route(
    app,
    "GET /admin/payouts/preview",
    {
      tags: ["admin"],
      summary: "Every available balance, and whether a batch run now would pay it",
      onRequest: requireRole("superAdmin"),
    },
    async (request) =>
      previewPayouts(deps(), request.query.minimum ?? app.env.PAYOUT_MINIMUM_USD, app.clock.now()),
  );

  route(
    app,
    "POST /admin/payouts/batches",
    {
      tags: ["admin"],
      summary: "Approve a payout batch for the chosen payees",
      onRequest: requireRole("superAdmin"),
    },
    async (request, reply) => {
      const detail = await runPayoutBatch(deps(), signedInUser(request), request.body, app.clock.now());
      return reply.code(201).send(detail);
    },
  );

  route(
    app,
    "GET /admin/payouts/batches",
    {
      tags: ["admin"],
      summary: "Payout batches, newest first",
      onRequest: requireRole("superAdmin"),
    },
    async (request) => {
      const { page } = request.query;
      const { rows, total } = await listBatches(app.database.db, page, BATCHES_PAGE_SIZE);
      return { items: rows.map(toBatch), total, page, pageSize: BATCHES_PAGE_SIZE };
    },
  );

  route(
    app,
    "GET /admin/payouts/batches/:id",
    {
      tags: ["admin"],
      summary: "One batch with its payouts",
      onRequest: requireRole("superAdmin"),
    },
    async (request) => batchDetail(app.database.db, request.params.id),
  );

  route(
    app,
    "GET /admin/payouts/batches/:id/bank-file.csv",
    {
      tags: ["admin"],
      summary: "The bank payment file of the batch's bank payouts (CSV); the download is audited",
      onRequest: requireRole("superAdmin"),
    },
    async (request, reply) => {
      const file = await bankPaymentFile(deps(), signedInUser(request), request.params.id);
      return reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="${file.name}"`)
        .header("cache-control", "private, no-store")
        .send(file.csv);
    },
  );

  route(
    app,
    "POST /admin/payouts/:id/paid",
    {
      tags: ["admin"],
      summary: "A bank payout arrived: mark it paid with the bank's reference",
      onRequest: requireRole("superAdmin"),
    },
    async (request) =>
      settlePayoutByHand(deps(), signedInUser(request), request.params.id, { paid: request.body.reference }),
  );

  route(
    app,
    "POST /admin/payouts/:id/failed",
    {
      tags: ["admin"],
      summary: "A payout failed: its money goes back to the payee's balance",
      onRequest: requireRole("superAdmin"),
    },
    async (request) =>
      settlePayoutByHand(deps(), signedInUser(request), request.params.id, { failed: request.body.reason }),
  );
};
