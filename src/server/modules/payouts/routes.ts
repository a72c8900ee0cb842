import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  batchPayoutSchema,
  markPayoutFailedSchema,
  markPayoutPaidSchema,
  payoutBatchDetailSchema,
  payoutBatchesSchema,
  payoutPreviewSchema,
  runPayoutBatchSchema,
} from "#domain/finance";
import { pageNumber } from "#domain/paging";
import { requireRole, signedInUser } from "#server/auth/guards";
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
const idParams = z.object({ id: z.uuid("Unknown payout") });

/** Payout batches: super admins only, every step audited and e-mailed to the payee. */
export const payoutRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("onRequest", requireRole("superAdmin"));
  const deps = () => payoutDepsOf(app);

  app.get(
    "/admin/payouts/preview",
    {
      schema: {
        tags: ["admin"],
        summary: "Every available balance, and whether a batch run now would pay it",
        querystring: z.object({ minimum: z.coerce.number().min(1).max(1_000_000).optional() }),
        response: { 200: payoutPreviewSchema },
      },
    },
    async (request) =>
      previewPayouts(deps(), request.query.minimum ?? app.env.PAYOUT_MINIMUM_USD, app.clock.now()),
  );

  app.post(
    "/admin/payouts/batches",
    {
      schema: {
        tags: ["admin"],
        summary: "Approve a payout batch for the chosen payees",
        body: runPayoutBatchSchema,
        response: { 201: payoutBatchDetailSchema },
      },
    },
    async (request, reply) => {
      const detail = await runPayoutBatch(deps(), signedInUser(request), request.body, app.clock.now());
      return reply.code(201).send(detail);
    },
  );

  app.get(
    "/admin/payouts/batches",
    {
      schema: {
        tags: ["admin"],
        summary: "Payout batches, newest first",
        querystring: z.object({ page: pageNumber }),
        response: { 200: payoutBatchesSchema },
      },
    },
    async (request) => {
      const { page } = request.query;
      const { rows, total } = await listBatches(app.database.db, page, BATCHES_PAGE_SIZE);
      return { items: rows.map(toBatch), total, page, pageSize: BATCHES_PAGE_SIZE };
    },
  );

  app.get(
    "/admin/payouts/batches/:id",
    {
      schema: {
        tags: ["admin"],
        summary: "One batch with its payouts",
        params: idParams,
        response: { 200: payoutBatchDetailSchema },
      },
    },
    async (request) => batchDetail(app.database.db, request.params.id),
  );

  app.get(
    "/admin/payouts/batches/:id/bank-file.csv",
    {
      schema: {
        tags: ["admin"],
        summary: "The bank payment file of the batch's bank payouts (CSV); the download is audited",
        params: idParams,
      },
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

  app.post(
    "/admin/payouts/:id/paid",
    {
      schema: {
        tags: ["admin"],
        summary: "A bank payout arrived: mark it paid with the bank's reference",
        params: idParams,
        body: markPayoutPaidSchema,
        response: { 200: batchPayoutSchema },
      },
    },
    async (request) =>
      settlePayoutByHand(deps(), signedInUser(request), request.params.id, { paid: request.body.reference }),
  );

  app.post(
    "/admin/payouts/:id/failed",
    {
      schema: {
        tags: ["admin"],
        summary: "A payout failed: its money goes back to the payee's balance",
        params: idParams,
        body: markPayoutFailedSchema,
        response: { 200: batchPayoutSchema },
      },
    },
    async (request) =>
      settlePayoutByHand(deps(), signedInUser(request), request.params.id, { failed: request.body.reason }),
  );
};
