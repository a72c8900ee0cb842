import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { csvText } from "#domain/csv";
import { INBOX_PAGE_SIZE, inboxApplicationSchema } from "#domain/inbound";
import { requireRole, signedInUser } from "#server/auth/guards";
import { route } from "#server/http/route";
import {
  listAllSubscriptions,
  listContactMessages,
  listPartnerApplications,
  listSubscriptions,
  type PartnerApplicationRow,
  type SubscriptionRow,
} from "#server/modules/inbox/repository";
import { changeApplicationStatus } from "#server/modules/inbox/service";

const iso = <T extends { createdAt: Date; updatedAt?: Date }>(row: T) => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  ...(row.updatedAt ? { updatedAt: row.updatedAt.toISOString() } : {}),
});
const application = (row: PartnerApplicationRow) => inboxApplicationSchema.parse(iso(row));

function subscriberStatus(row: SubscriptionRow) {
  if (row.unsubscribedAt) return "unsubscribed" as const;
  return row.confirmedAt ? ("confirmed" as const) : ("pending" as const);
}

/** What came in through the public forms, for admins: messages, seller applications, subscribers. */
export const inboxRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  const pageOf = <T>(items: T[], total: number, page: number) => ({
    items,
    total,
    page,
    pageSize: INBOX_PAGE_SIZE,
  });

  route(
    app,
    "GET /admin/inbox/messages",
    {
      tags: ["admin"],
      summary: "Contact messages, newest first",
      onRequest: requireRole("admin"),
    },
    async (request) => {
      const { page } = request.query;
      const { rows, total } = await listContactMessages(db, page);
      return pageOf(rows.map(iso), total, page);
    },
  );

  route(
    app,
    "GET /admin/inbox/applications",
    {
      tags: ["admin"],
      summary: "Partner applications, newest first, optionally of one status",
      onRequest: requireRole("admin"),
    },
    async (request) => {
      const { status, page } = request.query;
      const { rows, total } = await listPartnerApplications(db, page, status);
      return pageOf(rows.map(application), total, page);
    },
  );

  route(
    app,
    "PATCH /admin/inbox/applications/:id",
    {
      tags: ["admin"],
      summary: "Move an application to new, reviewing, approved or rejected",
      description:
        "Approving gives the account registered with the application's e-mail address (if there is one) seller rights.",
      onRequest: requireRole("admin"),
    },
    async (request) => {
      const { status } = request.body;
      const me = signedInUser(request);
      const { row, sellerGranted } = await changeApplicationStatus(db, me, request.params.id, status);
      request.log.info(
        { applicationId: row.id, status, sellerGranted, by: me.id },
        "partner application updated",
      );
      return { application: application(row), sellerGranted };
    },
  );

  route(
    app,
    "GET /admin/inbox/subscribers",
    {
      tags: ["admin"],
      summary: "Newsletter subscriptions with their state, newest first",
      onRequest: requireRole("admin"),
    },
    async (request) => {
      const { page } = request.query;
      const { rows, total } = await listSubscriptions(db, page);
      const items = rows.map((row) => ({
        email: row.email,
        status: subscriberStatus(row),
        createdAt: row.createdAt.toISOString(),
        confirmedAt: row.confirmedAt?.toISOString() ?? null,
      }));
      return pageOf(items, total, page);
    },
  );

  route(
    app,
    "GET /admin/inbox/subscribers.csv",
    {
      tags: ["admin"],
      summary: "Confirmed, active subscribers as CSV (e-mail, confirmed at)",
      onRequest: requireRole("admin"),
    },
    async (_request, reply) => {
      const rows = await listAllSubscriptions(db);
      const lines = rows
        .filter((row) => subscriberStatus(row) === "confirmed")
        .map((row) => [row.email, row.confirmedAt?.toISOString() ?? ""]);
      const stamp = new Date().toISOString().slice(0, 10);
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="stackbay-subscribers-${stamp}.csv"`)
        .send(csvText(["email", "confirmed_at"], lines));
    },
  );
};
