import { Download, RefreshCw } from "lucide-react";
import { periodSchema } from "#domain/finance";
import { presetPeriod } from "#domain/finance-period";
import { PageHeader } from "#web/components/layout/page-header";
import { Button } from "#web/components/ui/button";
import { LoadError } from "#web/components/ui/load-error";
import { Spinner } from "#web/components/ui/spinner";
import { RequireRole } from "#web/features/auth/components/guards";
import { FeeRulesPanel } from "#web/features/fees/components/fee-rules-panel";
import { journalCsvUrl, useFinanceSummary, useReconciliation } from "#web/features/finance/api/get-finance";
import { FinanceFigures } from "#web/features/finance/components/finance-figures";
import { PeriodPicker } from "#web/features/finance/components/period-picker";
import { ReconciliationPanel } from "#web/features/finance/components/reconciliation-panel";
import { useSearchState } from "#web/lib/use-search-state";
import { cn } from "#web/lib/utils";

export function Component() {
  return (
    <RequireRole allow="superAdmin">
      <FinanceScreen />
    </RequireRole>
  );
}

/** The operator's books: a period's figures from the ledger, the reconciliation, the fee rules. */
function FinanceScreen() {
  const { params, go } = useSearchState();
  // The period lives in the URL; a missing or bad one is this month.
  const parsed = periodSchema.safeParse({ from: params.get("from"), to: params.get("to") });
  const period = parsed.success ? parsed.data : presetPeriod("this-month", new Date());
  const summary = useFinanceSummary(period);
  const reconciliation = useReconciliation();
  const refreshing = summary.isFetching || reconciliation.isFetching;

  return (
    <>
      <PageHeader
        title="Finance"
        subtitle="Sales, fees, tax and what is owed, from the ledger. Amounts in USD; days in UTC."
      />
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-8 sm:px-6">
        <div className="flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
          <PeriodPicker
            key={`${period.from}:${period.to}`}
            period={period}
            onChange={(next) => go({ from: next.from, to: next.to })}
          />
          <div className="flex flex-wrap gap-2 lg:mt-7">
            <Button
              variant="outline"
              disabled={refreshing}
              onClick={() => Promise.all([summary.refetch(), reconciliation.refetch()])}
            >
              <RefreshCw aria-hidden className={cn(refreshing && "animate-spin")} />
              {refreshing ? "Refreshing..." : "Refresh"}
            </Button>
            <Button asChild variant="outline">
              <a href={journalCsvUrl(period)} download>
                <Download aria-hidden /> Export journal (CSV)
              </a>
            </Button>
          </div>
        </div>
        <section aria-label="Figures" aria-busy={summary.isFetching}>
          <p className="mb-4 text-sm text-muted-foreground" data-testid="finance-period">
            {period.from} to {period.to}
          </p>
          {summary.isPending ? (
            <Spinner label="Loading the figures" />
          ) : summary.isError ? (
            <LoadError what="figures" error={summary.error} onRetry={() => summary.refetch()} />
          ) : (
            <FinanceFigures summary={summary.data} />
          )}
        </section>
        <ReconciliationPanel />
        <FeeRulesPanel />
      </div>
    </>
  );
}
