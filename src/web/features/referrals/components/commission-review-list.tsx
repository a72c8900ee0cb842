import { type HeldCommission, holdReasonText } from "#domain/commission-holds";
import { type CommissionStatus, commissionStatusLabel } from "#domain/commissions";
import { formatDate } from "#domain/dates";
import { PagedList } from "#web/components/layout/paged-list";
import { Badge } from "#web/components/ui/badge";
import { ScrollTable, TableCell, TableRow } from "#web/components/ui/table";
import { Amount } from "#web/features/currency/components/totals-list";
import { useCommissions } from "#web/features/referrals/api/get-commissions";
import { CommissionDecisionButton } from "#web/features/referrals/components/commission-decision";

const columns = ["Created", "Product", "Amount", "Reseller", "Buyer", "Why it was held", "Action"];

/**
 * Commissions for the platform's review: held ones (the order looks like the reseller's own purchase)
 * wait for a release or a rejection; other statuses are shown for reference.
 */
export function CommissionReviewList({
  status,
  page,
  onPage,
}: {
  status: CommissionStatus;
  page: number;
  onPage: (page: number) => void;
}) {
  return (
    <PagedList
      query={useCommissions(status, page)}
      what="commissions"
      empty={
        status === "held"
          ? "No commissions are on hold. Orders that look like a reseller's own purchase appear here."
          : `No ${commissionStatusLabel[status].toLowerCase()} commissions.`
      }
      onPage={onPage}
    >
      {(items) => (
        <ScrollTable
          label="Commissions"
          columns={columns}
          minWidth="min-w-[60rem]"
          testId="commission-review"
        >
          {items.map((commission) => (
            <CommissionRow key={commission.id} commission={commission} />
          ))}
        </ScrollTable>
      )}
    </PagedList>
  );
}

function CommissionRow({ commission }: { commission: HeldCommission }) {
  const subject = `${commission.productName} (order ${commission.orderId.slice(0, 8)})`;
  return (
    <TableRow className="align-top" data-testid="commission-row">
      <TableCell className="whitespace-nowrap">
        <time dateTime={commission.createdAt}>{formatDate(commission.createdAt)}</time>
      </TableCell>
      <TableCell>
        {commission.productName}
        <span className="block font-mono text-xs text-muted-foreground">
          order {commission.orderId.slice(0, 8)}
        </span>
      </TableCell>
      <TableCell className="tabular-nums">
        <Amount usd={commission.amount} />
      </TableCell>
      <TableCell>
        {commission.resellerName}
        <span className="block text-xs break-all text-muted-foreground">{commission.resellerEmail}</span>
      </TableCell>
      <TableCell>
        {commission.buyerName}
        <span className="block text-xs break-all text-muted-foreground">{commission.buyerEmail}</span>
      </TableCell>
      <TableCell className="max-w-72">
        {commission.reasons.length > 0 ? (
          <ul className="flex list-disc flex-col gap-1 pl-4" data-testid="commission-reasons">
            {commission.reasons.map((reason) => (
              <li key={reason.code}>{holdReasonText(reason)}</li>
            ))}
          </ul>
        ) : (
          <span className="text-xs text-muted-foreground">Not held</span>
        )}
      </TableCell>
      <TableCell>
        {commission.status === "held" ? (
          <div className="flex flex-wrap gap-2">
            <CommissionDecisionButton id={commission.id} decision="release" subject={subject} />
            <CommissionDecisionButton id={commission.id} decision="reject" subject={subject} />
          </div>
        ) : (
          <Badge variant={commission.status === "approved" ? "success" : "outline"}>
            {commissionStatusLabel[commission.status]}
          </Badge>
        )}
      </TableCell>
    </TableRow>
  );
}
