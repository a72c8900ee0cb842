import { Copy, FlaskConical, Landmark } from "lucide-react";
import { type BankTransfer, transferInstruction } from "#domain/bank-transfer";
import { formatDate } from "#domain/dates";
import { formatUsd } from "#domain/money";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { copyText } from "#web/lib/clipboard";
import { cn } from "#web/lib/utils";

function copy(label: string, value: string) {
  return copyText(value, { title: `${label} copied`, description: value }, label);
}

function Detail({
  label,
  value,
  copyable,
  code = true,
}: {
  label: string;
  value: string;
  copyable?: boolean;
  /** Numbers and codes a buyer copies are set in a fixed-width font, names in the text's own. */
  code?: boolean;
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2.5">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="flex min-w-0 items-center gap-2">
        <span
          className={cn("text-sm break-all", code && "font-mono")}
          data-testid={`transfer-${label.toLowerCase().replace(/\W+/g, "-")}`}
        >
          {value}
        </span>
        {copyable && (
          <Button
            type="button"
            variant="outline"
            size="sm"
            aria-label={`Copy ${label}`}
            className="print:hidden"
            onClick={() => void copy(label, value)}
          >
            <Copy className="size-3.5" aria-hidden />
            Copy
          </Button>
        )}
      </dd>
    </div>
  );
}

/** The operator's account lines; India's domestic pair when configured. */
export function BankDetailsList({ transfer }: { transfer: BankTransfer }) {
  const { details } = transfer;
  return (
    <dl className="divide-y divide-border border-y border-border">
      <Detail label="Amount" value={`${formatUsd(Number(transfer.amountDue))} (USD)`} code={false} />
      <Detail label="Account name" value={details.accountName} code={false} />
      <Detail label="Bank" value={details.bankName} code={false} />
      <Detail label="IBAN" value={details.iban} copyable />
      <Detail label="SWIFT/BIC" value={details.swift} />
      {details.accountNumber && <Detail label="Account number" value={details.accountNumber} copyable />}
      {details.ifsc && <Detail label="IFSC" value={details.ifsc} />}
      <Detail label="Reference" value={transfer.reference} copyable />
      <Detail label="Pay by" value={formatDate(transfer.dueAt)} code={false} />
    </dl>
  );
}

/** Demo details are marked wherever they show, so nobody sends real money to them. */
export function DemoDetailsNote({ transfer }: { transfer: BankTransfer }) {
  if (!transfer.details.demo) return null;
  return (
    <p
      role="note"
      className="mt-4 flex items-start gap-2 rounded-md border border-amber-300 bg-amber-100 px-3 py-2 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      <FlaskConical className="mt-0.5 size-4 shrink-0" aria-hidden />
      Test mode: these are demo bank details. Do not send money to them.
    </p>
  );
}

/**
 * What a buyer needs to pay a bank-transfer order awaiting its money: the one sentence to act on, the
 * account with copy buttons, the due date, how much has arrived and what happens next.
 */
export function BankTransferInstructions({ transfer }: { transfer: BankTransfer }) {
  const { standing } = transfer;
  const toPay = standing.status === "partial" ? standing.outstanding : transfer.amountDue;
  return (
    <Card className="p-6 sm:p-8" data-testid="bank-transfer-instructions">
      <div className="flex items-start gap-3">
        <Landmark className="mt-1 size-6 shrink-0 text-primary" aria-hidden />
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="text-xl font-semibold">Pay by bank transfer</h2>
            <Badge variant="secondary" data-testid="transfer-status">
              Processing
            </Badge>
          </div>
          <p className="mt-1 text-sm text-muted-foreground">
            Order {transfer.orderId.slice(0, 8)} is reserved for you until {formatDate(transfer.dueAt)}.
          </p>
        </div>
      </div>
      <DemoDetailsNote transfer={transfer} />
      <p className="mt-6 text-lg font-medium break-words" data-testid="transfer-instruction">
        {transferInstruction(toPay, transfer.details, transfer.reference)}
      </p>
      {standing.status !== "awaiting" && (
        <p className="mt-2 text-sm font-medium" data-testid="transfer-standing" role="status">
          {standing.explanation}
        </p>
      )}
      <div className="mt-6">
        <BankDetailsList transfer={transfer} />
      </div>
      <h3 className="mt-6 font-medium">What happens next</h3>
      <ol className="mt-2 list-decimal space-y-1 pl-5 text-sm text-muted-foreground">
        <li>Send the transfer from your bank, with the reference exactly as shown so we can match it.</li>
        <li>
          We confirm your order once the full amount arrives, usually one to three business days after you
          send it, and e-mail you your license keys.
        </li>
        <li>
          If the full amount has not arrived by {formatDate(transfer.dueAt)}, the order expires; you can place
          it again from this page.
        </li>
      </ol>
      <p className="mt-4 text-xs text-muted-foreground">We have e-mailed you these instructions too.</p>
    </Card>
  );
}

/** The payment-instructions block an unpaid bank-transfer order's invoice carries, printed with it. */
export function InvoicePaymentInstructions({ transfer }: { transfer: BankTransfer }) {
  const { standing } = transfer;
  const toPay = standing.status === "partial" ? standing.outstanding : transfer.amountDue;
  return (
    <section
      className="mt-8 rounded-md border border-border p-4 print:break-inside-avoid"
      aria-labelledby="invoice-payment-instructions"
      data-testid="invoice-payment-instructions"
    >
      <h2 id="invoice-payment-instructions" className="font-semibold">
        Payment instructions
      </h2>
      <DemoDetailsNote transfer={transfer} />
      <p className="mt-3 text-sm font-medium break-words">
        {transferInstruction(toPay, transfer.details, transfer.reference)}
      </p>
      {standing.status !== "awaiting" && <p className="mt-1 text-sm">{standing.explanation}</p>}
      <div className="mt-3">
        <BankDetailsList transfer={transfer} />
      </div>
    </section>
  );
}
