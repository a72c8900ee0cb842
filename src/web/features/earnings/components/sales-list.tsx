import { Download } from "lucide-react";
import { formatDate } from "#domain/dates";
import { type SaleLine, type SaleLineStatus, saleLineStatusLabel } from "#domain/earnings";
import { formatRatePercent } from "#domain/money";
import { PagedList } from "#web/components/layout/paged-list";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { ScrollTable, TableCell, TableRow } from "#web/components/ui/table";
import { salesCsvUrl, useSales } from "#web/features/earnings/api/get-earnings";
import { usd } from "#web/features/earnings/format";

const columns = ["Sold", "Product", "Gross", "Fee", "Commission", "Tax", "Net", "Status", "Available"];

const statusVariant: Record<SaleLineStatus, "outline" | "success" | "secondary"> = {
  pending: "outline",
  available: "success",
  refunded: "secondary",
};

export function SaleStatus({ status }: { status: SaleLineStatus }) {
  return <Badge variant={statusVariant[status]}>{saleLineStatusLabel[status]}</Badge>;
}

const orderRef = (line: SaleLine) => `order ${line.orderId.slice(0, 8)} · qty ${line.quantity}`;
const feeText = (line: SaleLine) => `${usd(line.fee)} (${formatRatePercent(line.feeRate)})`;
const availableText = (line: SaleLine) =>
  line.status === "refunded" ? "—" : line.availableAt ? formatDate(line.availableAt) : "—";

/** The "Export CSV" link: every sale as a spreadsheet, downloaded with the session cookie. */
export function ExportSalesLink() {
  return (
    <Button asChild variant="outline" size="sm">
      <a href={salesCsvUrl} download data-testid="export-csv">
        <Download aria-hidden /> Export CSV
      </a>
    </Button>
  );
}

/**
 * The seller's sold items, newest first, with where each dollar went: a table from tablets up, a card
 * per item on phones (nine columns do not fit 375 px).
 */
export function SalesList({ page, onPage }: { page: number; onPage: (page: number) => void }) {
  return (
    <PagedList
      query={useSales(page)}
      what="sales"
      empty="No sales yet — your sales and what you earn from each appear here."
      onPage={onPage}
    >
      {(items) => (
        <>
          <div className="hidden md:block">
            <ScrollTable label="Sales" columns={columns} minWidth="min-w-[58rem]" testId="sales-table">
              {items.map((line) => (
                <TableRow key={line.orderItemId} className="align-top" data-testid="sale-row">
                  <TableCell className="whitespace-nowrap">
                    <time dateTime={line.soldAt}>{formatDate(line.soldAt)}</time>
                  </TableCell>
                  <TableCell className="min-w-40 max-w-56 break-words">
                    {line.productName}
                    <span className="block font-mono text-xs text-muted-foreground">{orderRef(line)}</span>
                  </TableCell>
                  <TableCell className="tabular-nums">{usd(line.gross)}</TableCell>
                  <TableCell className="whitespace-nowrap tabular-nums">{feeText(line)}</TableCell>
                  <TableCell className="tabular-nums">{usd(line.commission)}</TableCell>
                  <TableCell className="tabular-nums">
                    {usd(line.tax)}
                    <span className="block text-xs text-muted-foreground">{line.taxLabel}</span>
                  </TableCell>
                  <TableCell className="font-semibold tabular-nums">{usd(line.net)}</TableCell>
                  <TableCell>
                    <SaleStatus status={line.status} />
                  </TableCell>
                  <TableCell className="whitespace-nowrap">{availableText(line)}</TableCell>
                </TableRow>
              ))}
            </ScrollTable>
          </div>
          <ul className="flex flex-col gap-3 md:hidden" aria-label="Sales" data-testid="sales-cards">
            {items.map((line) => (
              <li
                key={line.orderItemId}
                className="rounded-lg border border-border p-4"
                data-testid="sale-card"
              >
                <div className="flex items-start justify-between gap-3">
                  <div className="min-w-0">
                    <p className="font-medium break-words">{line.productName}</p>
                    <p className="font-mono text-xs text-muted-foreground">{orderRef(line)}</p>
                  </div>
                  <SaleStatus status={line.status} />
                </div>
                <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
                  <dt className="text-muted-foreground">Sold</dt>
                  <dd className="text-right">{formatDate(line.soldAt)}</dd>
                  <dt className="text-muted-foreground">Gross</dt>
                  <dd className="text-right tabular-nums">{usd(line.gross)}</dd>
                  <dt className="text-muted-foreground">Fee</dt>
                  <dd className="text-right tabular-nums">{feeText(line)}</dd>
                  <dt className="text-muted-foreground">Commission</dt>
                  <dd className="text-right tabular-nums">{usd(line.commission)}</dd>
                  <dt className="text-muted-foreground">{line.taxLabel} (paid by the buyer)</dt>
                  <dd className="text-right tabular-nums">{usd(line.tax)}</dd>
                  <dt className="font-semibold">Net</dt>
                  <dd className="text-right font-semibold tabular-nums">{usd(line.net)}</dd>
                  <dt className="text-muted-foreground">Available</dt>
                  <dd className="text-right">{availableText(line)}</dd>
                </dl>
              </li>
            ))}
          </ul>
        </>
      )}
    </PagedList>
  );
}
