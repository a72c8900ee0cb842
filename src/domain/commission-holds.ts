import { z } from "zod";
import { commissionStatuses } from "#domain/commissions";
import { paged, pageNumber } from "#domain/paging";

/**
 * Self-referral: a reseller buying through their own link from a second account. Commission on an
 * order that looks like one is held for an admin instead of approved after the refund window.
 *
 * Signals are keyed hashes (HMAC with the server's secret), never addresses: two signals of the same
 * kind are equal when the underlying values are. Each kind that the buyer shares with the reseller is
 * one reason to hold. The list is the extension point: when real payments exist, a keyed hash of the
 * payment method (card fingerprint, IBAN) joins as another kind with its own reason, and the rule
 * compares it like the others.
 */
export const signalKinds = ["device", "network"] as const;
export type SignalKind = (typeof signalKinds)[number];

/** One value per kind for a checkout; a kind is absent when it could not be told (old orders, a local address). */
export type BuyerSignalHashes = Partial<Record<SignalKind, string>>;
/** Every value per kind the reseller was seen with (their sign-ins and their own link visits). */
export type ResellerSignalHashes = Partial<Record<SignalKind, readonly string[]>>;

export const holdReasonCodes = ["same_device", "same_network", "own_email_domain"] as const;
export type HoldReasonCode = (typeof holdReasonCodes)[number];

const reasonOfKind: Record<SignalKind, Exclude<HoldReasonCode, "own_email_domain">> = {
  device: "same_device",
  network: "same_network",
};

export const holdReasonSchema = z.discriminatedUnion("code", [
  z.object({ code: z.literal("same_device") }),
  z.object({ code: z.literal("same_network") }),
  z.object({ code: z.literal("own_email_domain"), domain: z.string() }),
]);
export type HoldReason = z.infer<typeof holdReasonSchema>;

/** What an admin reads for each reason. */
export function holdReasonText(reason: HoldReason): string {
  switch (reason.code) {
    case "same_device":
      return "Same device as the reseller's sign-ins";
    case "same_network":
      return "Same network address as the reseller's sign-ins";
    case "own_email_domain":
      return `Buyer's e-mail is on the reseller's own domain (${reason.domain})`;
  }
}

/**
 * Mail providers anyone can sign up with: sharing one says nothing about who is behind an address.
 * Families with a domain per country (gmx.de, yahoo.co.uk) are matched by their first label.
 */
const PUBLIC_MAIL_DOMAINS = new Set([
  "gmail.com",
  "googlemail.com",
  "outlook.com",
  "hotmail.com",
  "live.com",
  "msn.com",
  "yahoo.com",
  "ymail.com",
  "aol.com",
  "icloud.com",
  "me.com",
  "mac.com",
  "proton.me",
  "protonmail.com",
  "pm.me",
  "mail.com",
  "zoho.com",
  "fastmail.com",
  "hey.com",
  "tutanota.com",
  "tuta.io",
  "yandex.com",
  "web.de",
  "qq.com",
  "163.com",
  // Stackbay's own demo accounts all live here; it is nobody's company.
  "stackbay.test",
]);
const PUBLIC_MAIL_FAMILIES = ["gmx", "yahoo", "hotmail", "outlook", "live", "yandex"];

export function emailDomain(email: string): string {
  return email
    .slice(email.lastIndexOf("@") + 1)
    .trim()
    .toLowerCase();
}

export function isPublicMailDomain(domain: string): boolean {
  const host = domain.toLowerCase();
  return PUBLIC_MAIL_DOMAINS.has(host) || PUBLIC_MAIL_FAMILIES.includes(host.split(".")[0] ?? "");
}

/** The same domain, or one inside the other (sales.acme.io and acme.io). */
const sameOrganisation = (a: string, b: string) => a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`);

export type BuyerSignals = {
  hashes: BuyerSignalHashes;
  /** The buyer's account address and the order's contact address. */
  emails: readonly string[];
};
export type ResellerSignals = { hashes: ResellerSignalHashes; email: string };

/** Why an order looks like the reseller's own purchase; empty when nothing points that way. */
export function selfReferralReasons(buyer: BuyerSignals, reseller: ResellerSignals): HoldReason[] {
  const reasons: HoldReason[] = [];
  for (const kind of signalKinds) {
    const value = buyer.hashes[kind];
    if (value && reseller.hashes[kind]?.includes(value)) reasons.push({ code: reasonOfKind[kind] });
  }
  const own = emailDomain(reseller.email);
  if (own && !isPublicMailDomain(own)) {
    const shared = buyer.emails.map(emailDomain).find((domain) => domain && sameOrganisation(domain, own));
    if (shared) reasons.push({ code: "own_email_domain", domain: own });
  }
  return reasons;
}

export const commissionDecisions = ["release", "reject"] as const;
export type CommissionDecision = (typeof commissionDecisions)[number];

export const commissionDecisionSchema = z.object({
  decision: z.enum(commissionDecisions, { error: "Decision must be release or reject" }),
  note: z.string().trim().max(2000, "Please keep the note under 2,000 characters").optional(),
});
export type CommissionDecisionInput = z.input<typeof commissionDecisionSchema>;
/** `POST /api/admin/commissions/:id/decision`: the commission's status after the decision. */
export const commissionDecisionAnswerSchema = z.object({
  commission: z.object({ id: z.string(), status: z.enum(commissionStatuses) }),
});
export type CommissionDecisionAnswer = z.infer<typeof commissionDecisionAnswerSchema>;

export const heldCommissionsQuery = z.object({
  status: z
    .enum(commissionStatuses, { error: `Status must be one of ${commissionStatuses.join(", ")}` })
    .default("held"),
  page: pageNumber,
});

/** A commission as the admin review lists it (held ones keep their reasons once decided); USD amount. */
export const heldCommissionSchema = z.object({
  id: z.string(),
  orderId: z.string(),
  resellerName: z.string(),
  resellerEmail: z.string(),
  buyerName: z.string(),
  buyerEmail: z.string(),
  productName: z.string(),
  amount: z.number(),
  status: z.enum(commissionStatuses),
  reasons: z.array(holdReasonSchema),
  createdAt: z.string(),
});
export type HeldCommission = z.infer<typeof heldCommissionSchema>;

export const heldCommissionListSchema = paged(heldCommissionSchema);
export type HeldCommissionList = z.infer<typeof heldCommissionListSchema>;

export const HELD_COMMISSIONS_PAGE_SIZE = 25;
