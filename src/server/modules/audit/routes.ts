import { and, count, desc, eq, ilike, type SQL } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { AUDIT_PAGE_SIZE, auditListSchema, auditQuery } from "#domain/audit";
import { requireRole } from "#server/auth/guards";
import { auditLog } from "#server/db/schema/audit";
import { containsPattern, escapeLike } from "#server/lib/like";

/** LIKE wildcards typed by a person are matched literally. */
/** The audit trail for super admins: who changed what, newest first. */
export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  app.addHook("onRequest", requireRole("superAdmin"));
  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "private, no-store");
  });

  app.get(
    "/admin/audit",
    {
      schema: {
        tags: ["admin"],
        summary: "Audit entries, newest first, 50 a page",
        description:
          "Filters: entityType and action exactly; actor as part of the actor's e-mail; entityId as the id or its beginning (the short ids the screens show).",
        querystring: auditQuery,
        response: { 200: auditListSchema },
      },
    },
    async (request) => {
      const { entityType, action, actor, entityId, page } = request.query;
      const conditions: SQL[] = [];
      if (entityType) conditions.push(eq(auditLog.entityType, entityType));
      if (action) conditions.push(eq(auditLog.action, action));
      if (actor) conditions.push(ilike(auditLog.actorEmail, containsPattern(actor)));
      if (entityId) conditions.push(ilike(auditLog.entityId, `${escapeLike(entityId)}%`));
      const where = conditions.length > 0 ? and(...conditions) : undefined;
      const [rows, [counted]] = await Promise.all([
        db
          .select()
          .from(auditLog)
          .where(where)
          .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
          .limit(AUDIT_PAGE_SIZE)
          .offset((page - 1) * AUDIT_PAGE_SIZE),
        db.select({ n: count() }).from(auditLog).where(where),
      ]);
      return {
        items: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
        total: counted?.n ?? 0,
        page,
        pageSize: AUDIT_PAGE_SIZE,
      };
    },
  );
};
