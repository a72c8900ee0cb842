import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import { DAY_MS } from "#domain/dates";
import {
  MAX_SELLER_WEBHOOK_ENDPOINTS,
  SELLER_WEBHOOK_TEST_EVENT,
  type SellerWebhookDelivery,
  type SellerWebhookDeliveryPage,
  type SellerWebhookEndpoint,
  type SellerWebhookEndpointList,
  type SellerWebhookIssued,
  sellerWebhookEvents,
  type sellerWebhookInputSchema,
  type sellerWebhookUpdateSchema,
  WEBHOOK_RETRY_DAYS,
  WEBHOOK_SECRET_OVERLAP_HOURS,
  WEBHOOK_SIGNATURE_HEADER,
  webhookRetryDelaySeconds,
} from "#domain/seller-webhooks";
import type { UserRow } from "#server/auth/guards";
import type { Database } from "#server/db/client";
import { AppError, Conflict, NotFound } from "#server/errors";
import type { JobDefinition, JobQueue } from "#server/jobs/queue";
import { recordAudit } from "#server/lib/audit";
import type { Clock } from "#server/lib/clock";
import { seal, unseal } from "#server/lib/sealed";
import { webhookDisabledNotice } from "#server/mail/webhook-notices";
import { notify } from "#server/modules/notifications/service";
import { checkReceiver, ReceiverRefused } from "#server/modules/seller-webhooks/addresses";
import { writeEvent } from "#server/modules/seller-webhooks/events";
import {
  claimDelivery,
  claimDueDeliveries,
  deleteEndpoint,
  deliveriesOf,
  deliveryById,
  deliveryOfSeller,
  endpointCount,
  endpointsOf,
  failPendingOf,
  insertEndpoint,
  lockEndpoint,
  lockEndpointOfSeller,
  lockSellerRow,
  recordAttempt,
  updateEndpoint,
  type WebhookEndpointRow,
} from "#server/modules/seller-webhooks/repository";
import { postDelivery, signatureHeader } from "#server/modules/seller-webhooks/sender";

/** What webhooks to sellers need from the app; `sellerWebhookDepsOf(app)` builds it. */
export type SellerWebhookDeps = {
  db: Database;
  clock: Clock;
  jobs: JobQueue;
  /** AUTH_SECRET: the key that seals signing secrets is derived from it. */
  secret: string;
  /** Production refuses `http://` and loopback receivers. */
  production: boolean;
  /** How long an attempt waits for an answer; 10 s unless a test shortens it. */
  timeoutMs?: number;
};

export function sellerWebhookDepsOf(app: FastifyInstance): SellerWebhookDeps {
  if (!app.env.AUTH_SECRET) throw new Error("AUTH_SECRET must be set to keep webhook signing secrets");
  return {
    db: app.database.db,
    clock: app.clock,
    jobs: app.jobs,
    secret: app.env.AUTH_SECRET,
    production: app.env.NODE_ENV === "production",
  };
}

/** The purpose signing secrets are sealed under (`lib/sealed.ts`). */
const SEAL_PURPOSE = "seller-webhook-secret";
/** The queue that makes one attempt of one delivery. */
export const WEBHOOK_DELIVER_QUEUE = "seller-webhook-deliver";
/** How long a run that took a delivery holds it before another may take it again (a crashed run). */
const LEASE_MS = 5 * 60_000;
/** How many due deliveries one dispatch run takes. */
const DISPATCH_BATCH = 200;
const DELIVERIES_PAGE_SIZE = 20;

const newSecret = () => `whsec_${randomBytes(32).toString("base64url")}`;

function endpointAnswer(row: WebhookEndpointRow, now: Date): SellerWebhookEndpoint {
  const overlap = row.previousSecretUntil && row.previousSecretUntil > now ? row.previousSecretUntil : null;
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: sellerWebhookEvents.filter((event) => row.events.includes(event)),
    createdAt: row.createdAt.toISOString(),
    rotatedAt: row.rotatedAt?.toISOString() ?? null,
    previousSecretUntil: overlap?.toISOString() ?? null,
    disabledAt: row.disabledAt?.toISOString() ?? null,
    failingSince: row.failingSince?.toISOString() ?? null,
  };
}

