import { type PayoutStatus, payoutStatusLabel } from "#domain/earnings";
import { Badge } from "#web/components/ui/badge";
import { cn } from "#web/lib/utils";

/** A payout's state: paid in green, failed in red, processing plain. */
export function PayoutStatusBadge({ status }: { status: PayoutStatus }) {
  return (
    <Badge
      variant={status === "paid" ? "success" : "outline"}
      className={cn("whitespace-nowrap", status === "failed" && "border-destructive text-destructive")}
    >
      {payoutStatusLabel[status]}
    </Badge>
  );
}
