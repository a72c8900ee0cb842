import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import { errorStatus } from "#domain/error-codes";
import {
  CAP_ALERT_LEVELS,
  capLevelsReached,
  MAX_PERIOD_USAGE,
  rateUsage,
  type SpendingCapInput,
  USAGE_CLOCK_SKEW_MS,
  USAGE_GRACE_MS,
  type UsageBatchAnswer,
  type UsageRecordResult,
  type UsageSummary,
  usageLabel,
  usagePeriod,
  usagePeriodAt,
  type usageRecordInputSchema,
  usageSummary,
} from "#domain/metering";
import { formatUsd, lineTotal } from "#domain/money";
import { paths } from "#domain/routes";
import type { Subscription } from "#domain/subscription-schemas";
import type { Period } from "#domain/subscriptions";
import type { Database, Transaction } from "#server/db/client";
import { AppError, Conflict, NotFound } from "#server/errors";
import type { JobQueue } from "#server/jobs/queue";
import type { Clock } from "#server/lib/clock";
import { notify } from "#server/modules/notifications/service";
import { emitSellerEvent } from "#server/modules/seller-webhooks/events";
import { lockSubscriptionOfUser, periodUsage } from "#server/modules/subscriptions/repository";
import { subscriptionOf } from "#server/modules/subscriptions/service";
import {
  addToPeriods,
  deleteRecords,
  insertRecords,
  type MeteredRow,
  type NewUsageRecord,
  ratedPeriods,
  recordIdsByKey,
  resetAlerts,
  sellerSubscriptionsById,
  sellerSubscriptionsByKey,
  setAlertsSent,
  setSpendingCap,
} from "#server/modules/usage/repository";

type UsageRecord = z.output<typeof usageRecordInputSchema>;

export type UsageDeps = { db: Database; jobs: JobQueue; clock: Clock };

export function usageDepsOf(app: FastifyInstance): UsageDeps {
  return { db: app.database.db, jobs: app.jobs, clock: app.clock };
}

/** Why a record may be refused: each a declared code of `POST /seller/v1/usage`. */
type UsageRefusal =
  | "USAGE_SUBSCRIPTION_NOT_FOUND"
  | "USAGE_NOT_METERED"
  | "USAGE_OUT_OF_PERIOD"
  | "USAGE_TOO_LATE"
  | "USAGE_CORRECTION_TOO_LARGE"
  | "USAGE_PERIOD_LIMIT";

const refused = (code: UsageRefusal, message: string): UsageRecordResult => ({
  status: "refused",
  id: null,
  code,
  message,
});

/**
 * A record checked against its subscription: the period it counts in, or why it is refused. `periods`
 * holds the period last found for each subscription, which the batch's other records at times within it
 * reuse rather than work out again.
 */
function placeRecord(
  record: UsageRecord,
  subscription: MeteredRow | undefined,
  now: Date,
  periods: Map<string, Period>,
): { periodIndex: number; usedAt: Date } | UsageRecordResult {
  if (!subscription)
    return refused(
      "USAGE_SUBSCRIPTION_NOT_FOUND",
      record.licenseKey
        ? "No subscription of your products has this license key."
        : "No subscription of your products has this id.",
    );
  if (!subscription.meterUnit || !subscription.usageTiers)
    return refused(
      "USAGE_NOT_METERED",
      "This subscription's plan is not metered: it takes no usage records.",
    );
  const usedAt = new Date(record.usedAt);
  if (usedAt < subscription.createdAt || usedAt < subscription.anchor)
    return refused("USAGE_OUT_OF_PERIOD", "usedAt is before the subscription started.");
  if (usedAt.getTime() > now.getTime() + USAGE_CLOCK_SKEW_MS)
    return refused("USAGE_OUT_OF_PERIOD", "usedAt is in the future.");
  if (subscription.endedAt && usedAt >= subscription.endedAt)
    return refused("USAGE_OUT_OF_PERIOD", "usedAt is after the subscription ended.");
  // An ended subscription's use is billed (finally) an hour after its end, whatever period it fell in.
  if (subscription.endedAt && subscription.endedAt.getTime() + USAGE_GRACE_MS <= now.getTime())
    return refused(
      "USAGE_TOO_LATE",
      `The subscription ended on ${subscription.endedAt.toISOString()}; records are taken until an hour after it ends.`,
    );
  const last = periods.get(subscription.id);
  const period =
    last && last.start <= usedAt && usedAt < last.end ? last : usagePeriodAt(subscription, usedAt);
  periods.set(subscription.id, period);
  if (period.end.getTime() + USAGE_GRACE_MS <= now.getTime())
    return refused(
      "USAGE_TOO_LATE",
      `The period this use belongs to ended on ${period.end.toISOString()}; records are taken until an hour after a period ends.`,
    );
  return { periodIndex: period.index, usedAt };
}

