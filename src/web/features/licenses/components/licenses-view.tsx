import { Copy, KeyRound } from "lucide-react";
import { Link } from "react-router";
import { formatDate } from "#domain/dates";
import { invoiceNumber } from "#domain/invoice";
import type { License } from "#domain/license-schemas";
import { paths } from "#domain/routes";
import { ViewCard } from "#web/components/layout/view-card";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { LoadError } from "#web/components/ui/load-error";
import { useLicenses } from "#web/features/licenses/api/get-licenses";
import { copyText } from "#web/lib/clipboard";
import { cn } from "#web/lib/utils";

/** The dashboard's Licenses view: every key the buyer owns, with copy, status and renewal. */
export function LicensesView() {
  const licenses = useLicenses();
  return (
    <ViewCard title="Licenses" description="License keys of the software and subscriptions you bought.">
      {licenses.isPending ? (
        <LicensesSkeleton />
      ) : licenses.isError ? (
        <LoadError
          title="Failed to load licenses"
          error={licenses.error}
          onRetry={() => void licenses.refetch()}
        />
      ) : licenses.data.items.length === 0 ? (
        <NoLicenses />
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2" aria-label="Your licenses" data-testid="licenses-list">
          {licenses.data.items.map((license) => (
            <LicenseCard key={license.id} license={license} />
          ))}
        </ul>
      )}
    </ViewCard>
  );
}

function LicenseCard({ license }: { license: License }) {
  const active = license.status === "active";
  const copy = () =>
    copyText(license.key, { title: "License key copied", description: license.productName }, "key");
  return (
    <li
      className="flex min-w-0 flex-col gap-3 rounded-lg border border-border p-4"
      data-testid="license-card"
    >
      <div className="flex items-start justify-between gap-3">
        <h3 className="min-w-0 font-semibold break-words">
          {license.productId ? (
            <Link to={paths.product(license.productId)} className="hover:underline">
              {license.productName}
            </Link>
          ) : (
            license.productName
          )}
        </h3>
        <Badge
          variant={active ? "success" : "outline"}
          className={cn(!active && "border-destructive text-destructive")}
          data-testid="license-status"
        >
          {active ? "Active" : "Revoked"}
        </Badge>
      </div>
      <div className="flex items-center gap-2">
        <code
          className={cn(
            "min-w-0 flex-1 rounded-md bg-muted px-3 py-2 font-mono text-sm tracking-wider break-all",
            !active && "text-muted-foreground line-through",
          )}
          data-testid="license-key"
        >
          {license.key}
        </code>
        <Button
          variant="outline"
          size="icon"
          onClick={copy}
          aria-label={`Copy license key for ${license.productName}`}
          title="Copy license key"
        >
          <Copy aria-hidden />
        </Button>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-muted-foreground">Issued</dt>
        <dd>
          <time dateTime={license.issuedAt}>{formatDate(license.issuedAt)}</time>
        </dd>
        {license.revokedAt ? (
          <>
            <dt className="text-muted-foreground">Revoked</dt>
            <dd>
              <time dateTime={license.revokedAt}>{formatDate(license.revokedAt)}</time>
            </dd>
          </>
        ) : (
          <>
            <dt className="text-muted-foreground">Renews</dt>
            <dd data-testid="license-renews">
              {license.renewsAt ? (
                <time dateTime={license.renewsAt}>{formatDate(license.renewsAt)}</time>
              ) : (
                "Perpetual"
              )}
            </dd>
          </>
        )}
        <dt className="text-muted-foreground">Invoice</dt>
        <dd>
          <Link
            to={paths.invoice(license.orderId)}
            className="font-mono text-xs text-primary hover:underline"
          >
            {invoiceNumber(license.orderId)}
          </Link>
        </dd>
      </dl>
    </li>
  );
}

function LicensesSkeleton() {
  return (
    <div role="status" aria-label="Loading licenses" className="grid gap-4 lg:grid-cols-2">
      {[0, 1].map((card) => (
        <div key={card} className="h-36 animate-pulse rounded-lg bg-muted" aria-hidden />
      ))}
    </div>
  );
}

function NoLicenses() {
  return (
    <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-border px-4 py-12 text-center">
      <KeyRound className="size-10 text-muted-foreground" aria-hidden />
      <h3 className="text-lg font-semibold">No licenses yet</h3>
      <p className="max-w-sm text-sm text-muted-foreground">
        Software and SaaS products you buy come with a license key, which will appear here.
      </p>
      <Button asChild className="mt-2">
        <Link to={paths.products()}>Browse Products</Link>
      </Button>
    </div>
  );
}
