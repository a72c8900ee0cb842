import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { recordTransferSchemaAt } from "#domain/bank-transfer";
import { requireRole, requireUser, signedInUser } from "#server/auth/guards";
import { ValidationError } from "#server/errors";
import { route } from "#server/http/route";
import {
  adminBankTransfer,
  bankTransferDepsOf,
  buyerBankTransfer,
  orderByReference,
  recordTransfer,
} from "#server/modules/bank-transfers/service";

/** Bank transfers: the buyer's instructions, and the admins' record of the money that arrived. */
export const bankTransferRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = bankTransferDepsOf(app);

  route(
    app,
    "GET /orders/:id/bank-transfer",
    {
      tags: ["orders"],
      summary: "How to pay your bank-transfer order, and how much of it has arrived",
      description:
        "The operator's account (demo details in test mode), the reference to write on the transfer, the amount due, the due date and the standing of the transfers received. Someone else's order, or one paid another way, answers 404.",
      onRequest: requireUser,
    },
    async (request) => buyerBankTransfer(deps, request.params.id, signedInUser(request).id),
  );

  app.register(async (scope) => {
    const admin = scope.withTypeProvider<ZodTypeProvider>();

    route(
      admin,
      "GET /admin/bank-transfers/lookup",
      {
        tags: ["admin"],
        summary: "The order a transfer reference names",
        description:
          "Forgives what a bank statement does to a reference (case, spaces, dashes, O for 0, I or L for 1, a missing SB); a mistyped character fails its check.",
        onRequest: requireRole("admin"),
      },
      async (request) => orderByReference(deps, request.query.reference),
    );

    route(
      admin,
      "GET /admin/orders/:id/bank-transfer",
      {
        tags: ["admin"],
        summary: "A bank-transfer order's instructions and every transfer recorded for it",
        onRequest: requireRole("admin"),
      },
      async (request) => adminBankTransfer(deps, request.params.id),
    );

    route(
      admin,
      "POST /admin/orders/:id/bank-transfers",
      {
        tags: ["admin"],
        summary: "Record a transfer received for a bank-transfer order",
        description:
          "Stored and audited. When the transfers cover the amount due, the order is confirmed and delivered (licenses, commissions, confirmation e-mail) in the same transaction, once; short of it, it stays processing. The same bank reference for the same order again changes nothing (recorded: false); with another amount or day it answers 409 TRANSFER_ALREADY_RECORDED. A paid or cancelled order answers 409 ORDER_NOT_AWAITING_TRANSFER.",
        onRequest: requireRole("admin"),
        config: { rateLimit: { max: 60, timeWindow: "1 minute" } },
      },
      async (request, reply) => {
        const parsed = recordTransferSchemaAt(new Date()).safeParse(request.body);
        if (!parsed.success) {
          const details = parsed.error.issues.map((issue) => ({
            path: issue.path.join("."),
            message: issue.message,
          }));
          const first = details[0];
          throw new ValidationError(
            first ? `Invalid body${first.path ? ` '${first.path}'` : ""}: ${first.message}` : "Invalid body.",
            details,
          );
        }
        const me = signedInUser(request);
        const answer = await recordTransfer(deps, me, request.params.id, parsed.data);
        request.log.info(
          { orderId: request.params.id, recorded: answer.recorded, delivered: answer.delivered, by: me.id },
          "bank transfer recorded",
        );
        return reply.status(answer.recorded ? 201 : 200).send(answer);
      },
    );
  });
};
