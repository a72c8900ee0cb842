import { type ReactNode, useId } from "react";
import type { Order } from "#domain/checkout";
import { formatDate } from "#domain/dates";
import { buildInvoice, SELLER_OF_RECORD } from "#domain/invoice";
import { Card } from "#web/components/ui/card";
import { useTaxFacts } from "#web/features/tax/api/get-tax-rates";
import { cn } from "#web/lib/utils";

// Printed in black on white whatever the theme: the theme's colours are redefined for print.
const printColours =
  "print:[--card:#fff] print:[--card-foreground:#000] print:[--foreground:#000] print:[--muted-foreground:#333] print:[--muted:#f4f4f5] print:[--border:#bbb] print:[--primary:#000]";

/**
 * The invoice of a confirmed order as a document: what the screen shows and what prints. An order
 * still awaiting a bank transfer shows it with `paymentInstructions` (how to pay) under its status.
 */
export function InvoiceDocument({
  order,
  paymentInstructions,
}: {
  order: Order;
  paymentInstructions?: ReactNode;
}) {
  // The operator's TRN is the server's setting; the rest of the invoice is the order's own record.
  const taxFacts = useTaxFacts();
  const invoice = buildInvoice(order, { trn: taxFacts.data?.operatorTrn ?? "" });
  const headingId = useId();
  const { billTo } = invoice;
  return (
    <Card
      asChild
      className={cn(
        "p-5 text-card-foreground sm:p-10",
        "print:rounded-none print:border-0 print:p-0 print:shadow-none",
        printColours,
      )}
    >
      <article aria-labelledby={headingId} data-testid="invoice">
        <header className="flex flex-wrap items-start justify-between gap-6 border-b-2 border-foreground pb-6">
          <div>
            <p className="text-lg font-bold tracking-tight">Stackbay</p>
            <h1 id={headingId} className="mt-1 text-3xl font-bold tracking-tight">
              Invoice
            </h1>
          </div>
          <dl className="grid grid-cols-[auto_auto] gap-x-4 gap-y-1 text-sm">
            <dt className="text-muted-foreground">Invoice number</dt>
            <dd className="font-mono font-medium" data-testid="invoice-number">
              {invoice.number}
            </dd>
            <dt className="text-muted-foreground">Issue date</dt>
            <dd>
              <time dateTime={invoice.issuedAt}>{formatDate(invoice.issuedAt)}</time>
            </dd>
            <dt className="text-muted-foreground">Order</dt>
            <dd className="font-mono text-xs leading-5 break-all">{invoice.orderId}</dd>
          </dl>
        </header>

        <div className="grid gap-6 py-6 sm:grid-cols-2">
          <section aria-labelledby={`${headingId}-seller`}>
            <h2
              id={`${headingId}-seller`}
              className="text-xs font-semibold tracking-wider text-muted-foreground uppercase"
            >
              Seller of record
            </h2>
            <address className="mt-2 text-sm not-italic" data-testid="invoice-seller">
              <strong>{SELLER_OF_RECORD.name}</strong>
              {SELLER_OF_RECORD.addressLines.map((line) => (
                <span key={line} className="block">
                  {line}
                </span>
              ))}
              <span className="mt-1 block" data-testid="invoice-seller-trn">
                TRN:{" "}
                {invoice.sellerTrn ||
                  (taxFacts.isPending ? (
                    <span className="inline-block h-4 w-32 animate-pulse rounded bg-muted align-middle" />
                  ) : (
                    "unavailable, please reload"
                  ))}
              </span>
            </address>
          </section>
          <section aria-labelledby={`${headingId}-bill-to`}>
            <h2
              id={`${headingId}-bill-to`}
              className="text-xs font-semibold tracking-wider text-muted-foreground uppercase"
            >
              Bill to
            </h2>
            <address className="mt-2 text-sm break-words not-italic" data-testid="invoice-bill-to">
              <strong>{billTo.fullName}</strong>
              {invoice.buyerCompany && (
                <span className="block font-medium" data-testid="invoice-buyer-company">
                  {invoice.buyerCompany}
                </span>
              )}
              <span className="block">{billTo.email}</span>
              <span className="block">{billTo.address}</span>
              <span className="block">
                {billTo.city}, {billTo.country}
              </span>
              {invoice.buyerTaxId && (
                <span className="mt-1 block" data-testid="invoice-buyer-tax-id">
                  {invoice.buyerTaxId.label}: {invoice.buyerTaxId.value}
                </span>
              )}
              {invoice.buyerTaxId?.check && (
                <span className="block text-xs text-muted-foreground" data-testid="invoice-vat-check">
                  {invoice.buyerTaxId.check}
                </span>
              )}
            </address>
          </section>
        </div>

        {/*
          Phones get three columns, with the vendor, quantity and unit price under each product's name,
          so nothing scrolls sideways; wider screens and paper get the whole table.
        */}
        <section aria-label="Invoice items">
          <table className="w-full text-left text-sm" data-testid="invoice-items">
            <thead className="border-b border-border text-xs tracking-wider text-muted-foreground uppercase">
              <tr>
                <th scope="col" className="py-2 pr-3 font-semibold">
                  Product
                </th>
                <th scope="col" className="hidden px-3 py-2 font-semibold sm:table-cell print:table-cell">
                  Vendor
                </th>
                <th scope="col" className="px-3 py-2 text-right font-semibold">
                  Qty
                </th>
                <th
                  scope="col"
                  className="hidden px-3 py-2 text-right font-semibold sm:table-cell print:table-cell"
                >
                  Unit price
                </th>
                <th scope="col" className="py-2 pl-3 text-right font-semibold">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {invoice.lines.map((line, index) => (
                // Lines keep their product's name after the product is gone, so the index keeps keys unique.
                // biome-ignore lint/suspicious/noArrayIndexKey: invoice lines never move
                <tr key={index} data-testid="invoice-line">
                  <td className="py-2 pr-3">
                    {line.productName}
                    {line.refunded && (
                      <span className="ml-2 inline-block rounded border border-border px-1.5 text-xs font-medium">
                        Refunded
                      </span>
                    )}
                    <span className="mt-0.5 block text-xs text-muted-foreground sm:hidden print:hidden">
                      {line.vendor} · {line.unitPrice}
                    </span>
                  </td>
                  <td className="hidden px-3 py-2 text-muted-foreground sm:table-cell print:table-cell">
                    {line.vendor}
                  </td>
                  <td className="px-3 py-2 text-right tabular-nums">{line.quantity}</td>
                  <td className="hidden px-3 py-2 text-right whitespace-nowrap tabular-nums sm:table-cell print:table-cell">
                    {line.unitPrice}
                  </td>
                  <td className="py-2 pl-3 text-right whitespace-nowrap tabular-nums">{line.amount}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>

        <div className="mt-4 flex flex-col items-end gap-1">
          <dl className="flex w-full max-w-xs flex-col gap-1 text-sm">
            <div className="flex justify-between gap-6">
              <dt className="text-muted-foreground">Subtotal</dt>
              <dd className="tabular-nums" data-testid="invoice-subtotal">
                {invoice.subtotal}
              </dd>
            </div>
            <div className="flex justify-between gap-6">
              <dt className="text-muted-foreground" data-testid="invoice-tax-label">
                {invoice.taxLabel}
              </dt>
              <dd className="tabular-nums" data-testid="invoice-tax">
                {invoice.tax}
              </dd>
            </div>
            <div className="mt-1 flex justify-between gap-6 border-t-2 border-foreground pt-2 text-base font-bold">
              <dt>Total</dt>
              <dd className="whitespace-nowrap tabular-nums" data-testid="invoice-total">
                {invoice.total}
              </dd>
            </div>
          </dl>
          {invoice.taxNote && (
            <p className="max-w-sm text-right text-sm text-muted-foreground" data-testid="invoice-tax-note">
              {invoice.taxNote}
            </p>
          )}
          {invoice.display && (
            <p className="text-right text-sm text-muted-foreground" data-testid="invoice-display-total">
              {invoice.display.note}
            </p>
          )}
        </div>

        <dl className="mt-8 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted-foreground">Payment method</dt>
          <dd>{invoice.paymentMethod}</dd>
          <dt className="text-muted-foreground">Status</dt>
          <dd data-testid="invoice-status">{invoice.status}</dd>
        </dl>
        {paymentInstructions}

        <p className="mt-8 border-t border-border pt-4 text-xs text-muted-foreground">
          Amounts are in US dollars; the order was charged in USD. {SELLER_OF_RECORD.name},{" "}
          {SELLER_OF_RECORD.addressLines.join(", ")}.
        </p>
      </article>
    </Card>
  );
}
