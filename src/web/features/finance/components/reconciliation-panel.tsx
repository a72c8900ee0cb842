import { CheckCircle2, TriangleAlert } from "lucide-react";
import { Link } from "react-router";
import type { Reconciliation } from "#domain/finance";
import { paths } from "#domain/routes";
import { ViewCard } from "#web/components/layout/view-card";
import { LoadError } from "#web/components/ui/load-error";
import { Spinner } from "#web/components/ui/spinner";
import { ScrollTable, TableCell, TableRow } from "#web/components/ui/table";
import { useReconciliation } from "#web/features/finance/api/get-finance";
import { usd } from "#web/features/finance/components/usd";

/** Money captured by the providers and the bank against the sales the ledger booked, all time. */
export function ReconciliationPanel() {
  const query = useReconciliation();
  return (
    <ViewCard
      title="Reconciliation"
      description="Money captured (paid provider payments and bank transfers received) against each order's sale in the ledger, since the start."
    >
      {query.isPending ? (
        <Spinner label="Reconciling" />
      ) : query.isError ? (
        <LoadError what="reconciliation" error={query.error} onRetry={() => query.refetch()} />
      ) : (
        <ReconciliationResult books={query.data} />
      )}
    </ViewCard>
  );
}

function ReconciliationResult({ books }: { books: Reconciliation }) {
  return (
    <div className="grid gap-4" data-testid="reconciliation">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_auto_auto_auto_auto_auto] sm:justify-start">
        <dt className="text-muted-foreground">Captured</dt>
        <dd className="font-semibold tabular-nums">{usd(books.captured)}</dd>
        <dt className="text-muted-foreground sm:ml-4">Booked</dt>
        <dd className="font-semibold tabular-nums">{usd(books.booked)}</dd>
        <dt className="text-muted-foreground sm:ml-4">Difference</dt>
        <dd className="font-semibold tabular-nums">{usd(books.difference)}</dd>
      </dl>
      {books.differences.length === 0 ? (
        <p
          className="flex items-center gap-2 rounded-lg border border-emerald-600/40 bg-emerald-50 p-4 font-medium text-emerald-800 dark:bg-emerald-950/40 dark:text-emerald-300"
          data-testid="reconciled"
        >
          <CheckCircle2 className="size-5 shrink-0" aria-hidden /> Reconciled: no difference
        </p>
      ) : (
        <>
          <p className="flex items-center gap-2 text-sm font-medium text-amber-800 dark:text-amber-300">
            <TriangleAlert className="size-4 shrink-0" aria-hidden />
            {books.differences.length} order{books.differences.length === 1 ? "" : "s"} differ
          </p>
          <ul className="grid gap-3 sm:hidden" data-testid="differences-cards">
            {books.differences.map((d) => (
              <li key={d.orderId} className="rounded-lg border border-border p-4 text-sm">
                <OrderLink orderId={d.orderId} />
                <p className="mt-1">{d.reason}</p>
                <dl className="mt-2 grid grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-1">
                  <dt className="text-muted-foreground">Captured</dt>
                  <dd className="text-right tabular-nums">{usd(d.captured)}</dd>
                  <dt className="text-muted-foreground">Booked</dt>
                  <dd className="text-right tabular-nums">{usd(d.booked)}</dd>
                  <dt className="font-medium">Difference</dt>
                  <dd className="text-right font-semibold tabular-nums">{usd(d.difference)}</dd>
                </dl>
              </li>
            ))}
          </ul>
          <div className="hidden sm:block">
            <ScrollTable
              label="Orders whose captured money and booked sale differ"
              columns={["Order", "Why", "Captured", "Booked", "Difference"]}
              minWidth="min-w-[44rem]"
              testId="differences"
            >
              {books.differences.map((d) => (
                <TableRow key={d.orderId}>
                  <TableCell>
                    <OrderLink orderId={d.orderId} />
                  </TableCell>
                  <TableCell>{d.reason}</TableCell>
                  <TableCell className="tabular-nums">{usd(d.captured)}</TableCell>
                  <TableCell className="tabular-nums">{usd(d.booked)}</TableCell>
                  <TableCell className="font-semibold tabular-nums">{usd(d.difference)}</TableCell>
                </TableRow>
              ))}
            </ScrollTable>
          </div>
        </>
      )}
    </div>
  );
}

function OrderLink({ orderId }: { orderId: string }) {
  return (
    <Link
      to={paths.invoice(orderId)}
      className="font-mono text-sm font-medium text-primary underline-offset-4 hover:underline"
    >
      Order {orderId.slice(0, 8).toUpperCase()}
      <span className="sr-only"> (open its invoice)</span>
    </Link>
  );
}