type DeliveryRecord = NonNullable<Awaited<ReturnType<typeof deliveryById>>>;

function deliveryAnswer({ delivery, event, endpoint }: DeliveryRecord): SellerWebhookDelivery {
  return {
    id: delivery.id,
    endpointId: endpoint.id,
    endpointUrl: endpoint.url,
    eventId: event.id,
    eventType: event.type,
    status: delivery.status,
    attempts: delivery.attempts,
    responseStatus: delivery.responseStatus,
    durationMs: delivery.durationMs,
    lastError: delivery.lastError,
    lastAttemptAt: delivery.lastAttemptAt?.toISOString() ?? null,
    // A pending delivery's next attempt; a lease a run holds reads as "now".
    nextAttemptAt: delivery.status === "pending" ? (delivery.nextAttemptAt?.toISOString() ?? null) : null,
    createdAt: delivery.createdAt.toISOString(),
    payload: payloadOf(event),
  };
}

/** The body every attempt of an event's delivery posts. */
function payloadOf(event: DeliveryRecord["event"]) {
  return { id: event.id, type: event.type, createdAt: event.createdAt.toISOString(), data: event.data };
}

const endpointNotFound = () =>
  new NotFound("That webhook endpoint does not exist.", "WEBHOOK_ENDPOINT_NOT_FOUND");
const deliveryNotFound = () => new NotFound("That delivery does not exist.", "WEBHOOK_DELIVERY_NOT_FOUND");

/** Refuses a URL a delivery may not go to (decision 0030), with the reason, as 400 `WEBHOOK_URL_REFUSED`. */
async function checkUrl(deps: SellerWebhookDeps, url: string): Promise<void> {
  try {
    await checkReceiver(url, deps.production);
  } catch (error) {
    if (error instanceof ReceiverRefused)
      throw new AppError(400, "WEBHOOK_URL_REFUSED", `This URL cannot receive webhooks: ${error.message}`);
    throw error;
  }
}

export async function listEndpoints(
  { db, clock }: SellerWebhookDeps,
  sellerId: string,
): Promise<SellerWebhookEndpointList> {
  const now = clock.now();
  return { items: (await endpointsOf(db, sellerId)).map((row) => endpointAnswer(row, now)) };
}

/** Registers an endpoint; its signing secret is in this answer and nowhere else in the clear. */
export async function createEndpoint(
  deps: SellerWebhookDeps,
  me: UserRow,
  input: z.output<typeof sellerWebhookInputSchema>,
): Promise<SellerWebhookIssued> {
  await checkUrl(deps, input.url);
  const secret = newSecret();
  const now = deps.clock.now();
  const row = await deps.db.transaction(async (tx) => {
    await lockSellerRow(tx, me.id);
    if ((await endpointCount(tx, me.id)) >= MAX_SELLER_WEBHOOK_ENDPOINTS)
      throw new Conflict(
        `You can register at most ${MAX_SELLER_WEBHOOK_ENDPOINTS} webhook endpoints. Delete one you no longer use first.`,
        "WEBHOOK_ENDPOINT_LIMIT",
      );
    const made = await insertEndpoint(tx, {
      sellerId: me.id,
      url: input.url,
      description: input.description,
      events: input.events,
      secretSealed: seal(deps.secret, SEAL_PURPOSE, secret),
      createdAt: now,
    });
    await recordAudit(tx, me, {
      action: "create",
      entityType: "webhook_endpoint",
      entityId: made.id,
      entityLabel: made.url,
      before: null,
      after: { url: made.url, events: made.events },
    });
    return made;
  });
  return { endpoint: endpointAnswer(row, now), secret };
}

