import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import {
  type AdminBankTransfer,
  type RecordedTransfer,
  type RecordTransferInput,
  recordTransferSchemaAt,
} from "#domain/bank-transfer";
import { formatDate } from "#domain/dates";
import { formatUsd } from "#domain/money";
import { paymentStatusNames } from "#domain/order-states";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "#web/components/ui/alert-dialog";
import { Button } from "#web/components/ui/button";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { LoadError } from "#web/components/ui/load-error";
import { Spinner } from "#web/components/ui/spinner";
import { useAdminBankTransfer, useRecordTransfer } from "#web/features/orders/api/admin-bank-transfers";
import { runMutation } from "#web/lib/mutation";

/** Today's date where the admin is: what a date input shows and what they read off the statement. */
const localToday = () => new Date().toLocaleDateString("en-CA");

/** The admin's "Record transfer" dialog for one bank-transfer order; `orderId` null keeps it closed. */
export function RecordTransferDialog({ orderId, onClose }: { orderId: string | null; onClose: () => void }) {
  const transfer = useAdminBankTransfer(orderId);
  return (
    <AlertDialog open={orderId !== null} onOpenChange={(open) => !open && onClose()}>
      <AlertDialogContent className="max-w-lg" data-testid="record-transfer-dialog">
        <AlertDialogHeader>
          <AlertDialogTitle>Record a bank transfer</AlertDialogTitle>
          <AlertDialogDescription>
            {transfer.data
              ? `Order ${transfer.data.orderId.slice(0, 8)} · ${transfer.data.accountEmail} · reference ${transfer.data.reference}`
              : "Loading the order…"}
          </AlertDialogDescription>
        </AlertDialogHeader>
        {transfer.isPending ? (
          <Spinner className="py-6" label="Loading the order's transfers" />
        ) : transfer.isError ? (
          <LoadError
            what="order's transfers"
            error={transfer.error}
            onRetry={() => void transfer.refetch()}
          />
        ) : (
          <TransferStanding transfer={transfer.data} />
        )}
        {transfer.data && orderId && awaits(transfer.data) ? (
          <RecordForm orderId={orderId} onCancel={onClose} />
        ) : (
          <AlertDialogFooter>
            <AlertDialogCancel>Close</AlertDialogCancel>
          </AlertDialogFooter>
        )}
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** An order takes transfers while awaiting them, and after expiring (money can still arrive). */
const awaits = (transfer: AdminBankTransfer) =>
  transfer.paymentStatus === "processing" || transfer.paymentStatus === "failed";

function TransferStanding({ transfer }: { transfer: AdminBankTransfer }) {
  const status = paymentStatusNames[transfer.paymentStatus as keyof typeof paymentStatusNames];
  return (
    <div className="grid gap-3 text-sm">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        <dt className="text-muted-foreground">Amount due</dt>
        <dd className="tabular-nums">{formatUsd(Number(transfer.amountDue))}</dd>
        <dt className="text-muted-foreground">Due</dt>
        <dd>
          {formatDate(transfer.dueAt)}
          {transfer.expired ? " (expired)" : ""}
        </dd>
        <dt className="text-muted-foreground">Status</dt>
        <dd>{status ?? transfer.paymentStatus}</dd>
      </dl>
      <p className="font-medium" role="status" data-testid="admin-transfer-standing">
        {transfer.standing.explanation}
      </p>
      {transfer.transfers.length > 0 && (
        <ul
          className="divide-y divide-border rounded-md border border-border"
          aria-label="Transfers received"
        >
          {transfer.transfers.map((t) => (
            <li key={t.id} className="flex flex-wrap justify-between gap-x-4 px-3 py-2">
              <span className="tabular-nums">{formatUsd(Number(t.amount))}</span>
              <span className="min-w-0 font-mono text-xs break-all">{t.bankReference}</span>
              <span className="text-muted-foreground">
                received {formatDate(`${t.receivedOn}T12:00:00Z`)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function RecordForm({ orderId, onCancel }: { orderId: string; onCancel: () => void }) {
  const record = useRecordTransfer(orderId);
  const form = useForm<RecordTransferInput, unknown, RecordedTransfer>({
    // "Not in the future" is judged by this browser's clock at the moment of submitting; the server
    // checks again by its own.
    resolver: (values, context, options) =>
      zodResolver(recordTransferSchemaAt(new Date()))(values, context, options),
    defaultValues: { amount: "", receivedOn: localToday(), bankReference: "" },
  });
  const { errors, isSubmitting } = form.formState;
  // Sent as typed once the schema accepts it: the server checks the same text by the same schema.
  const onSubmit = form.handleSubmit(async () => {
    const result = await runMutation(record.mutateAsync(form.getValues()), {
      success: (answer) => ({
        title: answer.recorded ? "Transfer recorded" : "Transfer already recorded",
        description: answer.delivered
          ? `Order ${orderId.slice(0, 8)} is confirmed. ${answer.transfer.standing.explanation}`
          : answer.transfer.standing.explanation,
      }),
      error: {
        title: "Could not record the transfer",
        show: "client",
        fallback: "Failed to record the transfer. Please try again.",
      },
    });
    if (result.ok) form.reset({ amount: "", receivedOn: localToday(), bankReference: "" });
  });
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label="Record a transfer">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Amount received (USD)" error={errors.amount?.message}>
          <Input inputMode="decimal" autoComplete="off" placeholder="120.50" {...form.register("amount")} />
        </FormField>
        <FormField label="Date received" error={errors.receivedOn?.message}>
          <Input type="date" {...form.register("receivedOn")} />
        </FormField>
      </div>
      <FormField
        label="Bank reference"
        error={errors.bankReference?.message}
        hint="The bank's own reference for this transfer, from the statement."
      >
        <Input autoComplete="off" {...form.register("bankReference")} />
      </FormField>
      <AlertDialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Close
        </Button>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? "Recording…" : "Record transfer"}
        </Button>
      </AlertDialogFooter>
    </form>
  );
}
