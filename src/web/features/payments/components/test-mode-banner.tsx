import { FlaskConical } from "lucide-react";
import { TEST_MODE_LABEL } from "#domain/test-mode";
import { usePaymentsConfig } from "#web/features/payments/api/get-payments-config";

/**
 * A slim strip on every screen while any payment method takes no real money. It is known only once the
 * payments config has loaded, after the page has painted, so it is fixed to the bottom of the viewport
 * instead of pushing the page down (a layout shift on every page); the spacer after the footer keeps the
 * end of the page clear of it, and while it shows the page's scroll padding (styles.css) keeps what has
 * the keyboard's focus clear of it.
 */
export function TestModeBanner() {
  const { data } = usePaymentsConfig();
  if (!data?.testMode) return null;
  return (
    <>
      <div aria-hidden className="h-6 shrink-0 print:hidden" />
      <p
        role="note"
        data-testid="test-mode-banner"
        data-slot="test-mode-banner"
        className="fixed inset-x-0 bottom-0 z-40 flex h-6 items-center justify-center gap-2 border-t border-amber-300 bg-amber-100 px-4 text-center text-xs font-medium text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100 print:hidden"
      >
        <FlaskConical className="size-3.5 shrink-0" aria-hidden />
        {TEST_MODE_LABEL}
      </p>
    </>
  );
}
