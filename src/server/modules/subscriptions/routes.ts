import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { CALENDAR_FILE_NAME, calendarCsv, calendarIcs, renewalCalendar } from "#domain/renewal-calendar";
import { absoluteUrl, paths } from "#domain/routes";
import { requireUser, signedInUser } from "#server/auth/guards";
import { publicUrl } from "#server/env";
import { route } from "#server/http/route";
import { setRenewal, subscriptionsOf } from "#server/modules/subscriptions/service";

/**
 * The buyer's renewal desk: their subscriptions, cancelling one at its period's end (or undoing that),
 * and the renewal calendar of the coming 12 months as iCalendar and CSV files.
 */
export const subscriptionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  route(
    app,
    "GET /subscriptions",
    {
      tags: ["subscriptions"],
      summary: "Your subscriptions, newest first, with their next renewal and licence keys",
      onRequest: requireUser,
    },
    async (request) => {
      const now = app.clock.now();
      return { items: await subscriptionsOf(db, signedInUser(request).id, now), asOf: now.toISOString() };
    },
  );

  route(
    app,
    "POST /subscriptions/:id/cancel",
    {
      tags: ["subscriptions"],
      summary: "Stop renewing: the subscription ends when its paid period does",
      description:
        "Nothing is refunded and the licences keep working until the end of the period paid for. Someone else's subscription answers 404; an ended one 409.",
      onRequest: requireUser,
      config: { rateLimit: { max: 30, timeWindow: "10 minutes" } },
    },
    async (request) => ({
      subscription: await setRenewal(db, signedInUser(request).id, request.params.id, true, app.clock.now()),
    }),
  );

  route(
    app,
    "POST /subscriptions/:id/resume",
    {
      tags: ["subscriptions"],
      summary: "Undo a cancellation before the period ends: the subscription renews again",
      onRequest: requireUser,
      config: { rateLimit: { max: 30, timeWindow: "10 minutes" } },
    },
    async (request) => ({
      subscription: await setRenewal(db, signedInUser(request).id, request.params.id, false, app.clock.now()),
    }),
  );

  /** The signed-in buyer's renewals of the coming 12 months, as the desk's calendar lists them. */
  const calendarOf = async (userId: string) => {
    const now = app.clock.now();
    return { now, renewals: renewalCalendar(await subscriptionsOf(db, userId, now), now) };
  };

  route(
    app,
    "GET /subscriptions/calendar.ics",
    {
      tags: ["subscriptions"],
      summary: "Your renewals of the coming 12 months as an iCalendar file",
      description:
        "One all-day event per renewal (UID `<subscription>-<period>@stackbay`, the same in every download), its amount in USD with tax; a past-due renewal is included on its due date.",
      onRequest: requireUser,
    },
    async (request, reply) => {
      const { now, renewals } = await calendarOf(signedInUser(request).id);
      const desk = absoluteUrl(publicUrl(app.env), paths.dashboard("subscriptions"));
      return reply
        .type("text/calendar; charset=utf-8")
        .header("content-disposition", `attachment; filename="${CALENDAR_FILE_NAME}.ics"`)
        .send(calendarIcs(renewals, now, desk));
    },
  );

  route(
    app,
    "GET /subscriptions/calendar.csv",
    {
      tags: ["subscriptions"],
      summary: "Your renewals of the coming 12 months as CSV",
      description:
        "One row per renewal: date, product, vendor, plan, seats, amount with tax, currency (USD) and status; past-due renewals first.",
      onRequest: requireUser,
    },
    async (request, reply) => {
      const { renewals } = await calendarOf(signedInUser(request).id);
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="${CALENDAR_FILE_NAME}.csv"`)
        .send(calendarCsv(renewals));
    },
  );
};
