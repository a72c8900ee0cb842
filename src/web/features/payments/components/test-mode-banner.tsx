import { FlaskConical } from "lucide-react";
import { TEST_MODE_LABEL } from "#domain/test-mode";
import { usePaymentsConfig } from "#web/features/payments/api/get-payments-config";

/** A slim strip on every screen while any payment method takes no real money. */
export function TestModeBanner() {
  const { data } = usePaymentsConfig();
  if (!data?.testMode) return null;
  return (
    <p
      role="note"
      data-testid="test-mode-banner"
      className="flex items-center justify-center gap-2 border-b border-amber-300 bg-amber-100 px-4 py-1 text-center text-xs font-medium text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100 print:hidden"
    >
      <FlaskConical className="size-3.5 shrink-0" aria-hidden />
      {TEST_MODE_LABEL}
    </p>
  );
}
