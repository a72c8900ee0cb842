import { count, desc, eq, type SQL } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { applicationStatusSchema, csvCell, INBOX_PAGE_SIZE, inboxQuery } from "#domain/inbound";
import { requireRole } from "#server/auth/guards";
import { user } from "#server/db/schema/auth";
import { contactMessages, newsletterSubscriptions, partnerApplications } from "#server/db/schema/inbound";
import { NotFound } from "#server/errors";

const page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number(), page: z.number(), pageSize: z.number() });

const messageSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  subject: z.string(),
  message: z.string(),
  createdAt: z.date(),
});
const applicationSchema = z.object({
  id: z.string(),
  companyName: z.string(),
  contactPerson: z.string(),
  email: z.string(),
  productType: z.string(),
  country: z.string(),
  website: z.string(),
  companySize: z.string(),
  message: z.string(),
  status: z.string(),
  createdAt: z.date(),
  updatedAt: z.date(),
});
const subscriberSchema = z.object({
  email: z.string(),
  status: z.enum(["confirmed", "pending", "unsubscribed"]),
  createdAt: z.date(),
  confirmedAt: z.date().nullable(),
});
const listQuery = inboxQuery.omit({ status: true });

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
        response: { 200: page(messageSchema) },
      },
    },
    async (request) =>
      pageOf(
        (offset) =>
          db
            .select()
            .from(contactMessages)
            .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
            .limit(INBOX_PAGE_SIZE)
            .offset(offset),
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
        response: { 200: page(applicationSchema) },
      },
    },
    async (request) => {
      const { status } = request.query;
      const where: SQL | undefined = status ? eq(partnerApplications.status, status) : undefined;
      return pageOf(
        (offset) =>
          db
            .select()
            .from(partnerApplications)
            .where(where)
            .orderBy(desc(partnerApplications.createdAt), desc(partnerApplications.id))
            .limit(INBOX_PAGE_SIZE)
            .offset(offset),
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
        response: { 200: z.object({ application: applicationSchema, sellerGranted: z.boolean() }) },
      },
    },
    async (request) => {
      const { status } = request.body;
      return db.transaction(async (tx) => {
        const [application] = await tx
          .update(partnerApplications)
          .set({ status, updatedAt: new Date() })
          .where(eq(partnerApplications.id, request.params.id))
          .returning();
        if (!application) throw new NotFound("This application does not exist.");
        let sellerGranted = false;
        if (status === "approved") {
          const granted = await tx
            .update(user)
            .set({ isSeller: true, updatedAt: new Date() })
            .where(eq(user.email, application.email.toLowerCase()))
            .returning({ id: user.id });
          sellerGranted = granted.length > 0;
        }
        request.log.info(
          { applicationId: application.id, status, sellerGranted, by: request.user?.id },
          "partner application updated",
        );
        return { application, sellerGranted };
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
        response: { 200: page(subscriberSchema) },
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
            createdAt: row.createdAt,
            confirmedAt: row.confirmedAt,
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
