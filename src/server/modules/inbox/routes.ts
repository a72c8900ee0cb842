import { count, desc, eq, type SQL } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  applicationStatusSchema,
  csvCell,
  INBOX_PAGE_SIZE,
  inboxApplicationSchema,
  inboxMessageSchema,
  inboxPageSchema,
  inboxQuery,
  inboxSubscriberSchema,
} from "#domain/inbound";
import { requireRole, signedInUser } from "#server/auth/guards";
import { user } from "#server/db/schema/auth";
import { contactMessages, newsletterSubscriptions, partnerApplications } from "#server/db/schema/inbound";
import { NotFound } from "#server/errors";
import { recordAudit } from "#server/lib/audit";

const listQuery = inboxQuery.omit({ status: true });

const iso = <T extends { createdAt: Date; updatedAt?: Date }>(row: T) => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  ...(row.updatedAt ? { updatedAt: row.updatedAt.toISOString() } : {}),
});
const application = (row: typeof partnerApplications.$inferSelect) => inboxApplicationSchema.parse(iso(row));

function subscriberStatus(row: typeof newsletterSubscriptions.$inferSelect) {
  if (row.unsubscribedAt) return "unsubscribed" as const;
  return row.confirmedAt ? ("confirmed" as const) : ("pending" as const);
}

/** What came in through the public forms, for admins: messages, seller applications, subscribers. */
export const inboxRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  app.addHook("onRequest", requireRole("admin"));
  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "private, no-store");
  });

  async function pageOf<T>(
    rows: (offset: number) => Promise<T[]>,
    total: Promise<{ n: number }[]>,
    at: number,
  ) {
    const [items, [counted]] = await Promise.all([rows((at - 1) * INBOX_PAGE_SIZE), total]);
    return { items, total: counted?.n ?? 0, page: at, pageSize: INBOX_PAGE_SIZE };
  }

  app.get(
    "/admin/inbox/messages",
    {
      schema: {
        tags: ["admin"],
        summary: "Contact messages, newest first",
        querystring: listQuery,
        response: { 200: inboxPageSchema(inboxMessageSchema) },
      },
    },
    async (request) =>
      pageOf(
        async (offset) =>
          (
            await db
              .select()
              .from(contactMessages)
              .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
              .limit(INBOX_PAGE_SIZE)
              .offset(offset)
          ).map(iso),
        db.select({ n: count() }).from(contactMessages),
        request.query.page,
      ),
  );

  app.get(
    "/admin/inbox/applications",
    {
      schema: {
        tags: ["admin"],
        summary: "Partner applications, newest first, optionally of one status",
        querystring: inboxQuery,
        response: { 200: inboxPageSchema(inboxApplicationSchema) },
      },
    },
    async (request) => {
      const { status } = request.query;
      const where: SQL | undefined = status ? eq(partnerApplications.status, status) : undefined;
      return pageOf(
        async (offset) =>
          (
            await db
              .select()
              .from(partnerApplications)
              .where(where)
              .orderBy(desc(partnerApplications.createdAt), desc(partnerApplications.id))
              .limit(INBOX_PAGE_SIZE)
              .offset(offset)
          ).map(application),
        db.select({ n: count() }).from(partnerApplications).where(where),
        request.query.page,
      );
    },
  );

  app.patch(
    "/admin/inbox/applications/:id",
    {
      schema: {
        tags: ["admin"],
        summary: "Move an application to new, reviewing, approved or rejected",
        description:
          "Approving gives the account registered with the application's e-mail address (if there is one) seller rights.",
        params: z.object({ id: z.uuid("Unknown application") }),
        body: applicationStatusSchema,
        response: { 200: z.object({ application: inboxApplicationSchema, sellerGranted: z.boolean() }) },
      },
    },
    async (request) => {
      const { status } = request.body;
      const me = signedInUser(request);
      return db.transaction(async (tx) => {
        const [previous] = await tx
          .select({ status: partnerApplications.status })
          .from(partnerApplications)
          .where(eq(partnerApplications.id, request.params.id))
          .for("update");
        if (!previous) throw new NotFound("This application does not exist.");
        const [row] = await tx
          .update(partnerApplications)
          .set({ status, updatedAt: new Date() })
          .where(eq(partnerApplications.id, request.params.id))
          .returning();
        if (!row) throw new NotFound("This application does not exist.");
        await recordAudit(tx, me, {
          action: "update",
          entityType: "partner_application",
          entityId: row.id,
          entityLabel: row.companyName,
          before: previous,
          after: { status },
        });
        let sellerGranted = false;
        if (status === "approved") {
          const [account] = await tx
            .select({ id: user.id, email: user.email, isSeller: user.isSeller })
            .from(user)
            .where(eq(user.email, row.email.toLowerCase()));
          if (account && !account.isSeller) {
            await tx
              .update(user)
              .set({ isSeller: true, updatedAt: new Date() })
              .where(eq(user.id, account.id));
            await recordAudit(tx, me, {
              action: "update",
              entityType: "user",
              entityId: account.id,
              entityLabel: account.email,
              before: { isSeller: false },
              after: { isSeller: true },
            });
          }
          sellerGranted = Boolean(account);
        }
        request.log.info(
          { applicationId: row.id, status, sellerGranted, by: me.id },
          "partner application updated",
        );
        return { application: application(row), sellerGranted };
      });
    },
  );

  app.get(
    "/admin/inbox/subscribers",
    {
      schema: {
        tags: ["admin"],
        summary: "Newsletter subscriptions with their state, newest first",
        querystring: listQuery,
        response: { 200: inboxPageSchema(inboxSubscriberSchema) },
      },
    },
    async (request) =>
      pageOf(
        async (offset) =>
          (
            await db
              .select()
              .from(newsletterSubscriptions)
              .orderBy(desc(newsletterSubscriptions.createdAt), desc(newsletterSubscriptions.id))
              .limit(INBOX_PAGE_SIZE)
              .offset(offset)
          ).map((row) => ({
            email: row.email,
            status: subscriberStatus(row),
            createdAt: row.createdAt.toISOString(),
            confirmedAt: row.confirmedAt?.toISOString() ?? null,
          })),
        db.select({ n: count() }).from(newsletterSubscriptions),
        request.query.page,
      ),
  );

  app.get(
    "/admin/inbox/subscribers.csv",
    {
      schema: {
        tags: ["admin"],
        summary: "Confirmed, active subscribers as CSV (e-mail, confirmed at)",
        produces: ["text/csv"],
      },
    },
    async (_request, reply) => {
      const rows = await db.select().from(newsletterSubscriptions).orderBy(newsletterSubscriptions.email);
      const lines = rows
        .filter((row) => subscriberStatus(row) === "confirmed")
        .map((row) => `${csvCell(row.email)},${csvCell(row.confirmedAt?.toISOString() ?? "")}\r\n`);
      const stamp = new Date().toISOString().slice(0, 10);
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="stackbay-subscribers-${stamp}.csv"`)
        .send(`email,confirmed_at\r\n${lines.join("")}`);
    },
  );
};
