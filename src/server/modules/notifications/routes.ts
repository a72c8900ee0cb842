import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireUser, signedInUser } from "#server/auth/guards";
import { NotFound } from "#server/errors";
import { route } from "#server/http/route";
import {
  listNotifications,
  markAllRead,
  markRead,
  unreadCount,
} from "#server/modules/notifications/repository";

/**
 * A signed-in person's own notifications (written by `notify` in the transaction of their cause): the
 * list, the bell's unread count, and marking read. The account always comes from the session.
 */
export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  route(
    app,
    "GET /notifications",
    {
      tags: ["notifications"],
      summary: "Your notifications, newest first",
      onRequest: requireUser,
    },
    async (request) => listNotifications(db, signedInUser(request).id, request.query.page),
  );

  route(
    app,
    "GET /notifications/unread-count",
    {
      tags: ["notifications"],
      summary: "How many of your notifications are unread (the header's bell)",
      onRequest: requireUser,
    },
    async (request) => ({ unread: await unreadCount(db, signedInUser(request).id) }),
  );

  route(
    app,
    "POST /notifications/:id/read",
    {
      tags: ["notifications"],
      summary: "Mark one of your notifications read",
      description: "Someone else's notification answers 404.",
      onRequest: requireUser,
      config: { rateLimit: { max: 120, timeWindow: "1 minute" } },
    },
    async (request) => {
      const me = signedInUser(request);
      if (!(await markRead(db, me.id, request.params.id, app.clock.now())))
        throw new NotFound("Notification not found.", "NOTIFICATION_NOT_FOUND");
      return { unread: await unreadCount(db, me.id) };
    },
  );

  route(
    app,
    "POST /notifications/read-all",
    {
      tags: ["notifications"],
      summary: "Mark all your notifications read",
      onRequest: requireUser,
      config: { rateLimit: { max: 30, timeWindow: "1 minute" } },
    },
    async (request) => {
      const me = signedInUser(request);
      await markAllRead(db, me.id, app.clock.now());
      return { unread: 0 };
    },
  );
};
