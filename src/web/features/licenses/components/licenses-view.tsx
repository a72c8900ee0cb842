import { ViewCard } from "#web/components/layout/view-card";

export function LicensesView() {
  return (
    <ViewCard title="Licenses" description="Licence keys of the software you bought.">
      <p className="text-sm text-muted-foreground">Nothing here yet.</p>
    </ViewCard>
  );
}