/**
 * Records a seller's report of use (decision 0029), a record or a batch of up to 1,000, in one
 * transaction. Each record is placed in the period its time falls in and checked (the seller's metered
 * subscription, after its start and before its end, not in the future, its period not closed); a record
 * whose idempotency key the seller used before is that record again and counts once, also when the same
 * key is reported twice at the same moment. The records accepted are added to their periods' running
 * sums; a correction that would take a period below zero is refused with its period's other new records.
 * Reaching 50%, 80% or 100% of the buyer's spending cap alerts the buyer once per level and period.
 * Answers one result per record, in the order sent.
 */
export async function reportUsage(
  deps: UsageDeps,
  sellerId: string,
  records: readonly UsageRecord[],
): Promise<UsageBatchAnswer> {
  const now = deps.clock.now();
  const results = await deps.db.transaction(async (tx) => {
    const byId = new Map(
      (
        await sellerSubscriptionsById(tx, sellerId, [
          ...new Set(records.flatMap((r) => (r.subscriptionId ? [r.subscriptionId] : []))),
        ])
      ).map((row) => [row.id, row]),
    );
    const byKey = new Map(
      (
        await sellerSubscriptionsByKey(tx, sellerId, [
          ...new Set(records.flatMap((r) => (r.licenseKey ? [r.licenseKey.toUpperCase()] : []))),
        ])
      ).map(({ key, ...row }) => [key, row]),
    );
    const answers: (UsageRecordResult | null)[] = records.map(() => null);
    const placed = new Map<string, { index: number; row: NewUsageRecord; subscription: MeteredRow }>();
    const periods = new Map<string, Period>();
    records.forEach((record, index) => {
      // The same key twice in one batch is one record: the first is counted, the others repeat it.
      if (placed.has(record.idempotencyKey)) return;
      const subscription = record.subscriptionId
        ? byId.get(record.subscriptionId)
        : byKey.get(record.licenseKey?.toUpperCase() ?? "");
      const place = placeRecord(record, subscription, now, periods);
      if ("status" in place || !subscription) {
        answers[index] = "status" in place ? place : null;
        return;
      }
      placed.set(record.idempotencyKey, {
        index,
        subscription,
        row: {
          subscriptionId: subscription.id,
          periodIndex: place.periodIndex,
          quantity: record.quantity,
          usedAt: place.usedAt,
          idempotencyKey: record.idempotencyKey,
          reason: record.reason ?? null,
        },
      });
    });
    const inserted = await insertRecords(
      tx,
      sellerId,
      [...placed.values()].map((p) => p.row),
      now,
    );
    // Keys reported before this batch answer the record they made. Read now, before the periods' rows are
    // locked below: those locks are held until the commit, and every report for these subscriptions waits
    // on them, so the work done under them is kept to the least.
    const before = await recordIdsByKey(tx, sellerId, [
      ...new Set(
        records
          .filter((record, index) => answers[index] === null && !inserted.has(record.idempotencyKey))
          .map((record) => record.idempotencyKey),
      ),
    ]);
    // Add each period's new records to its sum; a period that takes none refuses them all.
    const deltas = new Map<string, { subscriptionId: string; periodIndex: number; delta: number }>();
    for (const { row } of placed.values()) {
      if (!inserted.has(row.idempotencyKey)) continue;
      const key = `${row.subscriptionId}:${row.periodIndex}`;
      const delta = deltas.get(key) ?? {
        subscriptionId: row.subscriptionId,
        periodIndex: row.periodIndex,
        delta: 0,
      };
      delta.delta += row.quantity;
      deltas.set(key, delta);
    }
    const added = await addToPeriods(tx, [...deltas.values()], now);
    const took = new Set(added.map((p) => `${p.subscriptionId}:${p.periodIndex}`));
    const closed = await ratedPeriods(
      tx,
      [...deltas.entries()].filter(([key]) => !took.has(key)).map(([, d]) => d),
    );
    const undone: string[] = [];
    for (const { index, row } of placed.values()) {
      const id = inserted.get(row.idempotencyKey);
      if (!id) continue;
      const key = `${row.subscriptionId}:${row.periodIndex}`;
      if (took.has(key)) {
        answers[index] = { status: "recorded", id, code: null, message: null };
        continue;
      }
      undone.push(id);
      answers[index] = closed.has(key)
        ? refused("USAGE_TOO_LATE", "The period this use belongs to is invoiced already.")
        : (deltas.get(key)?.delta ?? 0) < 0
          ? refused("USAGE_CORRECTION_TOO_LARGE", "These records would take the period's use below zero.")
          : refused(
              "USAGE_PERIOD_LIMIT",
              `A period counts at most ${MAX_PERIOD_USAGE.toLocaleString("en-US")} units of use.`,
            );
    }
    await deleteRecords(tx, undone);
    // Keys reported before (or twice in this batch) answer the record they made; a repeat of a record of
    // this batch that was refused is refused too.
    const undoneIds = new Set(undone);
    records.forEach((record, index) => {
      if (answers[index] !== null) return;
      const made = inserted.get(record.idempotencyKey);
      const id =
        made === undefined ? before.get(record.idempotencyKey) : undoneIds.has(made) ? undefined : made;
      answers[index] = id
        ? { status: "duplicate", id, code: null, message: null }
        : refused("USAGE_OUT_OF_PERIOD", "The record repeats one of this batch that was refused.");
    });
    const subscriptionsById = new Map([...placed.values()].map((p) => [p.subscription.id, p.subscription]));
    for (const period of added) {
      const subscription = subscriptionsById.get(period.subscriptionId);
      if (subscription?.spendingCap != null) await alertOnCap(deps, tx, sellerId, subscription, period, now);
    }
    return answers as UsageRecordResult[];
  });
  return {
    recorded: results.filter((r) => r.status === "recorded").length,
    duplicates: results.filter((r) => r.status === "duplicate").length,
    refused: results.filter((r) => r.status === "refused").length,
    results,
  };
}

