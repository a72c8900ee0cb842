import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { notificationListSchema, unreadCountSchema } from "#domain/notifications";
import { pageNumber } from "#domain/paging";
import { requireUser, signedInUser } from "#server/auth/guards";
import { NotFound } from "#server/errors";
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
  app.addHook("onRequest", requireUser);

  app.get(
    "/notifications",
    {
      schema: {
        tags: ["notifications"],
        summary: "Your notifications, newest first",
        querystring: z.object({ page: pageNumber }),
        response: { 200: notificationListSchema },
      },
    },
    async (request) => listNotifications(db, signedInUser(request).id, request.query.page),
  );

  app.get(
    "/notifications/unread-count",
    {
      schema: {
        tags: ["notifications"],
        summary: "How many of your notifications are unread (the header's bell)",
        response: { 200: unreadCountSchema },
      },
    },
    async (request) => ({ unread: await unreadCount(db, signedInUser(request).id) }),
  );

  app.post(
    "/notifications/:id/read",
    {
      config: { rateLimit: { max: 120, timeWindow: "1 minute" } },
      schema: {
        tags: ["notifications"],
        summary: "Mark one of your notifications read",
        description: "Someone else's notification answers 404.",
        params: z.object({ id: z.uuid("Unknown notification") }),
        response: { 200: unreadCountSchema },
      },
    },
    async (request) => {
      const me = signedInUser(request);
      if (!(await markRead(db, me.id, request.params.id, app.clock.now())))
        throw new NotFound("Notification not found.", "NOTIFICATION_NOT_FOUND");
      return { unread: await unreadCount(db, me.id) };
    },
  );

  app.post(
    "/notifications/read-all",
    {
      config: { rateLimit: { max: 30, timeWindow: "1 minute" } },
      schema: {
        tags: ["notifications"],
        summary: "Mark all your notifications read",
        response: { 200: unreadCountSchema },
      },
    },
    async (request) => {
      const me = signedInUser(request);
      await markAllRead(db, me.id, app.clock.now());
      return { unread: 0 };
    },
  );
};
