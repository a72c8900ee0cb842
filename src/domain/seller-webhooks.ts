import { z } from "zod";
import { paged } from "#domain/paging";

/**
 * Webhooks to sellers (decision 0030): what happened on the marketplace that a seller's endpoint can be
 * told of. Each event is about the seller's own items only.
 */
export const sellerWebhookEvents = [
  "order.paid",
  "subscription.started",
  "subscription.renewed",
  "subscription.past_due",
  "subscription.cancelled",
  "subscription.ended",
  "subscription.trial_ending",
  "license.activated",
  "license.suspended",
  "license.revoked",
  "usage.cap_reached",
  "refund.requested",
  "refund.approved",
  "review.posted",
  "question.asked",
] as const;
export type SellerWebhookEvent = (typeof sellerWebhookEvents)[number];

/** The event a seller sends to an endpoint to try it; never caused by the marketplace, never chosen. */
export const SELLER_WEBHOOK_TEST_EVENT = "ping";
/** Any event a delivery can carry: the chosen ones and the test event. */
export type SellerWebhookEventType = SellerWebhookEvent | typeof SELLER_WEBHOOK_TEST_EVENT;

/** What each event means, as the endpoint form and the developers page say it. */
export const sellerWebhookEventInfo: Record<SellerWebhookEvent, string> = {
  "order.paid": "An order with your items was paid; carries only your items.",
  "subscription.started": "A subscription to one of your products started (paid, or on a free trial).",
  "subscription.renewed": "A subscription's next period was paid.",
  "subscription.past_due":
    "A renewal could not be charged; the subscription stays valid while reminders run.",
  "subscription.cancelled": "The buyer turned renewal off; the subscription ends when its paid period does.",
  "subscription.ended": "A subscription ended (cancelled, unpaid, refunded or stopped).",
  "subscription.trial_ending": "A free trial ends in a few days.",
  "license.activated": "A license key was activated on a machine.",
  "license.suspended": "A license key was suspended.",
  "license.revoked": "A license key was revoked (its item was refunded or its subscription ended).",
  "usage.cap_reached": "A metered subscription reached its usage cap.",
  "refund.requested": "A buyer asked for a refund of one of your items.",
  "refund.approved": "A refund of one of your items was approved.",
  "review.posted": "A review of one of your products was published.",
  "question.asked": "A buyer asked a question about one of your products.",
};

/** The most endpoints a seller may register. */
export const MAX_SELLER_WEBHOOK_ENDPOINTS = 10;
/** How long a rotated-out secret keeps signing beside the new one. */
export const WEBHOOK_SECRET_OVERLAP_HOURS = 24;
/** How long a delivery is retried, and how long an endpoint may fail without a success before it is disabled. */
export const WEBHOOK_RETRY_DAYS = 3;
/** How long an attempt waits for the receiver's answer. */
export const WEBHOOK_TIMEOUT_SECONDS = 10;
/** The header that carries the signature. */
export const WEBHOOK_SIGNATURE_HEADER = "Stackbay-Signature";
/** How far a signature's timestamp may be from the receiver's clock in the documented recipe. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
/** The longest wait between two attempts of a delivery. */
export const WEBHOOK_MAX_RETRY_DELAY_SECONDS = 6 * 3600;

/** Seconds to wait after the `attempts`-th failed attempt: 1 minute, doubling, at most 6 hours. */
export function webhookRetryDelaySeconds(attempts: number): number {
  return Math.min(60 * 2 ** Math.max(0, attempts - 1), WEBHOOK_MAX_RETRY_DELAY_SECONDS);
}

/** A signing secret as it is shown: `whsec_` and 32 random bytes in base64url. */
export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9_-]{43}$/;

const webhookUrl = z
  .string({ error: "URL is required" })
  .trim()
  .max(2000, "URL must be 2000 characters or fewer")
  .pipe(z.url({ protocol: /^https?$/, error: "Enter a full http:// or https:// URL" }));

const webhookEventList = z
  .array(z.enum(sellerWebhookEvents, { error: "Unknown event" }), { error: "Choose at least one event" })
  .min(1, "Choose at least one event")
  .transform((events) => sellerWebhookEvents.filter((event) => events.includes(event)));

const webhookDescription = z.string().trim().max(200, "Description must be 200 characters or fewer");

export const sellerWebhookInputSchema = z.object({
  url: webhookUrl,
  description: webhookDescription.default(""),
  events: webhookEventList,
});
export type SellerWebhookInput = z.input<typeof sellerWebhookInputSchema>;

/** A change of an endpoint: any of its URL, description and events; `enabled: true` turns a disabled one back on. */
export const sellerWebhookUpdateSchema = z.object({
  url: webhookUrl.optional(),
  description: webhookDescription.optional(),
  events: webhookEventList.optional(),
  enabled: z.boolean().optional(),
});
export type SellerWebhookUpdate = z.input<typeof sellerWebhookUpdateSchema>;

/** An endpoint as its seller sees it: never its secret, which is shown once, when made or rotated. */
export const sellerWebhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(sellerWebhookEvents)),
  createdAt: z.string(),
  /** When its secret was last rotated, or null. */
  rotatedAt: z.string().nullable(),
  /** Until when the secret before the last rotation still signs beside the new one, or null. */
  previousSecretUntil: z.string().nullable(),
  /** When it was disabled after failing for `WEBHOOK_RETRY_DAYS` days, or null while it is on. */
  disabledAt: z.string().nullable(),
  /** Since when every attempt to it has failed, or null when the last one succeeded. */
  failingSince: z.string().nullable(),
});
export type SellerWebhookEndpoint = z.infer<typeof sellerWebhookEndpointSchema>;

export const sellerWebhookEndpointListSchema = z.object({ items: z.array(sellerWebhookEndpointSchema) });
export type SellerWebhookEndpointList = z.infer<typeof sellerWebhookEndpointListSchema>;

/** An endpoint just made or rotated, with its whole signing secret: the only answer that carries it. */
export const sellerWebhookIssuedSchema = z.object({
  endpoint: sellerWebhookEndpointSchema,
  secret: z.string(),
});
export type SellerWebhookIssued = z.infer<typeof sellerWebhookIssuedSchema>;

export const webhookDeliveryStatuses = ["pending", "succeeded", "failed"] as const;
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];

/** The body every delivery posts: the event's id (the same on every attempt and replay), type, time and data. */
export const sellerWebhookPayloadSchema = z.object({
  id: z.string(),
  type: z.string(),
  createdAt: z.string(),
  data: z.record(z.string(), z.unknown()),
});
export type SellerWebhookPayload = z.infer<typeof sellerWebhookPayloadSchema>;

/** One event's delivery to one endpoint, with its last attempt. */
export const sellerWebhookDeliverySchema = z.object({
  id: z.string(),
  endpointId: z.string(),
  endpointUrl: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  status: z.enum(webhookDeliveryStatuses),
  attempts: z.number(),
  /** The last attempt's HTTP status, or null when none answered. */
  responseStatus: z.number().nullable(),
  durationMs: z.number().nullable(),
  lastError: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  payload: sellerWebhookPayloadSchema,
});
export type SellerWebhookDelivery = z.infer<typeof sellerWebhookDeliverySchema>;
export const sellerWebhookDeliveryPageSchema = paged(sellerWebhookDeliverySchema);
export type SellerWebhookDeliveryPage = z.infer<typeof sellerWebhookDeliveryPageSchema>;