/**
 * Changes an endpoint's URL, description or events; `enabled: true` turns a disabled one back on (its
 * failures are forgotten), `enabled: false` turns it off.
 */
export async function changeEndpoint(
  deps: SellerWebhookDeps,
  me: UserRow,
  id: string,
  input: z.output<typeof sellerWebhookUpdateSchema>,
): Promise<SellerWebhookEndpoint> {
  if (input.url !== undefined) await checkUrl(deps, input.url);
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = await lockEndpointOfSeller(tx, me.id, id);
    if (!row) throw endpointNotFound();
    const enable = input.enabled === true && row.disabledAt !== null;
    const disable = input.enabled === false && row.disabledAt === null;
    const changed = await updateEndpoint(tx, row.id, {
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.events !== undefined ? { events: input.events } : {}),
      ...(enable ? { disabledAt: null, failingSince: null } : {}),
      ...(disable ? { disabledAt: now } : {}),
    });
    if (disable) await failPendingOf(tx, row.id, "The endpoint was turned off");
    await recordAudit(tx, me, {
      action: "update",
      entityType: "webhook_endpoint",
      entityId: row.id,
      entityLabel: changed.url,
      before: { url: row.url, events: row.events, disabledAt: row.disabledAt },
      after: { url: changed.url, events: changed.events, disabledAt: changed.disabledAt },
    });
    return endpointAnswer(changed, now);
  });
}

/** Deletes an endpoint with its deliveries; answers the seller's endpoints. */
export async function removeEndpoint(
  deps: SellerWebhookDeps,
  me: UserRow,
  id: string,
): Promise<SellerWebhookEndpointList> {
  await deps.db.transaction(async (tx) => {
    const row = await lockEndpointOfSeller(tx, me.id, id);
    if (!row) throw endpointNotFound();
    await deleteEndpoint(tx, row.id);
    await recordAudit(tx, me, {
      action: "delete",
      entityType: "webhook_endpoint",
      entityId: row.id,
      entityLabel: row.url,
      before: { url: row.url, events: row.events },
      after: null,
    });
  });
  return listEndpoints(deps, me.id);
}

/**
 * Makes a new signing secret (in this answer only). The one it replaces keeps signing beside it for
 * `WEBHOOK_SECRET_OVERLAP_HOURS`, so receivers can switch without missing a delivery.
 */
export async function rotateSecret(
  deps: SellerWebhookDeps,
  me: UserRow,
  id: string,
): Promise<SellerWebhookIssued> {
  const secret = newSecret();
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = await lockEndpointOfSeller(tx, me.id, id);
    if (!row) throw endpointNotFound();
    const rotated = await updateEndpoint(tx, row.id, {
      secretSealed: seal(deps.secret, SEAL_PURPOSE, secret),
      previousSecretSealed: row.secretSealed,
      previousSecretUntil: new Date(now.getTime() + WEBHOOK_SECRET_OVERLAP_HOURS * 3_600_000),
      rotatedAt: now,
    });
    await recordAudit(tx, me, {
      action: "update",
      entityType: "webhook_endpoint",
      entityId: row.id,
      entityLabel: row.url,
      before: { rotatedAt: row.rotatedAt },
      after: { rotatedAt: rotated.rotatedAt },
    });
    return { endpoint: endpointAnswer(rotated, now), secret };
  });
}

/**
 * Takes one delivery and attempts it within the request (a test event, a replay: the seller is waiting for
 * the outcome, at most the attempt's timeout), under a lease as the job would, so a dispatch run meanwhile
 * leaves it alone.
 */
async function attemptNow(deps: SellerWebhookDeps, deliveryId: string, retryUntil?: Date): Promise<void> {
  const lease = new Date(deps.clock.now().getTime() + LEASE_MS);
  await claimDelivery(deps.db, deliveryId, { lease, ...(retryUntil ? { retryUntil } : {}) });
  await attemptDelivery(deps, { deliveryId, lease: lease.toISOString() });
}

