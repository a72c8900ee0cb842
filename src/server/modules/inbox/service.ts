import type { ApplicationStatus } from "#domain/inbound";
import type { Database } from "#server/db/client";
import { NotFound } from "#server/errors";
import { type AuditActor, recordAudit } from "#server/lib/audit";
import {
  findAccountByEmail,
  grantSeller,
  lockPartnerApplicationStatus,
  type PartnerApplicationRow,
  setPartnerApplicationStatus,
} from "#server/modules/inbox/repository";
import { ensureStorefront } from "#server/modules/storefronts/repository";

/**
 * Moves a partner application to a new status, audited. Approving gives the account registered with the
 * application's e-mail address (if there is one) seller rights and a storefront, in the same transaction.
 */
export async function changeApplicationStatus(
  db: Database,
  actor: AuditActor,
  id: string,
  status: ApplicationStatus,
): Promise<{ row: PartnerApplicationRow; sellerGranted: boolean }> {
  return db.transaction(async (tx) => {
    const previous = await lockPartnerApplicationStatus(tx, id);
    if (!previous) throw new NotFound("This application does not exist.", "APPLICATION_NOT_FOUND");
    const row = await setPartnerApplicationStatus(tx, id, status);
    if (!row) throw new NotFound("This application does not exist.", "APPLICATION_NOT_FOUND");
    await recordAudit(tx, actor, {
      action: "update",
      entityType: "partner_application",
      entityId: row.id,
      entityLabel: row.companyName,
      before: previous,
      after: { status },
    });
    let sellerGranted = false;
    if (status === "approved") {
      const account = await findAccountByEmail(tx, row.email.toLowerCase());
      if (account && !account.isSeller) {
        await grantSeller(tx, account.id);
        await ensureStorefront(tx, account, row.companyName);
        await recordAudit(tx, actor, {
          action: "update",
          entityType: "user",
          entityId: account.id,
          entityLabel: account.email,
          before: { isSeller: false },
          after: { isSeller: true },
        });
      }
      sellerGranted = Boolean(account);
    }
    return { row, sellerGranted };
  });
}
