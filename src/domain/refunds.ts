import { z } from "zod";
import { addBusinessDays } from "#domain/business-days";
import { DAY_MS, formatDate } from "#domain/dates";
import { chargeCents, fromUnits, toUnits } from "#domain/money";
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

/**
 * How an approved refund's money goes back. Card and PayPal payments are refunded through their
 * provider (`pending` until it answers, then `succeeded` or `failed` with its reason); an order with
 * no paid provider attempt (a bank transfer, or an order an admin confirmed by hand) is paid back by
 * the operator's own transfer (`awaiting_transfer` until an admin records it, then `succeeded`).
 */
export const payoutStates = ["pending", "succeeded", "failed", "awaiting_transfer"] as const;
export type PayoutState = (typeof payoutStates)[number];
/** Where the money goes: the card or PayPal account the order was paid with, or a bank account. */
export const payoutDestinations = ["card", "paypal", "bank"] as const;
export type PayoutDestination = (typeof payoutDestinations)[number];

export const payoutStateLabel: Record<PayoutState, string> = {
  pending: "Refund processing",
  succeeded: "Refund sent",
  failed: "Refund refused",
  awaiting_transfer: "Transfer to make",
};

const destinationLabel: Record<PayoutDestination, string> = {
  card: "your card",
  paypal: "your PayPal account",
  bank: "your bank account",
};

/** What the buyer reads about their refund's money: sent (how much, where, when) or still on its way. */
export function payoutBuyerText(payout: {
  state: PayoutState;
  amountCents: number;
  destination: PayoutDestination;
  completedAt: string | null;
}): string {
  if (payout.state === "succeeded" && payout.completedAt) {
    return `Refund of ${formatCents(payout.amountCents)} sent to ${destinationLabel[payout.destination]} on ${formatDate(payout.completedAt)}`;
  }
  return "Being processed";
}

/** $1,234.56 from whole cents, exact (no float arithmetic). */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  const dollars = Math.floor(abs / 100).toLocaleString("en-US");
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, "0")}`;
}

/**
 * The cents an item's refund pays back: its line with its share of the order's tax, so the refunds of
 * every item add up to exactly what was charged. The last item still unpaid back takes whatever is left
 * (no cent lost or paid twice to rounding); no refund ever exceeds what is left of the charge.
 */
export function itemRefundCents(input: {
  /** The item's line total and the order's subtotal and total, as decimal strings. */
  line: string;
  subtotal: string;
  total: string;
  /** What the buyer was charged, and what earlier refunds of the order already pay back. */
  chargedCents: number;
  refundedCents: number;
  /** Every other item of the order is already refunded. */
  last: boolean;
}): number {
  const left = Math.max(0, input.chargedCents - input.refundedCents);
  if (input.last) return left;
  const subtotal = toUnits(input.subtotal);
  if (subtotal <= 0) return 0;
  const share = Math.round((toUnits(input.line) * toUnits(input.total)) / subtotal);
  return Math.min(left, chargeCents(fromUnits(share)));
}

/**
 * A payout's next state after a provider's answer (the refund call's, or a webhook event's, in any
 * order and any number of times): a succeeded refund stays succeeded, `pending` never undoes an
 * answer, and only the provider's own word moves it. A transfer waits for the operator, not a provider.
 */
export function nextPayoutState(
  current: PayoutState,
  answer: { state: "pending" } | { state: "succeeded" } | { state: "failed"; reason: string },
): PayoutState {
  if (current === "succeeded" || current === "awaiting_transfer") return current;
  if (answer.state === "pending") return current;
  return answer.state;
}

/** A refund's payout as its buyer sees it on the order (no provider reasons or references). */
export const buyerPayoutSchema = z.object({
  state: z.enum(payoutStates),
  amountCents: z.number().int(),
  destination: z.enum(payoutDestinations),
  completedAt: z.string().nullable(),
});
export type BuyerPayout = z.infer<typeof buyerPayoutSchema>;

/** A refund's payout as admins see it: the provider's reason when it refused, the transfer recorded. */
export const adminPayoutSchema = buyerPayoutSchema.extend({
  provider: z.string().nullable(),
  providerRefundRef: z.string().nullable(),
  failureReason: z.string().nullable(),
  attempts: z.number().int(),
  transferReference: z.string().nullable(),
  transferredOn: z.string().nullable(),
  updatedAt: z.string(),
});
export type AdminPayout = z.infer<typeof adminPayoutSchema>;

export const payoutAnswerSchema = z.object({ payout: adminPayoutSchema });
export type PayoutAnswer = z.infer<typeof payoutAnswerSchema>;

/** The admin records the bank transfer they made for a refund: the bank's reference and its date. */
export const markTransferredSchema = z.object({
  reference: z
    .string()
    .trim()
    .min(3, "Enter the bank's reference of the transfer")
    .max(100, "Please keep the reference under 100 characters"),
  transferredOn: z.iso.date("Enter the date of the transfer"),
});
export type MarkTransferredInput = z.input<typeof markTransferredSchema>;

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
  /** How the approved refund's money goes back; null until the request is approved. */
  payout: adminPayoutSchema.nullable(),
});
export type RefundListItem = z.infer<typeof refundListItemSchema>;

export const refundListSchema = paged(refundListItemSchema);
export type RefundList = z.infer<typeof refundListSchema>;

export const REFUNDS_PAGE_SIZE = 25;

/** Who wrote a message on a refund request, in the part they took. */
export const refundMessageAuthors = ["buyer", "seller", "admin"] as const;
export type RefundMessageAuthor = (typeof refundMessageAuthors)[number];

export const REFUND_MESSAGE_MAX = 2000;
/** Messages one person may write on refund requests in `REFUND_MESSAGE_WINDOW_MS`. */
export const REFUND_MESSAGE_RATE_MAX = 10;
export const REFUND_MESSAGE_WINDOW_MS = 10 * 60_000;

/**
 * A message on a refund request: plain text, shown as text (never HTML). Line ends are kept (at most
 * one blank line in a row), other control and invisible formatting characters are removed.
 */
export const refundMessageInputSchema = z.object({
  body: z
    .string()
    .transform((value) =>
      value
        .replace(/\r\n?/g, "\n")
        .replace(/\t/g, " ")
        .replace(/[^\P{C}\n]/gu, "")
        .replace(/[ \t]+\n/g, "\n")
        .replace(/\n{3,}/g, "\n\n")
        .trim(),
    )
    .pipe(
      z
        .string()
        .min(1, "Write a message")
        .max(
          REFUND_MESSAGE_MAX,
          `Please keep the message under ${REFUND_MESSAGE_MAX.toLocaleString("en-US")} characters`,
        ),
    ),
});
export type RefundMessageInput = z.input<typeof refundMessageInputSchema>;

export const refundMessageSchema = z.object({
  id: z.string(),
  author: z.enum(refundMessageAuthors),
  /** The writer's first name for the buyer and seller; admins write as "Stackbay". */
  authorName: z.string(),
  mine: z.boolean(),
  body: z.string(),
  createdAt: z.string(),
});
export type RefundMessage = z.infer<typeof refundMessageSchema>;

export const refundThreadSchema = z.object({ items: z.array(refundMessageSchema) });
export type RefundThread = z.infer<typeof refundThreadSchema>;
