import { z } from "zod";
import { addBusinessDays } from "#domain/business-days";
import { DAY_MS } from "#domain/dates";
import { paged } from "#domain/paging";

/** Business days a seller has to answer a refund request (terms, section 7). */
export const SELLER_RESPONSE_BUSINESS_DAYS = 3;
export const REFUND_PAYOUT_NOTE =
  "Approved refunds are paid to the original payment method within 5–10 business days.";

/**
 * A refund request's life: the buyer asks (`requested`); the seller approves or rejects within 3
 * business days; a rejected or unanswered request can be escalated by the buyer to the platform, whose
 * admins approve or reject it for good. `approved` is the only state that refunds the item.
 */
export const refundStatuses = ["requested", "seller_rejected", "escalated", "approved", "rejected"] as const;
export type RefundStatus = (typeof refundStatuses)[number];
/** Requests still waiting for a decision; while one is open, its item's commission waits with it. */
export const openRefundStatuses = [
  "requested",
  "seller_rejected",
  "escalated",
] as const satisfies readonly RefundStatus[];

/** The refund window when REFUND_WINDOW_DAYS is not set: days after the order a refund can be requested. */
export const DEFAULT_REFUND_WINDOW_DAYS = 14;

/**
 * The last moment a refund can be requested for an order placed at `orderedAt`, with the server's
 * configured window (REFUND_WINDOW_DAYS). The server decides with it; answers carry it for the UI.
 */
export function refundableUntil(orderedAt: Date, windowDays: number): Date {
  return new Date(orderedAt.getTime() + windowDays * DAY_MS);
}

export const refundStatusLabel: Record<RefundStatus, string> = {
  requested: "Awaiting seller",
  seller_rejected: "Declined by seller",
  escalated: "Under platform review",
  approved: "Refund approved",
  rejected: "Refund declined",
};

export type RefundActor = "buyer" | "seller" | "admin";
export const refundDecisions = ["approve", "reject", "escalate"] as const;
export type RefundDecision = (typeof refundDecisions)[number];

export function sellerDeadline(requestedAt: Date, holidays?: ReadonlySet<string>): Date {
  return addBusinessDays(requestedAt, SELLER_RESPONSE_BUSINESS_DAYS, holidays);
}

/**
 * The next status when `actor` takes `decision`, or the reason it is not allowed. Who the actor is for
 * this item (its buyer, its seller, an admin) is established by the caller from the database.
 */
export function nextRefundStatus(
  current: { status: RefundStatus; sellerDueAt: Date },
  actor: RefundActor,
  decision: RefundDecision,
  now: Date,
): { status: RefundStatus } | { refused: string } {
  const { status } = current;
  if (actor === "seller") {
    if (decision === "escalate") return { refused: "Only the buyer can escalate a refund request." };
    if (status !== "requested")
      return { refused: "This refund request is no longer waiting for the seller." };
    return { status: decision === "approve" ? "approved" : "seller_rejected" };
  }
  if (actor === "buyer") {
    if (decision !== "escalate") return { refused: "Buyers can only escalate a refund request." };
    if (status === "seller_rejected") return { status: "escalated" };
    if (status === "requested" && now.getTime() >= current.sellerDueAt.getTime())
      return { status: "escalated" };
    if (status === "requested") {
      return {
        refused: "The seller still has time to answer; you can escalate once their deadline has passed.",
      };
    }
    return { refused: "This refund request can no longer be escalated." };
  }
  if (decision === "escalate") return { refused: "Only the buyer can escalate a refund request." };
  if (status !== "escalated") return { refused: "The platform decides only on escalated refund requests." };
  return { status: decision === "approve" ? "approved" : "rejected" };
}

export const refundRequestSchema = z.object({
  reason: z
    .string()
    .trim()
    .min(10, "Please explain the reason in at least 10 characters")
    .max(2000, "Please keep the reason under 2,000 characters"),
});
export type RefundRequestInput = z.input<typeof refundRequestSchema>;

export const refundDecisionSchema = z.object({
  decision: z.enum(refundDecisions, {
    error: "Decision must be approve, reject or escalate",
  }),
  note: z.string().trim().max(2000, "Please keep the note under 2,000 characters").optional(),
});
export type RefundDecisionInput = z.input<typeof refundDecisionSchema>;

/** A refund request after it is made or takes a step: its status and when the seller must answer by. */
export const refundAnswerSchema = z.object({
  refund: z.object({ id: z.string(), status: z.enum(refundStatuses), sellerDueAt: z.string() }),
});
export type RefundAnswer = z.infer<typeof refundAnswerSchema>;

/** A refund request as the seller and platform lists show it; amounts are USD numbers. */
export const refundListItemSchema = z.object({
  id: z.string(),
  orderId: z.string(),
  orderItemId: z.string(),
  productName: z.string(),
  quantity: z.number(),
  amount: z.number(),
  buyerName: z.string(),
  /** Sold by Stackbay itself (no seller recorded): admins answer in the seller's place. */
  platformSold: z.boolean(),
  reason: z.string(),
  status: z.enum(refundStatuses),
  sellerDueAt: z.string(),
  sellerNote: z.string().nullable(),
  platformNote: z.string().nullable(),
  createdAt: z.string(),
  resolvedAt: z.string().nullable(),
});
export type RefundListItem = z.infer<typeof refundListItemSchema>;

export const refundListSchema = paged(refundListItemSchema);
export type RefundList = z.infer<typeof refundListSchema>;

export const REFUNDS_PAGE_SIZE = 25;