/** One record, as `reportUsage` takes it; a refused record answers its error. */
export async function reportOne(deps: UsageDeps, sellerId: string, record: UsageRecord) {
  const [result] = (await reportUsage(deps, sellerId, [record])).results;
  if (!result) throw new Error("a report of one record answered nothing");
  if (result.status === "refused" && result.code && result.message)
    throw new AppError(errorStatus[result.code as UsageRefusal], result.code as UsageRefusal, result.message);
  return result;
}

/**
 * Alerts the buyer when a period's use passes 50%, 80% or 100% of their spending cap: once per level and
 * period (`alerts_sent`, set under the period's row lock the report holds). A report passing several
 * levels at once sends one alert, for the highest.
 */
async function alertOnCap(
  deps: UsageDeps,
  tx: Transaction,
  sellerId: string,
  subscription: MeteredRow,
  period: { periodIndex: number; quantity: string; alertsSent: number },
  now: Date,
) {
  if (!subscription.usageTiers || !subscription.meterUnit || subscription.spendingCap === null) return;
  const spent = rateUsage(Number(period.quantity), subscription.usageTiers);
  const reached = capLevelsReached(spent, subscription.spendingCap);
  if (reached <= period.alertsSent) return;
  if (!(await setAlertsSent(tx, subscription.id, period.periodIndex, reached))) return;
  const level = CAP_ALERT_LEVELS[reached - 1] as number;
  const used = usageLabel(Number(period.quantity), subscription.meterUnit);
  const { start, end } = usagePeriod(subscription, period.periodIndex);
  // At the cap the seller is told too, so their service can stop or slow down (its key checks over_cap).
  if (level >= 100)
    await emitSellerEvent(tx, {
      sellerId,
      type: "usage.cap_reached",
      at: now,
      data: {
        subscriptionId: subscription.id,
        productName: subscription.productName,
        periodStart: start.toISOString(),
        periodEnd: end.toISOString(),
        unit: subscription.meterUnit,
        quantity: Number(period.quantity),
        usageAmount: spent,
        cap: subscription.spendingCap,
      },
    });
  await notify(
    deps.jobs,
    tx,
    subscription.userId,
    {
      kind: "usage_alert",
      title:
        level >= 100
          ? `${subscription.productName} reached your spending cap`
          : `${subscription.productName} used ${level}% of your spending cap`,
      body: [
        `This period's use so far: ${used}, ${formatUsd(spent)} of your ${formatUsd(subscription.spendingCap)} cap (before tax).`,
        level >= 100
          ? "The seller has been told, and may stop or slow the service until you raise the cap. Use already made is still billed."
          : "You can raise or remove the cap on your renewal desk at any time.",
      ],
      link: paths.dashboard("subscriptions"),
      action: "Review the cap",
    },
    now,
  );
}

