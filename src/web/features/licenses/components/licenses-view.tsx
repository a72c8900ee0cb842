import { Copy, Download, KeyRound } from "lucide-react";
import { Link } from "react-router";
import { formatDate, formatDateTime } from "#domain/dates";
import { invoiceNumber } from "#domain/invoice";
import type { License, LicenseActivation, LicenseStatus } from "#domain/license-schemas";
import { paths } from "#domain/routes";
import { ViewCard } from "#web/components/layout/view-card";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { DecisionDialog } from "#web/components/ui/decision-dialog";
import { LoadError } from "#web/components/ui/load-error";
import { useDeactivateActivation } from "#web/features/licenses/api/deactivate-activation";
import { useDownloadLicenseFile } from "#web/features/licenses/api/download-license-file";
import { useLicenses } from "#web/features/licenses/api/get-licenses";
import { copyText } from "#web/lib/clipboard";
import { runMutation } from "#web/lib/mutation";
import { cn } from "#web/lib/utils";

const statusLabel: Record<LicenseStatus, string> = {
  active: "Active",
  suspended: "Suspended",
  revoked: "Revoked",
};

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
  const revoked = license.status === "revoked";
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
          {statusLabel[license.status]}
        </Badge>
      </div>
      <div className="flex items-center gap-2">
        <code
          className={cn(
            "min-w-0 flex-1 rounded-md bg-muted px-3 py-2 font-mono text-sm tracking-wider break-all",
            revoked && "text-muted-foreground line-through",
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
        <dt className="text-muted-foreground">Seats</dt>
        <dd data-testid="license-seats">
          {license.activations.length} of {license.seats} in use
        </dd>
      </dl>
      {license.status === "suspended" && (
        <p className="text-sm text-muted-foreground">
          The seller suspended this license: it does not work until they reinstate it.
        </p>
      )}
      {!revoked && <Activations license={license} />}
      {active && <DownloadFile license={license} />}
    </li>
  );
}

/** The machines the licence is activated on, each of which its owner may deactivate. */
function Activations({ license }: { license: License }) {
  return (
    <section aria-label={`Machines using ${license.productName}`} className="border-t border-border pt-3">
      <h4 className="text-sm font-semibold">Activated on</h4>
      {license.activations.length === 0 ? (
        <p className="mt-1 text-sm text-muted-foreground" data-testid="no-activations">
          No machine yet. The software activates the key when you enter it.
        </p>
      ) : (
        <ul className="mt-2 flex flex-col gap-2" data-testid="license-activations">
          {license.activations.map((activation) => (
            <ActivationRow key={activation.id} license={license} activation={activation} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ActivationRow({ license, activation }: { license: License; activation: LicenseActivation }) {
  const deactivate = useDeactivateActivation();
  const name = activation.label || activation.machine;
  return (
    <li
      className="flex flex-wrap items-start justify-between gap-2 rounded-md bg-muted/50 px-3 py-2 text-sm"
      data-testid="license-activation"
    >
      <div className="min-w-0 flex-1">
        <p className="font-medium break-words">{name}</p>
        {activation.label && (
          <p className="font-mono text-xs break-all text-muted-foreground">{activation.machine}</p>
        )}
        <p className="text-xs text-muted-foreground">
          Activated <time dateTime={activation.activatedAt}>{formatDate(activation.activatedAt)}</time> · last
          check-in <time dateTime={activation.lastSeenAt}>{formatDateTime(activation.lastSeenAt)}</time>
        </p>
      </div>
      <DecisionDialog
        words={{
          button: "Deactivate",
          title: "Deactivate this machine?",
          body: "Its seat is freed for another machine. The software on it stops working until the key is activated there again.",
        }}
        subject={`${name} (${license.productName})`}
        triggerVariant="outline"
        confirmVariant="destructive"
        pending={deactivate.isPending}
        onConfirm={async () =>
          (
            await runMutation(deactivate.mutateAsync({ id: license.id, activationId: activation.id }), {
              success: { title: "Machine deactivated", description: name },
              error: { title: "The machine could not be deactivated", show: "client" },
            })
          ).ok
        }
      />
    </li>
  );
}

/** Saves the signed offline license file, for software that runs without reaching Stackbay. */
function DownloadFile({ license }: { license: License }) {
  const download = useDownloadLicenseFile();
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <Button
        variant="outline"
        size="sm"
        disabled={download.isPending}
        aria-label={`Download offline license file for ${license.productName}`}
        onClick={() =>
          void runMutation(download.mutateAsync({ id: license.id, key: license.key }), {
            error: { title: "The license file could not be downloaded", show: "client" },
          })
        }
      >
        <Download aria-hidden />
        {download.isPending ? "Preparing..." : "Offline license file"}
      </Button>
      <span className="text-xs text-muted-foreground">For software that runs without internet.</span>
    </div>
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
