import { useId } from "react";
import type { FinanceSummary } from "#domain/finance";
import { ViewCard } from "#web/components/layout/view-card";
import { Card } from "#web/components/ui/card";
import { ScrollTable, TableCell, TableRow } from "#web/components/ui/table";
import { usd } from "#web/features/finance/components/usd";

const figures: { key: keyof FinanceSummary; title: string; hint: string }[] = [
  { key: "charged", title: "Charged", hint: "Money taken from buyers, tax included" },
  { key: "grossSales", title: "Gross sales", hint: "Item subtotals before tax" },
  { key: "platformFees", title: "Platform fees", hint: "Stackbay's fees, less refunded ones" },
  { key: "resellerCommissions", title: "Reseller commissions", hint: "Earned by resellers, less refunds" },
  { key: "sellerNet", title: "Seller net", hint: "Earned by sellers, less refunds" },
  { key: "refunds", title: "Refunds paid", hint: "Paid back to buyers" },
  { key: "payouts", title: "Payouts paid", hint: "Arrived with sellers and resellers" },
];

const owedRows: { key: keyof FinanceSummary["owed"]; label: string }[] = [
  { key: "sellersPending", label: "Sellers, in the refund window" },
  { key: "sellersAvailable", label: "Sellers, available to pay out" },
  { key: "resellersPending", label: "Resellers, waiting for approval" },
  { key: "resellersAvailable", label: "Resellers, available to pay out" },
  { key: "payoutsInTransit", label: "Payouts in transit" },
  { key: "refundsPayable", label: "Refunds approved, not yet paid back" },
];

/** The period's figures, the tax due per jurisdiction and what is owed now. */
export function FinanceFigures({ summary }: { summary: FinanceSummary }) {
  return (
    <div className="grid gap-8">
      <ul className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4" aria-label="Figures for the period">
        {figures.map(({ key, title, hint }) => (
          <Figure
            key={key}
            title={title}
            hint={hint}
            value={summary[key] as number}
            testId={`figure-${key}`}
          />
        ))}
        <Figure
          title="Rounding"
          hint="Charged in whole cents against items held to 1/100 of a cent"
          value={summary.rounding}
          testId="figure-rounding"
        />
      </ul>
      <div className="grid gap-8 lg:grid-cols-2">
        <TaxDue summary={summary} />
        <ViewCard title="Owed now" description="Balances today, whatever the period.">
          <dl className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-2 text-sm" data-testid="owed-now">
            {owedRows.map(({ key, label }) => (
              <div key={key} className="contents">
                <dt className="text-muted-foreground">{label}</dt>
                <dd className="text-right font-semibold tabular-nums">{usd(summary.owed[key])}</dd>
              </div>
            ))}
          </dl>
        </ViewCard>
      </div>
    </div>
  );
}

function Figure({
  title,
  hint,
  value,
  testId,
}: {
  title: string;
  hint: string;
  value: number;
  testId: string;
}) {
  const id = useId();
  return (
    <Card asChild className="p-3 sm:p-5">
      <li aria-labelledby={id} data-testid={testId}>
        <h3 id={id} className="text-sm font-medium text-muted-foreground">
          {title}
        </h3>
        <p className="mt-2 text-base font-semibold tabular-nums [overflow-wrap:anywhere] sm:text-2xl">
          {usd(value)}
        </p>
        <p className="mt-1 text-xs text-muted-foreground">{hint}</p>
      </li>
    </Card>
  );
}

function TaxDue({ summary }: { summary: FinanceSummary }) {
  const rows = summary.taxByJurisdiction;
  return (
    <ViewCard
      title="Tax due"
      description="Collected on the period's sales, less tax on refunds approved in it, per jurisdiction."
    >
      {rows.length === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="tax-due-empty">
          No tax was collected or refunded in this period.
        </p>
      ) : (
        <div data-testid="tax-due">
          <ul className="grid gap-3 sm:hidden">
            {rows.map((row) => (
              <li key={row.jurisdiction} className="rounded-lg border border-border p-4">
                <p className="font-semibold">
                  {row.label} <span className="text-muted-foreground">({row.jurisdiction})</span>
                </p>
                <dl className="mt-2 grid grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-1 text-sm">
                  <dt className="text-muted-foreground">Collected</dt>
                  <dd className="text-right tabular-nums">{usd(row.collected)}</dd>
                  <dt className="text-muted-foreground">Refunded</dt>
                  <dd className="text-right tabular-nums">{usd(row.refunded)}</dd>
                  <dt className="font-medium">Due</dt>
                  <dd className="text-right font-semibold tabular-nums">{usd(row.due)}</dd>
                </dl>
              </li>
            ))}
          </ul>
          <div className="hidden sm:block">
            <ScrollTable
              label="Tax due per jurisdiction"
              columns={["Jurisdiction", "Collected", "Refunded", "Due"]}
              minWidth="min-w-[28rem]"
            >
              {rows.map((row) => (
                <TableRow key={row.jurisdiction}>
                  <TableCell>
                    {row.label} <span className="text-muted-foreground">({row.jurisdiction})</span>
                  </TableCell>
                  <TableCell className="tabular-nums">{usd(row.collected)}</TableCell>
                  <TableCell className="tabular-nums">{usd(row.refunded)}</TableCell>
                  <TableCell className="font-semibold tabular-nums">{usd(row.due)}</TableCell>
                </TableRow>
              ))}
            </ScrollTable>
          </div>
        </div>
      )}
    </ViewCard>
  );
}
