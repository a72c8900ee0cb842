import { z } from "zod";
import { paged } from "#domain/paging";

/**
 * What a seller's API key may do, each scope one kind of operation of the seller API (`/api/seller/v1`).
 * A key holds the scopes its seller chose when making it; an operation outside them answers 403
 * `API_KEY_SCOPE`.
 */
export const sellerApiScopes = [
  "orders:read",
  "subscriptions:read",
  "licenses:write",
  "usage:write",
  "webhooks:write",
] as const;
export type SellerApiScope = (typeof sellerApiScopes)[number];

/** Each scope's name and what it lets a key read or do, as the key form and the developer page show them. */
export const sellerApiScopeInfo: Record<SellerApiScope, { label: string; grants: string }> = {
  "orders:read": {
    label: "Read orders",
    grants: "The paid orders you received, with only your own items in each.",
  },
  "subscriptions:read": {
    label: "Read subscriptions",
    grants: "Your products' subscriptions: counts, recurring revenue, past-due renewals and the live list.",
  },
  "licenses:write": {
    label: "Manage licenses",
    grants:
      "The license keys of your products with their activations: list and read them, suspend and reinstate a key, deactivate a machine.",
  },
  "usage:write": {
    label: "Report usage",
    grants: "Report the use of your metered subscriptions, correct it, and read each period's use so far.",
  },
  "webhooks:write": {
    label: "Manage webhooks",
    grants:
      "Your webhook endpoints: list, register, change, delete, rotate their secrets, send a test event, and read and replay their deliveries.",
  },
};

/** The most keys a seller may hold at once (revoked keys do not count). */
export const MAX_SELLER_API_KEYS = 10;

/**
 * A key as it is sent: `sbk_`, an id of 10 lowercase letters and digits, `_`, then a secret of 43
 * base64url characters (32 random bytes). The part before the secret is the key's public prefix: shown in
 * lists and logs, never enough to use the key.
 */
export const SELLER_API_KEY_PATTERN = /^(sbk_[a-z0-9]{10})_[A-Za-z0-9_-]{43}$/;

/** The public prefix of a well-formed key (`sbk_…`), or null for anything else. */
export function sellerApiKeyPrefix(key: string): string | null {
  return SELLER_API_KEY_PATTERN.exec(key)?.[1] ?? null;
}

export const sellerApiKeyInputSchema = z.object({
  name: z
    .string({ error: "Name is required" })
    .trim()
    .min(1, "Name is required")
    .max(60, "Name must be 60 characters or fewer"),
  scopes: z
    .array(z.enum(sellerApiScopes, { error: "Unknown scope" }), { error: "Choose at least one scope" })
    .min(1, "Choose at least one scope")
    .transform((scopes) => sellerApiScopes.filter((scope) => scopes.includes(scope))),
});
export type SellerApiKeyInput = z.input<typeof sellerApiKeyInputSchema>;

/** A key as its seller sees it in the list: never its secret, which is shown once, when made or rolled. */
export const sellerApiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.enum(sellerApiScopes)),
  createdAt: z.string(),
  /** When its secret was last replaced (rolled), or null. */
  rolledAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type SellerApiKey = z.infer<typeof sellerApiKeySchema>;

export const sellerApiKeyListSchema = z.object({ items: z.array(sellerApiKeySchema) });
export type SellerApiKeyList = z.infer<typeof sellerApiKeyListSchema>;

/** A key just made or rolled, with its whole secret: the only answer that ever carries it. */
export const sellerApiKeyIssuedSchema = z.object({ key: sellerApiKeySchema, secret: z.string() });
export type SellerApiKeyIssued = z.infer<typeof sellerApiKeyIssuedSchema>;

/**
 * One call of the seller API, as its access log keeps it: when, with which key, which operation and how
 * it ended. Never the request's or the answer's contents.
 */
export const sellerApiCallSchema = z.object({
  at: z.string(),
  keyName: z.string(),
  keyPrefix: z.string(),
  /** The operation, as `METHOD /path` with its `:params`, e.g. `GET /seller/v1/orders`. */
  operation: z.string(),
  status: z.number(),
});
export type SellerApiCall = z.infer<typeof sellerApiCallSchema>;
export const sellerApiCallPageSchema = paged(sellerApiCallSchema);
export type SellerApiCallPage = z.infer<typeof sellerApiCallPageSchema>;

/** `GET /seller/v1/key`: the key a call was made with, and whose it is. */
export const sellerApiWhoAmISchema = z.object({
  key: z.object({ name: z.string(), prefix: z.string(), scopes: z.array(z.enum(sellerApiScopes)) }),
  seller: z.object({ id: z.string(), storefront: z.string().nullable() }),
});
export type SellerApiWhoAmI = z.infer<typeof sellerApiWhoAmISchema>;

/** The calls a key may make per minute; each key counts on its own. */
export const SELLER_API_CALLS_PER_MINUTE = 120;

/** How long the access log keeps a call. */
export const SELLER_API_LOG_DAYS = 90;