/**
 * Sends the test event (`ping`) to one endpoint, even one that is off or chose no such event: one
 * attempt, not retried. Answers the delivery as it stands once queued.
 */
export async function sendTestEvent(
  deps: SellerWebhookDeps,
  me: UserRow,
  id: string,
): Promise<SellerWebhookDelivery> {
  const now = deps.clock.now();
  const [delivery] = await deps.db.transaction(async (tx) => {
    const row = await lockEndpointOfSeller(tx, me.id, id);
    if (!row) throw endpointNotFound();
    return writeEvent(
      tx,
      {
        sellerId: me.id,
        type: SELLER_WEBHOOK_TEST_EVENT,
        data: { message: "A test event sent from Stackbay.", endpointId: row.id },
        at: now,
      },
      [row],
    );
  });
  if (!delivery) throw new Error("the test delivery was not stored");
  await attemptNow(deps, delivery.id, now);
  const sent = await deliveryById(deps.db, delivery.id);
  // Its endpoint was deleted meanwhile (by another request).
  if (!sent) throw endpointNotFound();
  return deliveryAnswer(sent);
}

/** Attempts a delivery again now, with the same event and id; one attempt, not retried. */
export async function replayDelivery(
  deps: SellerWebhookDeps,
  me: UserRow,
  id: string,
): Promise<SellerWebhookDelivery> {
  const found = await deliveryOfSeller(deps.db, me.id, id);
  if (!found) throw deliveryNotFound();
  await attemptNow(deps, found.delivery.id, deps.clock.now());
  return deliveryOf(deps, me.id, found.delivery.id);
}

async function deliveryOf(
  deps: SellerWebhookDeps,
  sellerId: string,
  id: string,
): Promise<SellerWebhookDelivery> {
  const found = await deliveryOfSeller(deps.db, sellerId, id);
  if (!found) throw deliveryNotFound();
  return deliveryAnswer(found);
}

export async function listDeliveries(
  { db }: SellerWebhookDeps,
  sellerId: string,
  query: { page: number; endpointId?: string | undefined },
): Promise<SellerWebhookDeliveryPage> {
  const { items, total } = await deliveriesOf(
    db,
    sellerId,
    query.endpointId,
    query.page,
    DELIVERIES_PAGE_SIZE,
  );
  return { items: items.map(deliveryAnswer), total, page: query.page, pageSize: DELIVERIES_PAGE_SIZE };
}

/** The secrets that sign now: the current one, and the one before it during a rotation's overlap. */
function signingSecrets(deps: SellerWebhookDeps, endpoint: WebhookEndpointRow, now: Date): string[] {
  const secrets = [unseal(deps.secret, SEAL_PURPOSE, endpoint.secretSealed)];
  if (endpoint.previousSecretSealed && endpoint.previousSecretUntil && endpoint.previousSecretUntil > now)
    secrets.push(unseal(deps.secret, SEAL_PURPOSE, endpoint.previousSecretSealed));
  return secrets;
}

/**
 * One attempt of a delivery that this run holds under `lease`: checks the URL's address again, posts
 * to the address checked, and records how it ended. A failure is retried with exponential back-off
 * until the delivery's `retryUntil`; an endpoint that has failed without a success for
 * `WEBHOOK_RETRY_DAYS` days is turned off and its seller told.
 */
