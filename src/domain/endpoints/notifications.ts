import { z } from "zod";
import { endpoint, pageQuery } from "#domain/endpoint";
import { notificationListSchema, unreadCountSchema } from "#domain/notifications";

/** What the web calls of the server's `notifications` module (`src/server/modules/notifications/routes.ts`). */
export const notificationsEndpoints = {
  "GET /notifications": endpoint({ query: pageQuery, answer: notificationListSchema, errors: [] }),
  "GET /notifications/unread-count": endpoint({ answer: unreadCountSchema, errors: [] }),
  "POST /notifications/:id/read": endpoint({
    params: z.object({ id: z.uuid("Unknown notification") }),
    answer: unreadCountSchema,
    errors: ["NOTIFICATION_NOT_FOUND"],
  }),
  "POST /notifications/read-all": endpoint({ answer: unreadCountSchema, errors: [] }),
} as const;
