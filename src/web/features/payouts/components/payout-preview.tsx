import { useEffect, useId, useState } from "react";
import { useNavigate } from "react-router";
import type { EarnerRole } from "#domain/earnings";
import { MAX_PAYOUT_BATCH_PAYEES, type PayoutCandidate } from "#domain/finance";
import { formatUsd } from "#domain/money";
import { paths } from "#domain/routes";
import { Card } from "#web/components/ui/card";
import { DecisionDialog } from "#web/components/ui/decision-dialog";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { LoadError } from "#web/components/ui/load-error";
import { Spinner } from "#web/components/ui/spinner";
import { ScrollTable, TableCell, TableRow } from "#web/components/ui/table";
import { usePayoutPreview } from "#web/features/payouts/api/get-payout-preview";
import { useRunPayoutBatch } from "#web/features/payouts/api/run-payout-batch";
import { runMutation } from "#web/lib/mutation";
import { useDebounced } from "#web/lib/use-debounced";
import { cn } from "#web/lib/utils";

const keyOf = (c: { userId: string; role: EarnerRole }) => `${c.userId}:${c.role}`;
const roleLabel: Record<EarnerRole, string> = { seller: "Seller", reseller: "Reseller" };

/** The tick box that puts a payable balance in the batch; a balance that waits cannot be ticked. */
function PayBox({
  candidate,
  checked,
  onToggle,
}: {
  candidate: PayoutCandidate;
  checked: boolean;
  onToggle: () => void;
}) {
  return (
    <input
      type="checkbox"
      className="size-4 shrink-0 accent-primary"
      aria-label={`Pay ${candidate.name} (${roleLabel[candidate.role]})`}
      disabled={candidate.skipReason !== null}
      checked={candidate.skipReason === null && checked}
      onChange={onToggle}
    />
  );
}

/**
 * Who a batch run now would pay: every available balance, the payable ones ticked, the others with the
 * reason they wait. The admin may untick a payee; approving re-checks every balance on the server.
 */
