import { useState } from "react";
import type { Me } from "#domain/accounts";
import { hasRole } from "#domain/accounts";
import { ViewCard } from "#web/components/layout/view-card";
import { RefundList } from "#web/features/refunds/components/refund-list";

/** The seller's 'Refund requests' view: answer each within 3 business days. */
export function SellerRefundsView({ me }: { me: Me }) {
  const [page, setPage] = useState(1);
  return (
    <ViewCard
      title="Refund requests"
      description="Buyers' refund requests for your products. Please answer each within 3 business days; unanswered requests can be taken to Stackbay for a final review."
    >
      {hasRole(me.roles, "seller") ? (
        <RefundList scope="seller" page={page} onPage={setPage} />
      ) : (
        <p className="text-sm text-muted-foreground">Refund requests are for sellers' products.</p>
      )}
    </ViewCard>
  );
}
