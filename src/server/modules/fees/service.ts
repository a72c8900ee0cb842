import type { z } from "zod";
import {
  DEFAULT_FEE_RATE,
  type FeeRules,
  type FeeRuleView,
  type FeeScope,
  feeRateFor,
  type feeRuleInputSchema,
  percentToRate,
  type SellerFees,
} from "#domain/fees";
import type { Database } from "#server/db/client";
import { NotFound } from "#server/errors";
import { type AuditActor, recordAudit } from "#server/lib/audit";
import {
  allCategories,
  deleteRule,
  findCategory,
  findSellerByEmail,
  findUserLabel,
  listRules,
  lockRule,
  rulesForSeller,
  upsertRule,
} from "#server/modules/fees/repository";

type Row = Awaited<ReturnType<typeof listRules>>[number];

const DEFAULT_LABEL = "Default for every sale";
const sellerLabel = (seller: { name: string; email: string }) => `${seller.name} (${seller.email})`;

function labelOf(row: Row): string {
  if (row.scope === "default") return DEFAULT_LABEL;
  if (row.scope === "category") return row.categoryName ?? row.subject;
  return row.sellerName && row.sellerEmail
    ? sellerLabel({ name: row.sellerName, email: row.sellerEmail })
    : "Deleted account";
}

export async function feeRules(db: Database): Promise<FeeRules> {
  const rows = await listRules(db);
  return {
    builtInDefault: DEFAULT_FEE_RATE,
    rules: rows.map((row) => ({
      scope: row.scope,
      subject: row.subject,
      label: labelOf(row),
      sellerEmail: row.scope === "seller" ? row.sellerEmail : null,
      rate: row.rate,
      updatedAt: row.updatedAt.toISOString(),
    })),
  };
}

/** The rule an input names: its subject (a category's slug, a seller's id) and its label. */
async function resolveSubject(db: Database, input: z.output<typeof feeRuleInputSchema>) {
  switch (input.scope) {
    case "default":
      return { subject: "", label: DEFAULT_LABEL, sellerEmail: null };
    case "category": {
      const category = await findCategory(db, input.category);
      if (!category) throw new NotFound("No category with that slug.", "CATEGORY_NOT_FOUND");
      return { subject: category.slug, label: category.name, sellerEmail: null };
    }
    case "seller": {
      const seller = await findSellerByEmail(db, input.sellerEmail);
      if (!seller) throw new NotFound("No seller with that e-mail.", "SELLER_NOT_FOUND");
      return { subject: seller.id, label: sellerLabel(seller), sellerEmail: seller.email };
    }
  }
}

const auditId = (scope: FeeScope, subject: string) => (subject ? `${scope}:${subject}` : scope);

/** Sets a rule's rate (creating the rule if needed); applies to every sale booked from now on. */
export async function setFeeRule(
  db: Database,
  actor: AuditActor,
  input: z.output<typeof feeRuleInputSchema>,
  now = new Date(),
): Promise<FeeRuleView> {
  const { subject, label, sellerEmail } = await resolveSubject(db, input);
  const rate = percentToRate(input.percent);
  const saved = await db.transaction(async (tx) => {
    const before = await lockRule(tx, input.scope, subject);
    const row = await upsertRule(tx, { scope: input.scope, subject, rate, updatedBy: actor.id }, now);
    await recordAudit(tx, actor, {
      action: before ? "update" : "create",
      entityType: "fee_rule",
      entityId: auditId(input.scope, subject),
      entityLabel: `Fee: ${label}`,
      before: before ? { scope: input.scope, rate: before.rate } : null,
      after: { scope: input.scope, rate: row.rate },
    });
    return row;
  });
  return {
    scope: input.scope,
    subject,
    label,
    sellerEmail,
    rate: saved.rate,
    updatedAt: saved.updatedAt.toISOString(),
  };
}

/** Removes a rule: the next one down applies (for the default rule, the built-in 10%). */
export async function removeFeeRule(
  db: Database,
  actor: AuditActor,
  scope: FeeScope,
  subject: string,
): Promise<void> {
  const label =
    scope === "default"
      ? DEFAULT_LABEL
      : scope === "category"
        ? ((await findCategory(db, subject))?.name ?? subject)
        : await findUserLabel(db, subject).then((u) => (u ? sellerLabel(u) : subject));
  await db.transaction(async (tx) => {
    const removed = await deleteRule(tx, scope, subject);
    if (!removed) throw new NotFound("There is no such fee rule.", "FEE_RULE_NOT_FOUND");
    await recordAudit(tx, actor, {
      action: "delete",
      entityType: "fee_rule",
      entityId: auditId(scope, subject),
      entityLabel: `Fee: ${label}`,
      before: { scope, rate: removed.rate },
      after: null,
    });
  });
}

/** What a seller is charged: the default, their own rate if they have one, and the rate per category. */
export async function sellerFees(db: Database, sellerId: string): Promise<SellerFees> {
  const [rules, categories] = await Promise.all([rulesForSeller(db, sellerId), allCategories(db)]);
  const own = rules.find((rule) => rule.scope === "seller");
  return {
    defaultRate: feeRateFor(rules, { sellerId: null, category: null }).rate,
    sellerRate: own?.rate ?? null,
    categories: categories.map((category) => ({
      slug: category.slug,
      rate: feeRateFor(rules, { sellerId, category: category.slug }).rate,
    })),
  };
}
