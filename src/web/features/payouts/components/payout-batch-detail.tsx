import { Download } from "lucide-react";
import { formatDateTime } from "#domain/dates";
import type { BatchPayout, PayoutBatchDetail } from "#domain/finance";
import { formatUsd } from "#domain/money";
import { payoutMethodLabel } from "#domain/payouts";
import { Button } from "#web/components/ui/button";
import { DecisionDialog } from "#web/components/ui/decision-dialog";
import { ScrollTable, TableCell, TableRow } from "#web/components/ui/table";
import { bankFileUrl } from "#web/features/payouts/api/get-payout-batches";
import { useSettlePayout } from "#web/features/payouts/api/run-payout-batch";
import { PayoutStatusBadge } from "#web/features/payouts/components/payout-status-badge";
import { runMutation } from "#web/lib/mutation";

/** One batch: its payouts with where each went and where it stands, and the bank file to pay the rest. */
export function PayoutBatchPayouts({ batch }: { batch: PayoutBatchDetail }) {
  const bankToPay = batch.payouts.some((p) => p.method === "bank" && p.status === "processing");
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground">
          Approved {formatDateTime(batch.createdAt)}
          {batch.createdBy && ` by ${batch.createdBy}`} · {batch.count}{" "}
          {batch.count === 1 ? "payout" : "payouts"} · {formatUsd(batch.total)}
        </p>
        {bankToPay && (
          <Button asChild variant="outline" size="sm">
            <a href={bankFileUrl(batch.id)} download>
              <Download aria-hidden /> Download bank file (CSV)
            </a>
          </Button>
        )}
      </div>
      <div className="hidden md:block">
        <ScrollTable
          label="Payouts of this batch"
          columns={["Payee", "Amount", "Method", "Paid to", "Status", ""]}
          minWidth="min-w-[52rem]"
          testId="batch-payouts"
        >
          {batch.payouts.map((payout) => (
            <TableRow key={payout.id}>
              <TableCell>
                <Payee payout={payout} />
              </TableCell>
              <TableCell className="tabular-nums">{formatUsd(payout.amount)}</TableCell>
              <TableCell>{payoutMethodLabel[payout.method]}</TableCell>
              <TableCell>{payout.destination ?? "—"}</TableCell>
              <TableCell>
                <Status payout={payout} />
              </TableCell>
              <TableCell>
                <SettleButtons payout={payout} />
              </TableCell>
            </TableRow>
          ))}
        </ScrollTable>
      </div>
      {/* On a phone each payout is a card, its actions under it: no table to scroll sideways. */}
      <ul
        className="flex flex-col gap-3 md:hidden"
        aria-label="Payouts of this batch"
        data-testid="batch-payout-cards"
      >
        {batch.payouts.map((payout) => (
          <li key={payout.id} className="rounded-lg border border-border p-4" data-testid="batch-payout-card">
            <div className="flex items-start justify-between gap-3">
              <Payee payout={payout} />
              <span className="font-semibold tabular-nums">{formatUsd(payout.amount)}</span>
            </div>
            <p className="mt-2 text-sm text-muted-foreground">
              {payoutMethodLabel[payout.method]} · {payout.destination ?? "—"}
            </p>
            <div className="mt-2">
              <Status payout={payout} />
            </div>
            <div className="mt-3">
              <SettleButtons payout={payout} />
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Payee({ payout }: { payout: BatchPayout }) {
  return (
    <div className="min-w-0">
      <div className="font-medium break-words">{payout.name}</div>
      <div className="text-xs break-all text-muted-foreground">
        {payout.email} · {payout.role === "seller" ? "Seller" : "Reseller"}
      </div>
    </div>
  );
}

function Status({ payout }: { payout: BatchPayout }) {
  return (
    <div className="flex flex-col items-start gap-1 text-xs">
      <PayoutStatusBadge status={payout.status} />
      {payout.reference && <span className="text-muted-foreground">Ref. {payout.reference}</span>}
      {payout.failureReason && (
        <span className="max-w-64 break-words text-destructive">{payout.failureReason}</span>
      )}
    </div>
  );
}

/** A bank payout still on its way: the admin records the bank's confirmation or the failure. */
function SettleButtons({ payout }: { payout: BatchPayout }) {
  const settle = useSettlePayout();
  if (payout.status !== "processing") return null;
  const subject = `${formatUsd(payout.amount)} to ${payout.name}`;
  const confirm = (outcome: "paid" | "failed") => async (note: string | undefined) =>
    (
      await runMutation(
        settle.mutateAsync({
          id: payout.id,
          outcome: outcome === "paid" ? { paid: note ?? "" } : { failed: note ?? "" },
        }),
        {
          success: {
            title: outcome === "paid" ? "Payout marked paid" : "Payout marked failed",
            description: "The payee has been e-mailed.",
          },
          error: { title: "The payout could not be updated" },
        },
      )
    ).ok;
  return (
    <div className="flex flex-wrap gap-2">
      {payout.method === "bank" && (
        <DecisionDialog
          words={{
            button: "Mark paid",
            title: "Did the bank pay this payout?",
            body: "Enter the bank's reference for the transfer. The payee is told it was paid.",
          }}
          subject={subject}
          triggerVariant="default"
          noteLabel="Bank reference"
          pending={settle.isPending}
          onConfirm={confirm("paid")}
        />
      )}
      <DecisionDialog
        words={{
          button: "Mark failed",
          title: "Did this payout fail?",
          body: "The amount goes back to the payee's available balance and is paid in a later batch. Say why, for the payee.",
        }}
        subject={subject}
        triggerVariant="outline"
        confirmVariant="destructive"
        noteLabel="Reason"
        pending={settle.isPending}
        onConfirm={confirm("failed")}
      />
    </div>
  );
}
