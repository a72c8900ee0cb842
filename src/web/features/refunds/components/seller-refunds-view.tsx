import { useState } from "react";
import type { Me } from "#domain/accounts";
import { hasRole } from "#domain/accounts";
import { ViewCard } from "#web/components/layout/view-card";
import { RefundList } from "#web/features/refunds/components/refund-list";

/**
 * The 'Refund requests' view. Everyone sees the requests they made as a buyer, in a buyer's words;
 * a seller also sees the requests for their products, to answer within 3 business days.
 */
export function SellerRefundsView({ me }: { me: Me }) {
  const [page, setPage] = useState(1);
  const [sellerPage, setSellerPage] = useState(1);
  const seller = hasRole(me.roles, "seller");
  return (
    <div className="flex flex-col gap-6">
      {seller && (
        <ViewCard
          title="Refund requests for your products"
          description="Buyers' refund requests for your products. Please answer each within 3 business days: approve it, or write to the buyer to offer a fix or explain why. Unanswered requests can be taken to Stackbay for a final review."
        >
          <RefundList scope="seller" page={sellerPage} onPage={setSellerPage} />
        </ViewCard>
      )}
      <ViewCard
        title={seller ? "Your refund requests" : "Refund requests"}
        description="Refunds you asked for, item by item. The seller has 3 business days to answer; write to them in Messages. If they decline or do not answer, you can ask Stackbay for a final review."
      >
        <RefundList scope="buyer" page={page} onPage={setPage} />
      </ViewCard>
    </div>
  );
}
