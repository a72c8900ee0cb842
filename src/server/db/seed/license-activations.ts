import { and, asc, eq } from "drizzle-orm";
import { DAY_MS } from "#domain/dates";
import type { Database } from "#server/db/client";
import { licenseActivations, licenses } from "#server/db/schema/after-sale";
import { user } from "#server/db/schema/auth";
import { DEMO_SUBSCRIBER } from "#server/db/seed/subscriptions";

/** Two machines the demo buyer's software was activated on, one on each of their two oldest keys. */
const DEMO_MACHINES = [
  { machine: "bianca-laptop-7f3a91", label: "Bianca's laptop", activatedDaysAgo: 40, seenDaysAgo: 1 },
  { machine: "studio-desktop-c02d44", label: "Studio desktop", activatedDaysAgo: 12, seenDaysAgo: 3 },
] as const;

/**
 * The demo buyer's licences are each one seat (`SEATS_PER_LICENSE`), so the buyer's two oldest active
 * keys get a machine each: the Licenses screen shows activations at once. Idempotent.
 */
export async function seedDemoActivations(db: Database, { now }: { now: Date }) {
  const keys = await db
    .select({ id: licenses.id })
    .from(licenses)
    .innerJoin(user, eq(user.id, licenses.userId))
    .where(and(eq(user.email, DEMO_SUBSCRIBER), eq(licenses.status, "active")))
    .orderBy(asc(licenses.issuedAt), asc(licenses.key))
    .limit(DEMO_MACHINES.length);
  const rows = keys.flatMap((key, i) => {
    const demo = DEMO_MACHINES[i];
    if (!demo) return [];
    return [
      {
        licenseId: key.id,
        machine: demo.machine,
        label: demo.label,
        activatedAt: new Date(now.getTime() - demo.activatedDaysAgo * DAY_MS),
        lastSeenAt: new Date(now.getTime() - demo.seenDaysAgo * DAY_MS),
      },
    ];
  });
  if (rows.length > 0) await db.insert(licenseActivations).values(rows).onConflictDoNothing();
}
