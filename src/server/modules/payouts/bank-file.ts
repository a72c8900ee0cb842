import { csvAmount, csvText } from "#domain/csv";
import type { UserRow } from "#server/auth/guards";
import { AppError, NotFound } from "#server/errors";
import { recordAudit } from "#server/lib/audit";
import { batchPayouts } from "#server/modules/payouts/repository";
import type { PayoutDeps } from "#server/modules/payouts/service";

/**
 * The batch's bank payouts still to be made, as the payment file the operator uploads to the bank: one
 * row per payout with the account holder, the full account details (decrypted only here), the amount
 * and a reference the payee will see. The details are the copy each payout kept when the batch was
 * approved, not the payout details on file now: an account changed after the approval is not paid.
 * Downloading it is audited, as it carries account numbers.
 */
export async function bankPaymentFile(deps: PayoutDeps, admin: UserRow, batchId: string) {
  const rows = (await batchPayouts(deps.db, batchId)).filter(
    (row) => row.payout.method === "bank" && row.payout.status === "processing",
  );
  if (rows.length === 0) throw new NotFound("This batch has no bank payouts to make.", "NO_BANK_PAYOUTS");
  const unknown = rows.filter((row) => !row.payout.bankSealed).map((row) => row.payout.id);
  if (unknown.length > 0) {
    throw new AppError(
      409,
      "PAYOUT_DETAILS_UNKNOWN",
      "Some bank payouts of this batch were approved without their account details: mark them failed, and the next batch pays them.",
      { payoutIds: unknown },
    );
  }
  const lines = rows.map(({ payout }) => {
    const bank = payout.bankSealed ? deps.unsealBank(payout.bankSealed) : null;
    return [
      payout.id,
      bank?.holderName ?? "",
      bank?.country ?? "",
      bank?.iban ?? "",
      bank?.accountNumber ?? "",
      bank?.swift ?? "",
      bank?.ifsc ?? "",
      csvAmount(Number(payout.amount)),
      "USD",
      `Stackbay payout ${payout.id.slice(0, 8).toUpperCase()}`,
    ];
  });
  await recordAudit(deps.db, admin, {
    action: "update",
    entityType: "payout",
    entityId: batchId,
    entityLabel: `bank file of batch ${batchId.slice(0, 8)}`,
    before: null,
    after: { downloaded: rows.length },
  });
  const header = [
    "payout_id",
    "account_holder",
    "bank_country",
    "iban",
    "account_number",
    "swift_bic",
    "ifsc",
    "amount",
    "currency",
    "reference",
  ];
  return {
    name: `stackbay-payouts-${batchId.slice(0, 8)}.csv`,
    csv: csvText(header, lines),
  };
}
