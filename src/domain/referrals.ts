import { z } from "zod";
import { ATTRIBUTION_DAYS } from "#domain/commissions";
import { DAY_MS } from "#domain/dates";
import { paged, pageNumber } from "#domain/paging";

/** Reseller codes: lower-case letters and digits, random, so they say nothing about the account. */
export const REFERRAL_CODE_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
export const REFERRAL_CODE_LENGTH = 10;
export const REFERRAL_CODE_PATTERN = /^[a-z0-9]{10}$/;

/**
 * A code of 10 characters from random bytes (about 51 bits). Bytes at or above the largest multiple of
 * 36 are skipped (rejection sampling), so every character is equally likely; `random` must be a
 * cryptographic source (crypto.randomBytes on the server).
 */
export function generateReferralCode(random: (size: number) => Uint8Array): string {
  const size = REFERRAL_CODE_ALPHABET.length;
  const limit = 256 - (256 % size);
  let code = "";
  while (code.length < REFERRAL_CODE_LENGTH) {
    for (const byte of random(16)) {
      if (byte < limit && code.length < REFERRAL_CODE_LENGTH) code += REFERRAL_CODE_ALPHABET[byte % size];
    }
  }
  return code;
}

/** Whether a click at `clickedAt` still earns the reseller an order placed at `now` (30 days). */
export function withinAttribution(clickedAt: Date, now: Date): boolean {
  const age = now.getTime() - clickedAt.getTime();
  return age >= 0 && age <= ATTRIBUTION_DAYS * DAY_MS;
}

export const referralVisitSchema = z.object({
  code: z.string().trim().toLowerCase().regex(REFERRAL_CODE_PATTERN, "Unknown referral code"),
  productId: z.uuid("Unknown product"),
});
export type ReferralVisitInput = z.input<typeof referralVisitSchema>;

export const referralVisitAnswer = z.object({ counted: z.boolean() });
export type ReferralVisitAnswer = z.infer<typeof referralVisitAnswer>;

/** Commission amounts in USD, by status; `held` waits for Stackbay's review of the order. */
const commissionSums = z.object({
  pending: z.number(),
  held: z.number(),
  approved: z.number(),
  cancelled: z.number(),
});

export const resellerLinkSchema = z.object({
  productId: z.string(),
  name: z.string(),
  imageUrl: z.string().nullable(),
  category: z.string(),
  price: z.number(),
  commissionRate: z.number(),
  /** False for a product no longer sold or resellable that still has this reseller's commissions. */
  linkable: z.boolean(),
  link: z.string(),
  clicks: z.number().int(),
  orders: z.number().int(),
  commission: commissionSums,
});
export type ResellerLink = z.infer<typeof resellerLinkSchema>;

export const RESELLER_LINKS_PAGE_SIZE = 20;
export const RESELLER_LINKS_MAX_PAGE_SIZE = 100;

/** `GET /api/reseller/links`: a page of the links, optionally only products whose name or category holds `search`. */
export const resellerLinksQuery = z.object({
  search: z.string().trim().max(100, "Search text can be at most 100 characters").optional().default(""),
  page: pageNumber,
  pageSize: z.coerce
    .number({ error: "Page size must be a whole number" })
    .int("Page size must be a whole number")
    .min(1, "Page size must be 1 or more")
    .max(RESELLER_LINKS_MAX_PAGE_SIZE, `Page size must be ${RESELLER_LINKS_MAX_PAGE_SIZE} or less`)
    .optional()
    .default(RESELLER_LINKS_PAGE_SIZE),
});
export type ResellerLinksQuery = z.output<typeof resellerLinksQuery>;

/** One page of the links (`total` counts those matching the search); `totals` cover every link. */
export const resellerLinksSchema = paged(resellerLinkSchema).extend({
  code: z.string(),
  totals: commissionSums.extend({ clicks: z.number().int(), orders: z.number().int() }),
  /** The server's refund window (REFUND_WINDOW_DAYS): how long a new commission stays pending. */
  refundWindowDays: z.number().int(),
});
export type ResellerLinks = z.infer<typeof resellerLinksSchema>;
