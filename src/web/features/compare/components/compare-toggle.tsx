import { GitCompareArrows } from "lucide-react";
import { Button } from "#web/components/ui/button";
import { compareActions, useCompareTray } from "#web/features/compare/compare-store";

/** The product page's "Compare" toggle: puts the product in the compare tray, or takes it out. */
export function CompareToggle({ id, name }: { id: string; name: string }) {
  const tray = useCompareTray();
  const inTray = tray.some((item) => item.id === id);
  return (
    <Button
      size="lg"
      variant={inTray ? "secondary" : "outline"}
      aria-pressed={inTray}
      onClick={() => (inTray ? compareActions.remove(id) : compareActions.add({ id, name }))}
      data-testid="compare-toggle"
    >
      <GitCompareArrows aria-hidden />
      Compare
    </Button>
  );
}
