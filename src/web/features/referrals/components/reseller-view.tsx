import { ViewCard } from "#web/components/layout/view-card";
import type { Me } from "#web/features/auth/api/get-me";

export function ResellerView(_props: { me: Me }) {
  return (
    <ViewCard title="Reseller links" description="Your links, clicks and commission.">
      <p className="text-sm text-muted-foreground">Nothing here yet.</p>
    </ViewCard>
  );
}
