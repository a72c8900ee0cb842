import { BUFFER_DECIMALS, RATE_DECIMALS } from "#domain/system";
import type { Database } from "#server/db/client";
import type { JobQueue } from "#server/jobs/queue";
import { type AuditActor, recordAudit } from "#server/lib/audit";
import { type FxRateRow, lockFxRate, upsertFxRate } from "#server/modules/system/repository";

/** Sends dead-lettered jobs (these, or all) back to their queue; a retry that moved any is audited. */
export async function retryDeadLetters(
  db: Database,
  jobs: JobQueue,
  actor: AuditActor,
  ids: string[] | undefined,
): Promise<number> {
  const retried = await jobs.retry(ids);
  if (retried > 0) {
    await recordAudit(db, actor, {
      action: "update",
      entityType: "job",
      entityId: ids?.length === 1 ? (ids[0] ?? "all") : "dead-letter",
      entityLabel: ids
        ? `Retried ${retried} failed job${retried === 1 ? "" : "s"}`
        : `Retried all ${retried} failed jobs`,
      before: { state: "dead-lettered" },
      after: { state: "queued" },
    });
  }
  return retried;
}

const figures = (row: FxRateRow) => ({ rateToUsd: Number(row.rateToUsd), fxBuffer: Number(row.fxBuffer) });

/** Sets a currency's rate to USD and its buffer; the row and its audit entry are written together. */
export async function setFxRate(
  db: Database,
  actor: AuditActor,
  code: string,
  { rateToUsd, fxBuffer }: { rateToUsd: number; fxBuffer: number },
): Promise<FxRateRow> {
  return db.transaction(async (tx) => {
    const before = await lockFxRate(tx, code);
    const saved = await upsertFxRate(tx, code, {
      rateToUsd: rateToUsd.toFixed(RATE_DECIMALS),
      fxBuffer: fxBuffer.toFixed(BUFFER_DECIMALS),
    });
    await recordAudit(tx, actor, {
      action: before ? "update" : "create",
      entityType: "fx_rate",
      entityId: code,
      entityLabel: code,
      before: before ? figures(before) : null,
      after: figures(saved),
    });
    return saved;
  });
}