export async function attemptDelivery(
  deps: SellerWebhookDeps,
  job: { deliveryId: string; lease: string },
): Promise<void> {
  const lease = new Date(job.lease);
  const found = await deliveryById(deps.db, job.deliveryId);
  if (!found) return;
  const { delivery, event, endpoint } = found;
  if (delivery.status !== "pending" || delivery.nextAttemptAt?.getTime() !== lease.getTime()) return;
  const now = deps.clock.now();
  const body = JSON.stringify(payloadOf(event));
  let result: { status: number | null; durationMs: number | null; error: string | null };
  try {
    const receiver = await checkReceiver(endpoint.url, deps.production);
    const timestamp = Math.floor(now.getTime() / 1000);
    result = await postDelivery(
      receiver,
      body,
      {
        [WEBHOOK_SIGNATURE_HEADER]: signatureHeader(signingSecrets(deps, endpoint, now), timestamp, body),
        "Stackbay-Event-Id": event.id,
        "Stackbay-Event-Type": event.type,
      },
      deps.timeoutMs,
    );
  } catch (error) {
    if (!(error instanceof ReceiverRefused)) throw error;
    result = { status: null, durationMs: null, error: `Refused: ${error.message}` };
  }
  const ok = result.status !== null && result.status >= 200 && result.status < 300;
  const attempts = delivery.attempts + 1;
  const retryAt = new Date(now.getTime() + webhookRetryDelaySeconds(attempts) * 1000);
  const retry = !ok && retryAt <= delivery.retryUntil;
  const recorded = await recordAttempt(deps.db, delivery.id, lease, {
    status: ok ? "succeeded" : retry ? "pending" : "failed",
    nextAttemptAt: retry ? retryAt : null,
    lastAttemptAt: now,
    responseStatus: result.status,
    durationMs: result.durationMs,
    lastError: ok ? null : (result.error ?? `The endpoint answered HTTP ${result.status}`),
  });
  if (!recorded) return;
  await endpointAfterAttempt(deps, endpoint.id, ok, now);
}

/** Keeps an endpoint's run of failures, and turns it off once it has failed for `WEBHOOK_RETRY_DAYS` days. */
async function endpointAfterAttempt(deps: SellerWebhookDeps, endpointId: string, ok: boolean, now: Date) {
  await deps.db.transaction(async (tx) => {
    // Locked, so two attempts that end at once count the run of failures once.
    const row = await lockEndpoint(tx, endpointId);
    if (!row) return;
    if (ok) {
      if (row.failingSince) await updateEndpoint(tx, row.id, { failingSince: null });
      return;
    }
    const since = row.failingSince ?? now;
    if (!row.failingSince) await updateEndpoint(tx, row.id, { failingSince: since });
    if (row.disabledAt || now.getTime() - since.getTime() < WEBHOOK_RETRY_DAYS * DAY_MS) return;
    await updateEndpoint(tx, row.id, { disabledAt: now });
    await failPendingOf(
      tx,
      row.id,
      `The endpoint was turned off after failing for ${WEBHOOK_RETRY_DAYS} days`,
    );
    await notify(deps.jobs, tx, row.sellerId, webhookDisabledNotice(row.url, WEBHOOK_RETRY_DAYS), now);
  });
}

/** Every minute: takes the deliveries that are due and queues one attempt each. */
export function sellerWebhookDispatchJob(depsOf: () => SellerWebhookDeps): JobDefinition {
  return {
    name: "seller-webhooks-dispatch",
    cron: "* * * * *",
    runAtStart: true,
    retryLimit: 2,
    retryDelaySeconds: 30,
    describe: () => "Queue the webhook deliveries that are due",
    async run() {
      const deps = depsOf();
      const now = deps.clock.now();
      const lease = new Date(now.getTime() + LEASE_MS);
      const ids = await claimDueDeliveries(deps.db, now, lease, DISPATCH_BATCH);
      await deps.jobs.sendMany(
        WEBHOOK_DELIVER_QUEUE,
        ids.map((deliveryId) => ({ deliveryId, lease: lease.toISOString() })),
      );
    },
  };
}

/** One attempt of one delivery; a receiver's failure is recorded, not thrown, so the job itself succeeds. */
export function sellerWebhookDeliverJob(
  depsOf: () => SellerWebhookDeps,
): JobDefinition<{ deliveryId: string; lease: string }> {
  return {
    name: WEBHOOK_DELIVER_QUEUE,
    retryLimit: 2,
    retryDelaySeconds: 30,
    expireInSeconds: 120,
    describe: (data) => `Deliver webhook ${data.deliveryId}`,
    run: (data) => attemptDelivery(depsOf(), data),
  };
}
