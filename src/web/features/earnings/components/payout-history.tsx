import { formatDate } from "#domain/dates";
import { type PayoutLine, payoutStatusLabel } from "#domain/earnings";
import { payoutMethodLabel } from "#domain/payouts";
import { PagedList } from "#web/components/layout/paged-list";
import { Badge } from "#web/components/ui/badge";
import { ScrollTable, TableCell, TableRow } from "#web/components/ui/table";
import { usePayouts } from "#web/features/earnings/api/get-earnings";
import { usd } from "#web/features/earnings/format";

const columns = ["Date", "For", "Amount", "Method", "Status", "Reference"];
const roleLabel: Record<PayoutLine["role"], string> = { seller: "Sales", reseller: "Commissions" };
const statusVariant = { processing: "outline", paid: "success", failed: "secondary" } as const;

/** The user's payouts, newest first; a failed one says why (its money went back to Available). */
export function PayoutHistory({
  page,
  onPage,
  payoutMinimum,
}: {
  page: number;
  onPage: (page: number) => void;
  payoutMinimum: number;
}) {
  return (
    <PagedList
      query={usePayouts(page)}
      what="payouts"
      empty={`No payouts yet — once your available balance reaches ${usd(payoutMinimum)}, it is paid in the next payout.`}
      onPage={onPage}
    >
      {(items) => (
        <ScrollTable label="Payouts" columns={columns} minWidth="min-w-[40rem]" testId="payouts-table">
          {items.map((payout) => (
            <TableRow key={payout.id} className="align-top">
              <TableCell className="whitespace-nowrap">
                <time dateTime={payout.paidAt ?? payout.createdAt}>
                  {formatDate(payout.paidAt ?? payout.createdAt)}
                </time>
              </TableCell>
              <TableCell>{roleLabel[payout.role]}</TableCell>
              <TableCell className="font-semibold tabular-nums">{usd(payout.amount)}</TableCell>
              <TableCell>{payoutMethodLabel[payout.method]}</TableCell>
              <TableCell>
                <Badge variant={statusVariant[payout.status]}>{payoutStatusLabel[payout.status]}</Badge>
                {payout.failureReason && (
                  <span className="mt-1 block max-w-56 text-xs text-muted-foreground">
                    {payout.failureReason} The amount is back in your available balance.
                  </span>
                )}
              </TableCell>
              <TableCell className="font-mono text-xs break-all">{payout.reference ?? "—"}</TableCell>
            </TableRow>
          ))}
        </ScrollTable>
      )}
    </PagedList>
  );
}
