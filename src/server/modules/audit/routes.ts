import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireRole } from "#server/auth/guards";
import { route } from "#server/http/route";
import { listAuditEntries } from "#server/modules/audit/repository";

/** The audit trail for super admins: who changed what, newest first. */
export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  route(
    app,
    "GET /admin/audit",
    {
      tags: ["admin"],
      summary: "Audit entries, newest first, 50 a page",
      description:
        "Filters: entityType and action exactly; actor as part of the actor's e-mail; entityId as the id or its beginning (the short ids the screens show).",
      onRequest: requireRole("superAdmin"),
    },
    async (request) => listAuditEntries(db, request.query),
  );
};
