import { Link } from "react-router";
import { formatDateTime } from "#domain/dates";
import { formatUsd } from "#domain/money";
import { paths } from "#domain/routes";
import { PagedList } from "#web/components/layout/paged-list";
import { ScrollTable, TableCell, TableRow } from "#web/components/ui/table";
import { usePayoutBatches } from "#web/features/payouts/api/get-payout-batches";

/** The batches run so far, newest first, each with how many of its payouts are paid, on the way or failed. */
export function PayoutBatchList({ page, onPage }: { page: number; onPage: (page: number) => void }) {
  const batches = usePayoutBatches(page);
  return (
    <section aria-labelledby="payout-batches-title" className="flex flex-col gap-4">
      <h2 id="payout-batches-title" className="text-lg font-semibold">
        Past batches
      </h2>
      <PagedList
        query={batches}
        what="payout batches"
        empty="No payout batch has been run yet."
        onPage={onPage}
      >
        {(items) => (
          <ScrollTable
            label="Payout batches"
            columns={["Approved", "By", "Payouts", "Total", "Paid", "Processing", "Failed"]}
            minWidth="min-w-[44rem]"
          >
            {items.map((batch) => (
              <TableRow key={batch.id}>
                <TableCell>
                  <Link
                    className="font-medium text-primary underline-offset-4 hover:underline"
                    to={paths.admin.payoutBatch(batch.id)}
                  >
                    {formatDateTime(batch.createdAt)}
                  </Link>
                </TableCell>
                <TableCell>{batch.createdBy ?? "—"}</TableCell>
                <TableCell className="tabular-nums">{batch.count}</TableCell>
                <TableCell className="tabular-nums">{formatUsd(batch.total)}</TableCell>
                <TableCell className="tabular-nums">{batch.paid}</TableCell>
                <TableCell className="tabular-nums">{batch.processing}</TableCell>
                <TableCell className="tabular-nums">{batch.failed}</TableCell>
              </TableRow>
            ))}
          </ScrollTable>
        )}
      </PagedList>
    </section>
  );
}
