import { z } from "zod";
import { endpoint } from "#domain/endpoint";
import {
  applicationStatusSchema,
  inboxApplicationSchema,
  inboxMessageSchema,
  inboxQuery,
  inboxSubscriberSchema,
} from "#domain/inbound";
import { paged } from "#domain/paging";

/** What the web calls of the server's `inbox` module (`src/server/modules/inbox/routes.ts`). */
export const inboxEndpoints = {
  "GET /admin/inbox/applications": endpoint({
    query: inboxQuery,
    answer: paged(inboxApplicationSchema),
    errors: [],
  }),
  "GET /admin/inbox/messages": endpoint({
    query: inboxQuery.omit({ status: true }),
    answer: paged(inboxMessageSchema),
    errors: [],
  }),
  "GET /admin/inbox/subscribers": endpoint({
    query: inboxQuery.omit({ status: true }),
    answer: paged(inboxSubscriberSchema),
    errors: [],
  }),
  "PATCH /admin/inbox/applications/:id": endpoint({
    params: z.object({ id: z.uuid("Unknown application") }),
    body: applicationStatusSchema,
    answer: z.object({ application: inboxApplicationSchema, sellerGranted: z.boolean() }),
    errors: ["APPLICATION_NOT_FOUND"],
  }),
} as const;

/** Opened as a link rather than through `call`. */
export const inboxExternalEndpoints = {
  "GET /admin/inbox/subscribers.csv": endpoint({ answer: { file: "text/csv; charset=utf-8" }, errors: [] }),
} as const;
