import { Activity, Clock, Database, HardDrive, Mail, RefreshCw, Tag } from "lucide-react";
import type { ComponentType, ReactNode } from "react";
import { useId } from "react";
import { formatUptime, fxCurrencyCodes, type SystemInfo } from "#domain/system";
import { PageHeader } from "#web/components/layout/page-header";
import { ViewCard } from "#web/components/layout/view-card";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { LoadError } from "#web/components/ui/load-error";
import { Spinner } from "#web/components/ui/spinner";
import { RequireRole } from "#web/features/auth/components/guards";
import { useSystem } from "#web/features/system/api/get-system";
import { FxRateForm } from "#web/features/system/components/fx-rate-form";
import { JobQueues } from "#web/features/system/components/job-queues";
import { cn } from "#web/lib/utils";

const databaseNames = { pglite: "PGlite (embedded)", postgres: "PostgreSQL" } as const;
const mailNames = { smtp: "SMTP", outbox: "Outbox files (no SMTP_URL)" } as const;
const storageNames = { local: "Local disk", s3: "S3-compatible bucket" } as const;

export function Component() {
  return (
    <RequireRole allow="superAdmin">
      <SystemScreen />
    </RequireRole>
  );
}

function SystemScreen() {
  const system = useSystem();
  return (
    <>
      <PageHeader
        title="System"
        subtitle="How the running server is doing, and the exchange rates prices are shown with."
      />
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        <div className="mb-4 flex items-center justify-end">
          <Button variant="outline" size="sm" disabled={system.isFetching} onClick={() => system.refetch()}>
            <RefreshCw aria-hidden className={cn(system.isFetching && "animate-spin")} />
            {system.isFetching ? "Refreshing..." : "Refresh"}
          </Button>
        </div>
        {system.isPending ? (
          <Spinner label="Loading the system figures" />
        ) : system.isError ? (
          <LoadError what="system figures" error={system.error} onRetry={() => system.refetch()} />
        ) : (
          <SystemFigures info={system.data} />
        )}
      </div>
    </>
  );
}

function SystemFigures({ info }: { info: SystemInfo }) {
  const { database, counts } = info;
  return (
    <div className="grid gap-8">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <Figure title="Version" icon={Tag}>
          <p className="text-2xl font-semibold">{info.version}</p>
          <p className="text-sm text-muted-foreground">Node.js {info.nodeVersion}</p>
        </Figure>
        <Figure title="Uptime" icon={Clock}>
          <p className="text-2xl font-semibold">{formatUptime(info.uptimeSeconds)}</p>
          <p className="text-sm text-muted-foreground">since this server instance started</p>
        </Figure>
        <Figure title="Database" icon={Database}>
          <div className="flex flex-wrap items-center gap-2">
            <p className="text-lg font-semibold">{databaseNames[database.kind]}</p>
            {database.healthy ? (
              <Badge variant="success" data-testid="database-health">
                Healthy
              </Badge>
            ) : (
              <Badge
                variant="outline"
                className="border-destructive text-destructive"
                data-testid="database-health"
              >
                Unreachable
              </Badge>
            )}
          </div>
          <p className="text-sm text-muted-foreground">
            {database.latencyMs === null ? "No answer to a ping" : `Round trip ${database.latencyMs} ms`}
          </p>
        </Figure>
        <Figure title="Mail transport" icon={Mail}>
          <p className="text-lg font-semibold">{mailNames[info.mail.transport]}</p>
        </Figure>
        <Figure title="Storage driver" icon={HardDrive}>
          <p className="text-lg font-semibold">{storageNames[info.storage.driver]}</p>
        </Figure>
        <Figure title="Counts" icon={Activity}>
          {counts ? (
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" data-testid="system-counts">
              <dt className="text-muted-foreground">Users</dt>
              <dd className="font-semibold tabular-nums">{counts.users}</dd>
              <dt className="text-muted-foreground">Products</dt>
              <dd className="font-semibold tabular-nums">
                {counts.products}{" "}
                <span className="font-normal text-muted-foreground">({counts.activeProducts} active)</span>
              </dd>
              <dt className="text-muted-foreground">Orders</dt>
              <dd className="font-semibold tabular-nums">{counts.orders}</dd>
            </dl>
          ) : (
            <p className="text-sm text-muted-foreground">Unavailable while the database is unreachable.</p>
          )}
        </Figure>
      </div>
      <ViewCard
        title="Background jobs"
        description="E-mail, payment reconciliation and commission approvals run in the background on every instance, each job once. A job that fails is retried with growing pauses; one that fails every attempt waits under Failed jobs."
      >
        {database.healthy ? (
          <JobQueues />
        ) : (
          <p className="text-sm text-muted-foreground">
            The job queues live in the database, which cannot be reached.
          </p>
        )}
      </ViewCard>
      <ViewCard
        title="Exchange rates"
        description="Prices are stored in USD and shown as price × rate × (1 + buffer). US Dollar is the base currency; its rate is fixed at 1. Visitors see a new rate on their next page load."
      >
        {database.healthy ? (
          <div>
            {fxCurrencyCodes.map((code) => (
              <FxRateForm key={code} code={code} rate={info.fxRates.find((r) => r.currencyCode === code)} />
            ))}
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">
            The rates cannot be edited while the database is unreachable.
          </p>
        )}
      </ViewCard>
    </div>
  );
}

function Figure({
  title,
  icon: Icon,
  children,
}: {
  title: string;
  icon: ComponentType<{ className?: string; "aria-hidden"?: boolean }>;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <Card asChild className="p-5">
      <section aria-labelledby={headingId}>
        <h2 id={headingId} className="flex items-center gap-2 text-sm font-medium text-muted-foreground">
          <Icon className="size-4" aria-hidden /> {title}
        </h2>
        <div className="mt-3 grid gap-1">{children}</div>
      </section>
    </Card>
  );
}
