import { z } from "zod";
import { emailField } from "#domain/newsletter";

/** The platform's share of an item's subtotal unless a rule says otherwise: 10%, from 0 to 50%. */
export const DEFAULT_FEE_RATE = "0.1000";
export const MAX_FEE_PERCENT = 50;

export const feeScopes = ["default", "category", "seller"] as const;
export type FeeScope = (typeof feeScopes)[number];

export type FeeRule = { scope: FeeScope; subject: string; rate: string };

/**
 * The fee rate that applies to a seller's item in a category: the seller's own rate (a negotiated
 * deal) beats the category's, which beats the default rule, which beats the built-in default.
 */
export function feeRateFor(
  rules: readonly FeeRule[],
  item: { sellerId: string | null; category: string | null },
): { rate: string; scope: FeeScope | "built-in" } {
  const find = (scope: FeeScope, subject: string | null) =>
    subject === null ? undefined : rules.find((rule) => rule.scope === scope && rule.subject === subject);
  const rule = find("seller", item.sellerId) ?? find("category", item.category) ?? find("default", "");
  return rule ? { rate: rule.rate, scope: rule.scope } : { rate: DEFAULT_FEE_RATE, scope: "built-in" };
}

/** A percent typed by an admin, 0 to 50 with at most two decimals, stored as a 4-place rate. */
export const percentField = z
  .number({ error: "Enter a percentage" })
  .min(0, "The fee must be 0% or more")
  .max(MAX_FEE_PERCENT, `The fee can be at most ${MAX_FEE_PERCENT}%`)
  .refine((v) => Number(v.toFixed(2)) === v, "Use at most two decimals");

export function percentToRate(percent: number): string {
  return (Math.round(percent * 100) / 10_000).toFixed(4);
}

/** A super admin's fee rule: the default, a category's (by slug) or a seller's (by account e-mail). */
export const feeRuleInputSchema = z.discriminatedUnion("scope", [
  z.object({ scope: z.literal("default"), percent: percentField }),
  z.object({
    scope: z.literal("category"),
    category: z.string().trim().min(1, "Choose a category"),
    percent: percentField,
  }),
  z.object({
    scope: z.literal("seller"),
    sellerEmail: emailField.transform((email) => email.toLowerCase()),
    percent: percentField,
  }),
]);
export type FeeRuleInput = z.input<typeof feeRuleInputSchema>;

export const feeRuleViewSchema = z.object({
  scope: z.enum(feeScopes),
  subject: z.string(),
  /** The category's name or the seller's name and e-mail, for people. */
  label: z.string(),
  /** A seller rule's account e-mail (what the form edits it by); null for the other scopes. */
  sellerEmail: z.string().nullable(),
  rate: z.string(),
  updatedAt: z.string(),
});
export type FeeRuleView = z.infer<typeof feeRuleViewSchema>;

export const feeRulesSchema = z.object({
  builtInDefault: z.string(),
  rules: z.array(feeRuleViewSchema),
});
export type FeeRules = z.infer<typeof feeRulesSchema>;

/** What a seller is charged: the rate for each category (their own rate, if they have one, for all). */
export const sellerFeesSchema = z.object({
  defaultRate: z.string(),
  sellerRate: z.string().nullable(),
  categories: z.array(z.object({ slug: z.string(), rate: z.string() })),
});
export type SellerFees = z.infer<typeof sellerFeesSchema>;
