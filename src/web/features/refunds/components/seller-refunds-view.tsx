import { ViewCard } from "#web/components/layout/view-card";
import type { Me } from "#web/features/auth/api/get-me";

export function SellerRefundsView(_props: { me: Me }) {
  return (
    <ViewCard title="Refund requests" description="Refund requests for your products.">
      <p className="text-sm text-muted-foreground">Nothing here yet.</p>
    </ViewCard>
  );
}
