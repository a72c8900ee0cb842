import { createHash, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyRequest, onResponseAsyncHookHandler } from "fastify";
import type { z } from "zod";
import { hasRole } from "#domain/accounts";
import { DAY_MS } from "#domain/dates";
import {
  MAX_SELLER_API_KEYS,
  SELLER_API_CALLS_PER_MINUTE,
  SELLER_API_LOG_DAYS,
  type SellerApiCallPage,
  type SellerApiKey,
  type SellerApiKeyIssued,
  type SellerApiKeyList,
  type SellerApiScope,
  type SellerApiWhoAmI,
  type sellerApiKeyInputSchema,
  sellerApiKeyPrefix,
  sellerApiScopeInfo,
  sellerApiScopes,
} from "#domain/seller-api";
import { guard, type UserRow } from "#server/auth/guards";
import type { Database } from "#server/db/client";
import { Conflict, Forbidden, NotFound, Unauthorized } from "#server/errors";
import type { Guard } from "#server/http/route";
import type { JobDefinition } from "#server/jobs/queue";
import { recordAudit } from "#server/lib/audit";
import type { Clock } from "#server/lib/clock";
import {
  callsOf,
  insertCall,
  insertKey,
  keysOf,
  liveKeyByPrefix,
  liveKeyCount,
  lockKeyOfSeller,
  lockSeller,
  pruneCalls,
  type SellerApiKeyRow,
  touchKey,
  updateKey,
} from "#server/modules/seller-api/repository";
import { findStorefrontOf } from "#server/modules/storefronts/repository";

/** What the seller API needs from the app; `sellerApiDepsOf(app)` builds it. */
export type SellerApiDeps = { db: Database; clock: Clock };

export function sellerApiDepsOf(app: FastifyInstance): SellerApiDeps {
  return { db: app.database.db, clock: app.clock };
}

/** The key a seller API call was made with, set by `requireSellerKey` for the handler and the access log. */
export type SellerKeyAuth = {
  id: string;
  sellerId: string;
  name: string;
  prefix: string;
  scopes: SellerApiScope[];
};

declare module "fastify" {
  interface FastifyRequest {
    /** Set by `requireSellerKey` once the call's key is known (even when its scope then refuses it). */
    sellerApiKey: SellerKeyAuth | null;
  }
}

/** The access log's page size. */
const CALLS_PAGE_SIZE = 25;
const ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

const hashOf = (key: string) => createHash("sha256").update(key).digest();

/** A new key: its public prefix, the whole key (shown once) and the hash that is stored instead. */
function newKey(prefix = `sbk_${Array.from({ length: 10 }, () => ID_ALPHABET[randomInt(36)]).join("")}`) {
  const key = `${prefix}_${randomBytes(32).toString("base64url")}`;
  return { prefix, key, secretHash: hashOf(key).toString("hex") };
}

function keyAnswer(row: SellerApiKeyRow): SellerApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: sellerApiScopes.filter((scope) => row.scopes.includes(scope)),
    createdAt: row.createdAt.toISOString(),
    rolledAt: row.rolledAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

const notFound = () => new NotFound("That API key does not exist.", "API_KEY_NOT_FOUND");

export async function listKeys({ db }: SellerApiDeps, sellerId: string): Promise<SellerApiKeyList> {
  return { items: (await keysOf(db, sellerId)).map(keyAnswer) };
}

/** Makes a key with the chosen name and scopes; its whole secret is in this answer and nowhere else. */
export async function createKey(
  { db, clock }: SellerApiDeps,
  me: UserRow,
  input: z.output<typeof sellerApiKeyInputSchema>,
): Promise<SellerApiKeyIssued> {
  const { prefix, key, secretHash } = newKey();
  const row = await db.transaction(async (tx) => {
    await lockSeller(tx, me.id);
    if ((await liveKeyCount(tx, me.id)) >= MAX_SELLER_API_KEYS)
      throw new Conflict(
        `You can hold at most ${MAX_SELLER_API_KEYS} API keys. Revoke one you no longer use first.`,
        "API_KEY_LIMIT",
      );
    const made = await insertKey(tx, {
      sellerId: me.id,
      name: input.name,
      prefix,
      secretHash,
      scopes: input.scopes,
      createdAt: clock.now(),
    });
    await recordAudit(tx, me, {
      action: "create",
      entityType: "api_key",
      entityId: made.id,
      entityLabel: `${made.name} (${made.prefix})`,
      before: null,
      after: { name: made.name, prefix: made.prefix, scopes: made.scopes },
    });
    return made;
  });
  return { key: keyAnswer(row), secret: key };
}

