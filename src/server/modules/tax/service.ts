import {
  type AdminTaxRate,
  type EffectiveTaxRate,
  effectiveTaxRates,
  findTaxJurisdiction,
  normaliseRate,
  percentToRate,
  taxJurisdictions,
  type VatCheck,
} from "#domain/tax";
import type { Database, Db } from "#server/db/client";
import type { AuditActor } from "#server/lib/audit";
import { recordAudit } from "#server/lib/audit";
import {
  deleteTaxRate,
  findVatCheckSince,
  listTaxRateOverrides,
  lockTaxRate,
  saveVatCheck,
  upsertTaxRate,
} from "#server/modules/tax/repository";
import type { VatRegisters } from "#server/vat/registers";

/** The rates in force: each jurisdiction's default unless an admin changed it. The checkout's input. */
export async function loadEffectiveTaxRates(db: Db): Promise<EffectiveTaxRate[]> {
  return effectiveTaxRates(await listTaxRateOverrides(db));
}

/** The admin screen's rows, in the order of `taxJurisdictions`. */
export async function listAdminTaxRates(db: Db): Promise<AdminTaxRate[]> {
  const overrides = await listTaxRateOverrides(db);
  return taxJurisdictions.map(({ jurisdiction, label, defaultRate }) => {
    const override = overrides.find((o) => o.jurisdiction === jurisdiction);
    return {
      jurisdiction,
      label,
      rate: override ? normaliseRate(override.rate) : defaultRate,
      defaultRate,
      updatedAt: override?.updatedAt.toISOString() ?? null,
      updatedBy: override ? (override.updatedByEmail ?? null) : null,
    };
  });
}

/**
 * Sets a jurisdiction's rate (percent as typed, "25.5") or, with null, returns it to the default; the
 * change and its audit entry are written together. Orders already placed keep the rate they were charged.
 */
export async function changeTaxRate(
  db: Database,
  actor: AuditActor,
  jurisdiction: string,
  ratePercent: string | null,
): Promise<void> {
  const known = findTaxJurisdiction(jurisdiction);
  if (!known) throw new Error(`unknown tax jurisdiction ${jurisdiction}`);
  await db.transaction(async (tx) => {
    const before = await lockTaxRate(tx, jurisdiction);
    const was = before ? normaliseRate(before.rate) : known.defaultRate;
    const now = ratePercent === null ? known.defaultRate : percentToRate(ratePercent);
    if (ratePercent === null) await deleteTaxRate(tx, jurisdiction);
    else await upsertTaxRate(tx, { jurisdiction, rate: now, updatedBy: actor.id });
    await recordAudit(tx, actor, {
      action: "update",
      entityType: "tax_rate",
      entityId: jurisdiction,
      entityLabel: known.label,
      before: { rate: was, isDefault: !before },
      after: { rate: now, isDefault: ratePercent === null },
    });
  });
}

/** How long a register's confirmation of a VAT number is used before it is asked again. */
export const VAT_CHECK_CACHE_HOURS = 24;

/**
 * What the register says about a business buyer's VAT number (canonical, prefix included): a
 * confirmation kept from the last `VAT_CHECK_CACHE_HOURS`, or the register's answer now, kept when it
 * confirms. Any other answer is not kept, so a number is asked again once the register is back.
 */
export async function verifyVatNumber(
  db: Database,
  registers: VatRegisters,
  vatNumber: string,
  now: Date,
): Promise<VatCheck> {
  const since = new Date(now.getTime() - VAT_CHECK_CACHE_HOURS * 3_600_000);
  const kept = await findVatCheckSince(db, vatNumber, since);
  if (kept)
    return {
      register: kept.register === "HMRC" ? "HMRC" : "VIES",
      status: "valid",
      reference: kept.reference,
      checkedAt: kept.checkedAt.toISOString(),
    };
  const answer = await registers.check(vatNumber, now);
  // The cache counts from when we asked: a register's date-only answer (VIES) reads as midnight.
  if (answer.status === "valid")
    await saveVatCheck(db, {
      vatNumber,
      register: answer.register,
      reference: answer.reference,
      checkedAt: now,
    });
  return { ...answer, checkedAt: answer.checkedAt.toISOString() };
}
