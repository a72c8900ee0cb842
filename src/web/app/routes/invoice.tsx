import { ArrowLeft, Download, FileX, Printer } from "lucide-react";
import type { ReactNode } from "react";
import { Link, useParams } from "react-router";
import { BANK_TRANSFER_METHOD } from "#domain/bank-transfer";
import { confirmedStatuses, orderStatusLabel } from "#domain/checkout";
import { invoiceNumber } from "#domain/invoice";
import { paths } from "#domain/routes";
import { Button } from "#web/components/ui/button";
import { LoadError } from "#web/components/ui/load-error";
import { Spinner } from "#web/components/ui/spinner";
import { RequireUser } from "#web/features/auth/components/guards";
import { invoiceDownloadUrl } from "#web/features/invoices/api/invoice-download";
import { InvoiceDocument } from "#web/features/invoices/components/invoice-document";
import { useOrder } from "#web/features/orders/api/get-order";
import { useBankTransfer } from "#web/features/payments/api/bank-transfer";
import { InvoicePaymentInstructions } from "#web/features/payments/components/bank-transfer-instructions";
import { ApiError } from "#web/lib/api";

/** `routePatterns.invoice`: the printable invoice of one of the buyer's confirmed orders. */
export function Component() {
  const id = useParams().id ?? "";
  return (
    <RequireUser>
      <InvoiceScreen id={id} />
    </RequireUser>
  );
}

function InvoiceScreen({ id }: { id: string }) {
  const order = useOrder(id);
  if (order.isPending) return <Spinner label="Loading invoice" />;
  if (order.isError) {
    // Someone else's order answers 404 like a missing one: both read "not found".
    const missing =
      order.error instanceof ApiError && (order.error.status === 404 || order.error.status === 400);
    return missing ? (
      <Notice title="Invoice not found">
        This invoice does not exist, or it belongs to another account.
      </Notice>
    ) : (
      <LoadError page title="Couldn't load the invoice" error={order.error} onRetry={() => order.refetch()}>
        <DashboardLink />
      </LoadError>
    );
  }
  const confirmed = confirmedStatuses.includes(order.data.paymentStatus);
  // A bank transfer is paid from the invoice: it shows, with how to pay, while the money is awaited.
  const awaitingTransfer =
    order.data.paymentMethod === BANK_TRANSFER_METHOD && order.data.paymentStatus === "processing";
  if (!confirmed && !awaitingTransfer) {
    return (
      <Notice title="No invoice yet">
        An invoice is issued once the payment is confirmed. Order {order.data.id.slice(0, 8)} is{" "}
        {orderStatusLabel(order.data.paymentStatus, order.data.isPaid, order.data.cancelledAt).toLowerCase()}.
      </Notice>
    );
  }

  return (
    <div className="mx-auto max-w-4xl px-4 py-8 sm:px-6 print:max-w-none print:p-0">
      <title>{`Invoice ${invoiceNumber(order.data.id)} | Stackbay`}</title>
      <div className="mb-6 flex flex-wrap items-center gap-3 print:hidden">
        <Button asChild variant="outline" className="mr-auto">
          <Link to={paths.dashboard()}>
            <ArrowLeft aria-hidden />
            Back to orders
          </Link>
        </Button>
        {confirmed && (
          <Button asChild variant="outline">
            <a href={invoiceDownloadUrl(order.data.id)} download>
              <Download aria-hidden />
              Download HTML
            </a>
          </Button>
        )}
        <Button onClick={() => window.print()}>
          <Printer aria-hidden />
          Print / Save as PDF
        </Button>
      </div>
      <InvoiceDocument
        order={order.data}
        paymentInstructions={awaitingTransfer ? <TransferInstructions orderId={order.data.id} /> : null}
      />
    </div>
  );
}

function TransferInstructions({ orderId }: { orderId: string }) {
  const transfer = useBankTransfer(orderId);
  if (transfer.isPending) return <Spinner className="py-6" label="Loading the payment instructions" />;
  if (transfer.isError)
    return (
      <LoadError
        what="payment instructions"
        error={transfer.error}
        onRetry={() => void transfer.refetch()}
        className="mt-8"
      />
    );
  return <InvoicePaymentInstructions transfer={transfer.data} />;
}

function Notice({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section
      className="mx-auto flex max-w-lg flex-col items-center px-4 py-24 text-center"
      data-testid="invoice-notice"
    >
      <title>{`${title} | Stackbay`}</title>
      <FileX className="size-12 text-muted-foreground" aria-hidden />
      <h1 className="mt-4 text-2xl font-bold">{title}</h1>
      <p className="mt-2 text-muted-foreground">{children}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <DashboardLink variant="default" />
      </div>
    </section>
  );
}

function DashboardLink({ variant = "outline" }: { variant?: "outline" | "default" }) {
  return (
    <Button asChild variant={variant}>
      <Link to={paths.dashboard()}>Go to your dashboard</Link>
    </Button>
  );
}