/** Replaces a live key's secret: the old one stops working at once; the new one is in this answer only. */
export async function rollKey(
  { db, clock }: SellerApiDeps,
  me: UserRow,
  id: string,
): Promise<SellerApiKeyIssued> {
  return db.transaction(async (tx) => {
    const row = await lockKeyOfSeller(tx, me.id, id);
    if (!row) throw notFound();
    if (row.revokedAt)
      throw new Conflict("A revoked key cannot be rolled. Create a new key instead.", "API_KEY_REVOKED");
    const { key, secretHash } = newKey(row.prefix);
    const rolled = await updateKey(tx, row.id, { secretHash, rolledAt: clock.now() });
    await recordAudit(tx, me, {
      action: "update",
      entityType: "api_key",
      entityId: row.id,
      entityLabel: `${row.name} (${row.prefix})`,
      before: { rolledAt: row.rolledAt },
      after: { rolledAt: rolled.rolledAt },
    });
    return { key: keyAnswer(rolled), secret: key };
  });
}

/** Ends a key for good; revoking a revoked key changes nothing. Answers the seller's keys. */
export async function revokeKey(deps: SellerApiDeps, me: UserRow, id: string): Promise<SellerApiKeyList> {
  await deps.db.transaction(async (tx) => {
    const row = await lockKeyOfSeller(tx, me.id, id);
    if (!row) throw notFound();
    if (row.revokedAt) return;
    const revoked = await updateKey(tx, row.id, { revokedAt: deps.clock.now() });
    await recordAudit(tx, me, {
      action: "delete",
      entityType: "api_key",
      entityId: row.id,
      entityLabel: `${row.name} (${row.prefix})`,
      before: { revokedAt: null },
      after: { revokedAt: revoked.revokedAt },
    });
  });
  return listKeys(deps, me.id);
}

export async function listCalls(
  { db }: SellerApiDeps,
  sellerId: string,
  page: number,
): Promise<SellerApiCallPage> {
  const { items, total } = await callsOf(db, sellerId, page, CALLS_PAGE_SIZE);
  return {
    items: items.map((call) => ({ ...call, at: call.at.toISOString() })),
    total,
    page,
    pageSize: CALLS_PAGE_SIZE,
  };
}

/** `Authorization: Bearer <key>`: the key, or null when the header is missing or another scheme. */
function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== "string") return null;
  const [scheme, value] = header.trim().split(/\s+/, 2);
  return scheme?.toLowerCase() === "bearer" && value ? value : null;
}

/**
 * The per-key rate limit's bucket: the key's public prefix when the header carries a well-formed key,
 * else the caller's address (so garbage keys cannot each get a bucket of their own).
 */
export function sellerKeyBucket(request: FastifyRequest): string {
  const prefix = sellerApiKeyPrefix(bearerOf(request) ?? "");
  return prefix ? `seller-api:${prefix}` : `seller-api-ip:${request.ip}`;
}

const invalidKey = () =>
  new Unauthorized(
    "This API key is not valid. Send a live key as `Authorization: Bearer sbk_…`; a revoked or rolled key stops working at once.",
    "API_KEY_INVALID",
  );

/**
 * Route guard of the seller API: 401 `API_KEY_INVALID` unless the call carries a live key whose stored
 * hash matches and whose owner is still a seller in good standing; 403 `API_KEY_SCOPE` when the key
 * lacks `scope`. A session cookie is never enough. Sets `request.sellerApiKey` and `request.user` (the
 * key's seller, fresh from the database) for the handler.
 */