/** The seller's view of a metered subscription's current period. */
export async function sellerUsageSummary(
  deps: UsageDeps,
  sellerId: string,
  id: string,
): Promise<UsageSummary> {
  const [subscription] = await sellerSubscriptionsById(deps.db, sellerId, [id]);
  if (!subscription)
    throw new NotFound("No subscription of your products has this id.", "USAGE_SUBSCRIPTION_NOT_FOUND");
  if (!subscription.meterUnit || !subscription.usageTiers)
    throw new Conflict("This subscription's plan is not metered.", "USAGE_NOT_METERED");
  const period = usagePeriodAt(subscription, subscription.endedAt ?? deps.clock.now());
  const used = await periodUsage(deps.db, [{ subscriptionId: id, periodIndex: period.index }]);
  return usageSummary(
    {
      unit: subscription.meterUnit,
      tiers: subscription.usageTiers,
      fee: lineTotal(subscription.unitPrice, subscription.quantity),
      cap: subscription.spendingCap,
    },
    usagePeriod(subscription, period.index),
    used.get(`${id}:${period.index}`) ?? { quantity: 0, alertsSent: 0 },
  );
}

/**
 * Sets (or removes) the buyer's spending cap on a metered subscription's use per period, at once. The
 * current period's alerts are counted again against the new cap: raising it above the use re-arms the
 * levels not reached under it, so they alert when they are.
 */
export async function setCap(
  deps: UsageDeps,
  userId: string,
  id: string,
  input: z.output<z.ZodType<SpendingCapInput>>,
): Promise<Subscription> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const subscription = await lockSubscriptionOfUser(tx, userId, id);
    if (!subscription) throw new NotFound("Subscription not found.", "SUBSCRIPTION_NOT_FOUND");
    if (!subscription.meterUnit || !subscription.usageTiers)
      throw new Conflict(
        "This subscription's plan is not metered: it has no use to cap.",
        "SUBSCRIPTION_NOT_METERED",
      );
    if (subscription.endedAt)
      throw new Conflict(
        "This subscription has ended. Buy it again to start a new one.",
        "SUBSCRIPTION_ENDED",
      );
    await setSpendingCap(tx, id, input.cap, now);
    const period = usagePeriodAt(subscription, now);
    const used = (await periodUsage(tx, [{ subscriptionId: id, periodIndex: period.index }])).get(
      `${id}:${period.index}`,
    );
    if (!used) return;
    const reached = capLevelsReached(rateUsage(used.quantity, subscription.usageTiers), input.cap);
    if (reached !== used.alertsSent) await resetAlerts(tx, id, period.index, reached);
  });
  return subscriptionOf(deps.db, userId, id, now);
}
