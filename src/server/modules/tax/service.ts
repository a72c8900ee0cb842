import {
  type AdminTaxRate,
  type EffectiveTaxRate,
  effectiveTaxRates,
  findTaxJurisdiction,
  normaliseRate,
  percentToRate,
  taxJurisdictions,
} from "#domain/tax";
import type { Database, Transaction } from "#server/db/client";
import type { AuditActor } from "#server/lib/audit";
import { recordAudit } from "#server/lib/audit";
import {
  deleteTaxRate,
  listTaxRateOverrides,
  lockTaxRate,
  upsertTaxRate,
} from "#server/modules/tax/repository";

type Db = Database | Transaction;

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
