import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { DAY_MS } from "#domain/dates";
import { requireRole } from "#server/auth/guards";
import { route } from "#server/http/route";
import { AdjustableClock } from "#server/lib/clock";
import { releaseDue } from "#server/modules/ledger/bookings";
import { paymentDepsOf } from "#server/modules/payments/service";
import { settleCommissions } from "#server/modules/referrals/service";
import { runRenewals } from "#server/modules/renewals/service";
import { deliverOverdue, shippingDepsOf } from "#server/modules/shipping/service";

/**
 * Test servers only (NODE_ENV=test; `buildApp` registers nothing of this otherwise): moves the money
 * clock forward and runs the releases that were due by then, as the scheduled jobs would. Journeys use
 * it to see earnings become available without waiting out the refund window.
 */
export const testClockRoutes: FastifyPluginAsyncZod = async (app) => {
  route(
    app,
    "POST /test/clock",
    {
      tags: ["test"],
      summary:
        "Test servers only: move the clock forward and run the deliveries, releases and renewals now due",
      onRequest: requireRole("superAdmin"),
    },
    async (request) => {
      const { clock } = app;
      if (!(clock instanceof AdjustableClock)) throw new Error("the test clock runs on test servers only");
      const now = clock.advance(request.body.advanceDays * DAY_MS);
      // Overdue parcels count as delivered first, as their refund window (and release) starts then.
      const delivered = await deliverOverdue(shippingDepsOf(app), now);
      const approved = await settleCommissions(app.database.db, now);
      const released = await releaseDue(app.database.db, now);
      // And the renewals now due are invoiced, reminded or ended, as the renewal job would.
      const renewals = await runRenewals(paymentDepsOf(app), now);
      return { now: now.toISOString(), delivered, released, approved, renewals };
    },
  );

  route(
    app,
    "POST /test/clock/reset",
    {
      tags: ["test"],
      summary: "Test servers only: put the clock back to the system's time",
      onRequest: requireRole("superAdmin"),
    },
    async () => {
      const { clock } = app;
      if (!(clock instanceof AdjustableClock)) throw new Error("the test clock runs on test servers only");
      return { now: clock.reset().toISOString() };
    },
  );
};
