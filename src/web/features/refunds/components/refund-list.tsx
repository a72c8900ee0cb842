import { formatDate } from "#domain/dates";
import { nextRefundStatus, openRefundStatuses, type RefundListItem } from "#domain/refunds";
import { PagedList } from "#web/components/layout/paged-list";
import { ScrollTable, TableCell, TableRow } from "#web/components/ui/table";
import { Amount } from "#web/features/currency/components/totals-list";
import { type RefundFilter, type RefundScope, useRefunds } from "#web/features/refunds/api/get-refunds";
import { PayoutActions, PayoutStatus } from "#web/features/refunds/components/payout-status";
import { RefundDecisionButton } from "#web/features/refunds/components/refund-decision";
import { RefundStatusBadge, SellerDeadline } from "#web/features/refunds/components/refund-status";
import { RefundThreadButton } from "#web/features/refunds/components/refund-thread";

const columns = ["Requested", "Product", "Amount", "Buyer", "Reason", "Status", "Action"];
/** A buyer's own requests: no buyer column, and the reason is theirs. */
const buyerColumns = ["Requested", "Product", "Amount", "Your reason", "Status", "Action"];
const emptyText: Record<RefundScope, string> = {
  buyer: "You have not asked for any refunds. You can ask for one from an order in Orders.",
  seller: "No refund requests for your products.",
  admin: "No refund requests.",
};

/**
 * Refund requests for the buyer (their own, to follow and take to Stackbay), the seller (their own
 * items, to answer) or the platform (escalations, to decide), each with its conversation. The actions
 * shown follow the server's rules; the server checks them again.
 */
export function RefundList({
  scope,
  page,
  filter,
  onPage,
}: {
  scope: RefundScope;
  page: number;
  filter?: RefundFilter;
  onPage: (page: number) => void;
}) {
  return (
    <PagedList
      query={useRefunds(scope, page, filter)}
      what="refund requests"
      empty={emptyText[scope]}
      onPage={onPage}
    >
      {(items) => (
        <ScrollTable
          label="Refund requests"
          columns={scope === "buyer" ? buyerColumns : columns}
          minWidth={scope === "buyer" ? "min-w-[44rem]" : "min-w-[52rem]"}
        >
          {items.map((refund) => (
            <RefundRow key={refund.id} refund={refund} scope={scope} />
          ))}
        </ScrollTable>
      )}
    </PagedList>
  );
}

function RefundRow({ refund, scope }: { refund: RefundListItem; scope: RefundScope }) {
  const subject = `${refund.productName} (order ${refund.orderId.slice(0, 8)})`;
  const canAnswer =
    scope === "buyer"
      ? false
      : scope === "seller"
        ? refund.status === "requested"
        : refund.status === "escalated" || (refund.platformSold && refund.status === "requested");
  const canEscalate =
    scope === "buyer" &&
    !(
      "refused" in
      nextRefundStatus(
        { status: refund.status, sellerDueAt: new Date(refund.sellerDueAt) },
        "buyer",
        "escalate",
        new Date(),
      )
    );
  const open = (openRefundStatuses as readonly string[]).includes(refund.status);
  const payoutNeedsAdmin = refund.payout?.state === "failed" || refund.payout?.state === "awaiting_transfer";
  return (
    <TableRow className="align-top" data-testid="refund-row">
      <TableCell className="whitespace-nowrap">
        <time dateTime={refund.createdAt}>{formatDate(refund.createdAt)}</time>
      </TableCell>
      <TableCell>
        {refund.productName}
        <span className="block font-mono text-xs text-muted-foreground">
          order {refund.orderId.slice(0, 8)} · qty {refund.quantity}
        </span>
      </TableCell>
      <TableCell className="tabular-nums">
        <Amount usd={refund.amount} />
      </TableCell>
      {scope !== "buyer" && <TableCell>{refund.buyerName}</TableCell>}
      <TableCell className="max-w-64 break-words">
        {refund.reason}
        {refund.sellerNote && (
          <span className="mt-1 block text-xs text-muted-foreground">Seller: {refund.sellerNote}</span>
        )}
        {refund.platformNote && (
          <span className="mt-1 block text-xs text-muted-foreground">Stackbay: {refund.platformNote}</span>
        )}
      </TableCell>
      <TableCell>
        <div className="flex flex-col items-start gap-1">
          <RefundStatusBadge status={refund.status} />
          <SellerDeadline status={refund.status} dueAt={refund.sellerDueAt} />
          {refund.payout && <PayoutStatus payout={refund.payout} />}
        </div>
      </TableCell>
      <TableCell>
        <div className="flex flex-col items-start gap-2">
          {scope === "admin" && refund.payout && payoutNeedsAdmin ? (
            <PayoutActions refundId={refund.id} payout={refund.payout} subject={subject} />
          ) : canAnswer ? (
            <div className="flex flex-wrap gap-2">
              <RefundDecisionButton
                id={refund.id}
                decision="approve"
                subject={subject}
                finalReview={scope === "admin"}
              />
              <RefundDecisionButton
                id={refund.id}
                decision="reject"
                subject={subject}
                finalReview={scope === "admin"}
              />
            </div>
          ) : canEscalate ? (
            <RefundDecisionButton id={refund.id} decision="escalate" subject={subject} />
          ) : (
            <span className="text-xs text-muted-foreground">No action needed</span>
          )}
          <RefundThreadButton id={refund.id} subject={subject} open={open} />
        </div>
      </TableCell>
    </TableRow>
  );
}
