import { formatDateTime } from "#domain/dates";
import { type RefundStatus, refundStatusLabel } from "#domain/refunds";
import { Badge } from "#web/components/ui/badge";
import { cn } from "#web/lib/utils";

export function RefundStatusBadge({ status }: { status: RefundStatus }) {
  return (
    <Badge
      variant={status === "approved" ? "success" : "outline"}
      className={cn(
        "whitespace-nowrap",
        (status === "rejected" || status === "seller_rejected") && "border-destructive text-destructive",
      )}
      data-testid="refund-status"
    >
      {refundStatusLabel[status]}
    </Badge>
  );
}

/** "Seller answers by …", or that the deadline passed: both parties see the same date. */
export function SellerDeadline({ status, dueAt }: { status: RefundStatus; dueAt: string }) {
  if (status !== "requested") return null;
  const overdue = new Date(dueAt).getTime() <= Date.now();
  return (
    <span className={cn("text-xs", overdue ? "text-destructive" : "text-muted-foreground")}>
      {overdue ? "Seller deadline passed " : "Seller answers by "}
      <time dateTime={dueAt}>{formatDateTime(dueAt)}</time>
    </span>
  );
}