export function requireSellerKey(deps: SellerApiDeps, scope: SellerApiScope | null): Guard {
  return guard(["API_KEY_INVALID", ...(scope ? (["API_KEY_SCOPE"] as const) : [])], async (request) => {
    const key = bearerOf(request);
    const prefix = key ? sellerApiKeyPrefix(key) : null;
    if (!key || !prefix) throw invalidKey();
    const found = await liveKeyByPrefix(deps.db, prefix);
    const stored = found ? Buffer.from(found.key.secretHash, "hex") : null;
    if (!found || !stored || !timingSafeEqual(stored, hashOf(key))) throw invalidKey();
    if (found.owner.banned || !hasRole(found.owner, "seller")) throw invalidKey();
    request.sellerApiKey = {
      id: found.key.id,
      sellerId: found.key.sellerId,
      name: found.key.name,
      prefix: found.key.prefix,
      scopes: sellerApiScopes.filter((granted) => found.key.scopes.includes(granted)),
    };
    request.user = found.owner;
    await touchKey(deps.db, found.key.id, deps.clock.now());
    if (scope && !request.sellerApiKey.scopes.includes(scope))
      throw new Forbidden(
        `This key may not do this: it needs the "${scope}" scope (${sellerApiScopeInfo[scope].label}).`,
        "API_KEY_SCOPE",
      );
  });
}

/** The key a guarded call was made with; only call it behind `requireSellerKey`. */
export function callingKey(request: FastifyRequest): SellerKeyAuth {
  if (!request.sellerApiKey) throw new Unauthorized();
  return request.sellerApiKey;
}

/**
 * The options every operation of the seller API is registered with: its OpenAPI section and security,
 * the key guard with the operation's scope, the access log, and the per-key rate limit.
 */
export function sellerKeyed(deps: SellerApiDeps, scope: SellerApiScope | null) {
  return {
    tags: ["seller-api"],
    security: "sellerApiKey" as const,
    onRequest: requireSellerKey(deps, scope),
    onResponse: recordCall(deps),
    config: {
      rateLimit: { max: SELLER_API_CALLS_PER_MINUTE, timeWindow: "1 minute", keyGenerator: sellerKeyBucket },
    },
  };
}

/** The key a call was made with and its seller (`GET /seller/v1/key`). */
export async function whoAmI({ db }: SellerApiDeps, key: SellerKeyAuth): Promise<SellerApiWhoAmI> {
  const storefront = await findStorefrontOf(db, key.sellerId);
  return {
    key: { name: key.name, prefix: key.prefix, scopes: key.scopes },
    seller: { id: key.sellerId, storefront: storefront?.name ?? null },
  };
}

/**
 * Writes each call made with a known key to its seller's access log, once answered: when, which
 * operation, how it ended. A failure to write is logged, never turned into the caller's error.
 */
export function recordCall(deps: SellerApiDeps): onResponseAsyncHookHandler {
  return async (request, reply) => {
    const key = request.sellerApiKey;
    const operation = request.routeOptions.config.endpoint;
    if (!key || !operation) return;
    await insertCall(deps.db, {
      keyId: key.id,
      sellerId: key.sellerId,
      operation,
      status: reply.statusCode,
      at: deps.clock.now(),
    }).catch((error: unknown) => request.log.error({ err: error }, "seller API call not logged"));
  };
}

/** Forgets access-log entries older than `SELLER_API_LOG_DAYS`, once a day across all instances. */
export function sellerApiLogPruneJob(deps: SellerApiDeps): JobDefinition {
  return {
    name: "seller-api-log-prune",
    cron: "41 3 * * *",
    retryLimit: 2,
    retryDelaySeconds: 300,
    describe: () => `Forget seller API calls older than ${SELLER_API_LOG_DAYS} days`,
    async run() {
      await pruneCalls(deps.db, new Date(deps.clock.now().getTime() - SELLER_API_LOG_DAYS * DAY_MS));
    },
  };
}
