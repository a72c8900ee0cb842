import { RefreshCw } from "lucide-react";
import { formatDateTime } from "#domain/dates";
import { formatRatePercent } from "#domain/money";
import type { AdminTaxRate } from "#domain/tax";
import { PageHeader } from "#web/components/layout/page-header";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { LoadError } from "#web/components/ui/load-error";
import { Spinner } from "#web/components/ui/spinner";
import { ScrollTable, TableCell, TableRow } from "#web/components/ui/table";
import { RequireRole } from "#web/features/auth/components/guards";
import { useAdminTaxRates } from "#web/features/tax/api/admin-tax-rates";
import { TaxRateDialog } from "#web/features/tax/components/tax-rate-dialog";
import { cn } from "#web/lib/utils";

const columns = ["Jurisdiction", "Tax", "Rate", "Default", "Last change", ""];

export function Component() {
  return (
    <RequireRole allow="superAdmin">
      <TaxRatesScreen />
    </RequireRole>
  );
}

function TaxRatesScreen() {
  const rates = useAdminTaxRates();
  return (
    <>
      <PageHeader
        title="Tax rates"
        subtitle="Stackbay is the merchant of record: it charges these rates to buyers in each jurisdiction and remits the tax."
      />
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        <div className="mb-4 flex items-center justify-between gap-4">
          <p className="text-sm text-muted-foreground">
            Buyers elsewhere pay no tax; EU and UK businesses with a valid VAT number pay none (reverse
            charge).
          </p>
          <Button variant="outline" size="sm" disabled={rates.isFetching} onClick={() => rates.refetch()}>
            <RefreshCw aria-hidden className={cn(rates.isFetching && "animate-spin")} />
            {rates.isFetching ? "Refreshing..." : "Refresh"}
          </Button>
        </div>
        {rates.isPending ? (
          <Spinner label="Loading the tax rates" />
        ) : rates.isError ? (
          <LoadError what="tax rates" error={rates.error} onRetry={() => rates.refetch()} />
        ) : (
          <ScrollTable label="Tax rates" columns={columns} minWidth="min-w-[48rem]" testId="tax-rates-table">
            {rates.data.map((rate) => (
              <TaxRateRow key={rate.jurisdiction} rate={rate} />
            ))}
          </ScrollTable>
        )}
      </div>
    </>
  );
}

function TaxRateRow({ rate }: { rate: AdminTaxRate }) {
  const changed = rate.updatedAt !== null;
  return (
    <TableRow data-testid={`tax-rate-${rate.jurisdiction}`}>
      <TableCell className="font-mono">{rate.jurisdiction}</TableCell>
      <TableCell className="font-medium">{rate.label}</TableCell>
      <TableCell className="tabular-nums">
        <span data-testid="tax-rate-value">{formatRatePercent(rate.rate)}</span>
        {changed && (
          <Badge variant="outline" className="ml-2">
            Changed
          </Badge>
        )}
      </TableCell>
      <TableCell className="text-muted-foreground tabular-nums">
        {formatRatePercent(rate.defaultRate)}
      </TableCell>
      <TableCell className="text-sm text-muted-foreground">
        {rate.updatedAt
          ? `${formatDateTime(rate.updatedAt)} by ${rate.updatedBy ?? "a removed account"}`
          : "—"}
      </TableCell>
      <TableCell className="text-right">
        <TaxRateDialog rate={rate} />
      </TableCell>
    </TableRow>
  );
}
