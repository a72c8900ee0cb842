import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { formatDate } from "#domain/dates";
import {
  type AdminPayout,
  type BuyerPayout,
  formatCents,
  type MarkTransferredInput,
  markTransferredSchema,
  payoutBuyerText,
  payoutStateLabel,
} from "#domain/refunds";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "#web/components/ui/alert-dialog";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { DecisionDialog } from "#web/components/ui/decision-dialog";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { useMarkTransferred } from "#web/features/refunds/api/mark-transferred";
import { useRetryPayout } from "#web/features/refunds/api/retry-payout";
import { runMutation } from "#web/lib/mutation";
import { cn } from "#web/lib/utils";

/** The buyer's line under an approved refund: sent (how much, where, when) or being processed. */
export function BuyerPayoutLine({ payout }: { payout: BuyerPayout }) {
  return (
    <span
      className={cn("text-xs", payout.state === "succeeded" ? "text-foreground" : "text-muted-foreground")}
      data-testid="refund-payout"
    >
      {payoutBuyerText(payout)}
    </span>
  );
}

/** Where an approved refund's money is, for sellers and the platform: state, amount, and why it stopped. */
export function PayoutStatus({ payout }: { payout: AdminPayout }) {
  const troubled = payout.state === "failed" || payout.state === "awaiting_transfer";
  return (
    <div className="flex flex-col items-start gap-1 text-xs" data-testid="refund-payout">
      <Badge
        variant={payout.state === "succeeded" ? "success" : "outline"}
        className={cn(
          "whitespace-nowrap",
          payout.state === "failed" && "border-destructive text-destructive",
          payout.state === "awaiting_transfer" && "border-amber-600 text-amber-700 dark:text-amber-400",
        )}
      >
        {payoutStateLabel[payout.state]}
      </Badge>
      <span className={cn("tabular-nums", troubled ? "font-medium" : "text-muted-foreground")}>
        {formatCents(payout.amountCents)}{" "}
        {payout.destination === "bank"
          ? "by bank transfer"
          : `to the buyer's ${payout.destination === "paypal" ? "PayPal" : "card"}`}
      </span>
      {payout.state === "failed" && payout.failureReason && (
        <span className="max-w-64 break-words text-destructive">{payout.failureReason}</span>
      )}
      {payout.state === "succeeded" && payout.transferReference && (
        <span className="text-muted-foreground">
          Ref. {payout.transferReference}
          {payout.transferredOn && ` · ${formatDate(payout.transferredOn)}`}
        </span>
      )}
      {payout.state === "succeeded" && !payout.transferReference && payout.completedAt && (
        <span className="text-muted-foreground">Sent {formatDate(payout.completedAt)}</span>
      )}
    </div>
  );
}

/** The platform's actions on a payout that stopped: retry a refused refund, record a transfer made. */
export function PayoutActions({
  refundId,
  payout,
  subject,
}: {
  refundId: string;
  payout: AdminPayout;
  subject: string;
}) {
  if (payout.state === "failed") return <RetryPayoutButton refundId={refundId} subject={subject} />;
  if (payout.state === "awaiting_transfer") {
    return <MarkTransferredButton refundId={refundId} payout={payout} subject={subject} />;
  }
  return null;
}

function RetryPayoutButton({ refundId, subject }: { refundId: string; subject: string }) {
  const retry = useRetryPayout();
  return (
    <DecisionDialog
      words={{
        button: "Retry",
        title: "Send this refund to the provider again?",
        body: "The provider is asked again to pay the buyer back. A refund it already made is never made twice.",
      }}
      subject={subject}
      triggerVariant="outline"
      pending={retry.isPending}
      onConfirm={async () =>
        (
          await runMutation(retry.mutateAsync(refundId), {
            success: { title: "Refund sent to the provider again", description: subject },
            error: { title: "The refund could not be retried" },
          })
        ).ok
      }
    />
  );
}

const today = () => new Date().toISOString().slice(0, 10);

function MarkTransferredButton({
  refundId,
  payout,
  subject,
}: {
  refundId: string;
  payout: AdminPayout;
  subject: string;
}) {
  const [open, setOpen] = useState(false);
  const mark = useMarkTransferred();
  const form = useForm<MarkTransferredInput>({
    resolver: zodResolver(markTransferredSchema),
    defaultValues: { reference: "", transferredOn: today() },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await runMutation(mark.mutateAsync({ refundId, ...values }), {
      success: { title: "Transfer recorded", description: "The buyer has been told by e-mail." },
      error: { title: "The transfer could not be recorded" },
    });
    if (!result.ok) return;
    setOpen(false);
    form.reset({ reference: "", transferredOn: today() });
  });
  const { errors } = form.formState;
  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <AlertDialogTrigger asChild>
        <Button size="sm" aria-label={`Mark transferred: ${subject}`}>
          Mark transferred
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <AlertDialogHeader>
            <AlertDialogTitle>Record the refund transfer</AlertDialogTitle>
            <AlertDialogDescription>
              {subject}. Transfer {formatCents(payout.amountCents)} to the buyer from the bank, then record
              the bank's reference and the date. The buyer is told by e-mail.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <FormField label="Bank reference" error={errors.reference?.message}>
            <Input autoComplete="off" maxLength={100} {...form.register("reference")} />
          </FormField>
          <FormField label="Transfer date" error={errors.transferredOn?.message}>
            <Input type="date" {...form.register("transferredOn")} />
          </FormField>
          <AlertDialogFooter>
            <AlertDialogCancel type="button" disabled={mark.isPending}>
              Cancel
            </AlertDialogCancel>
            <Button type="submit" disabled={mark.isPending}>
              {mark.isPending ? "Saving..." : "Mark transferred"}
            </Button>
          </AlertDialogFooter>
        </form>
      </AlertDialogContent>
    </AlertDialog>
  );
}