export function PayoutPreviewPanel() {
  const [minimumText, setMinimumText] = useState("");
  const typed = Number(minimumText);
  const valid = minimumText === "" || (Number.isFinite(typed) && typed >= 1 && typed <= 1_000_000);
  const minimum = useDebounced(minimumText && valid ? typed : undefined, 400);
  const preview = usePayoutPreview(minimum);
  const [unticked, setUnticked] = useState<Set<string>>(new Set());
  const run = useRunPayoutBatch();
  const navigate = useNavigate();
  const minimumId = useId();

  const data = preview.data;
  useEffect(() => {
    if (data && minimumText === "") setMinimumText(String(data.minimum));
  }, [data, minimumText]);

  if (preview.isPending) return <Spinner label="Loading the balances" />;
  if (preview.isError) {
    return <LoadError what="balances" error={preview.error} onRetry={() => preview.refetch()} />;
  }
  const payable = preview.data.candidates.filter((c) => c.skipReason === null);
  const ticked = payable.filter((c) => !unticked.has(keyOf(c)));
  // A batch is bounded (the server refuses more): the rest wait for the next one.
  const chosen = ticked.slice(0, MAX_PAYOUT_BATCH_PAYEES);
  const total = chosen.reduce((sum, c) => sum + Math.floor(c.available * 100), 0) / 100;
  const toggle = (c: PayoutCandidate) =>
    setUnticked((before) => {
      const next = new Set(before);
      if (next.has(keyOf(c))) next.delete(keyOf(c));
      else next.add(keyOf(c));
      return next;
    });

  return (
    <section aria-labelledby={`${minimumId}-title`} className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h2 id={`${minimumId}-title`} className="text-lg font-semibold">
          Next payout batch
        </h2>
        <FormField
          label="Minimum payout (USD)"
          className="w-48"
          error={valid ? undefined : "Enter an amount from 1 to 1,000,000"}
        >
          <Input
            inputMode="decimal"
            value={minimumText}
            onChange={(e) => setMinimumText(e.target.value.trim())}
          />
        </FormField>
      </div>
      {preview.data.candidates.length === 0 ? (
        <Card className="p-6 text-center text-muted-foreground">
          No seller or reseller has an available balance yet. Earnings become available when their refund
          window ends.
        </Card>
      ) : (
        <>
          <div className="hidden md:block">
            <ScrollTable
              label="Available balances"
              columns={["Pay", "Payee", "Role", "Available", "Paid to", "Status"]}
              minWidth="min-w-[48rem]"
              testId="payout-preview"
            >
              {preview.data.candidates.map((c) => (
                <TableRow key={keyOf(c)} className={cn(c.skipReason && "text-muted-foreground")}>
                  <TableCell>
                    <PayBox candidate={c} checked={!unticked.has(keyOf(c))} onToggle={() => toggle(c)} />
                  </TableCell>
                  <TableCell>
                    <div className="font-medium text-foreground">{c.name}</div>
                    <div className="text-xs">{c.email}</div>
                  </TableCell>
                  <TableCell>{roleLabel[c.role]}</TableCell>
                  <TableCell className={cn("tabular-nums", c.available < 0 && "text-destructive")}>
                    {formatUsd(c.available)}
                  </TableCell>
                  <TableCell>{c.destination ?? "—"}</TableCell>
                  <TableCell>{c.skipReason ?? "Will be paid"}</TableCell>
                </TableRow>
              ))}
            </ScrollTable>
          </div>
          {/* On a phone each balance is a card with its tick box: no table to scroll sideways. */}
          <ul
            className="flex flex-col gap-3 md:hidden"
            aria-label="Available balances"
            data-testid="payout-preview-cards"
          >
            {preview.data.candidates.map((c) => (
              <li
                key={keyOf(c)}
                className={cn(
                  "flex gap-3 rounded-lg border border-border p-4",
                  c.skipReason && "text-muted-foreground",
                )}
              >
                <PayBox candidate={c} checked={!unticked.has(keyOf(c))} onToggle={() => toggle(c)} />
                <div className="min-w-0 flex-1">
                  <div className="flex items-start justify-between gap-3">
                    <div className="min-w-0">
                      <div className="font-medium break-words text-foreground">{c.name}</div>
                      <div className="text-xs break-all">
                        {c.email} · {roleLabel[c.role]}
                      </div>
                    </div>
                    <span className={cn("font-semibold tabular-nums", c.available < 0 && "text-destructive")}>
                      {formatUsd(c.available)}
                    </span>
                  </div>
                  <p className="mt-2 text-sm">
                    {c.destination ?? "No payout details"} · {c.skipReason ?? "Will be paid"}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
      <div className={cn("flex flex-wrap items-center justify-end gap-4", payable.length === 0 && "hidden")}>
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {ticked.length > chosen.length &&
            `The first ${MAX_PAYOUT_BATCH_PAYEES} ticked are in this batch; the rest wait for the next. `}
          {chosen.length} {chosen.length === 1 ? "payout" : "payouts"} ·{" "}
          <span className="font-semibold text-foreground tabular-nums">{formatUsd(total)}</span>
        </p>
        {chosen.length > 0 && (
          <DecisionDialog
            words={{
              button: "Approve payout batch",
              title: "Approve this payout batch?",
              body: "Each amount leaves the payee's available balance now. Stripe payouts are transferred at once; bank payouts go in the bank file for you to pay and mark paid. Every payee is e-mailed.",
            }}
            subject={`${chosen.length} ${chosen.length === 1 ? "payout" : "payouts"} of ${formatUsd(total)} in all`}
            triggerVariant="default"
            pending={run.isPending}
            onConfirm={async () => {
              const result = await runMutation(
                run.mutateAsync({
                  minimum: preview.data.minimum,
                  payees: chosen.map((c) => ({ userId: c.userId, role: c.role })),
                }),
                {
                  success: { title: "Payout batch approved", description: "The payees have been e-mailed." },
                  error: { title: "The payout batch could not be approved" },
                },
              );
              if (result.ok) navigate(paths.admin.payoutBatch(result.data.id));
              return result.ok;
            }}
          />
        )}
      </div>
    </section>
  );
}
