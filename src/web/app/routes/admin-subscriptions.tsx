import { Search, X } from "lucide-react";
import { type FormEvent, useState } from "react";
import { formatUsd } from "#domain/money";
import { type LiveSubscriptionStatus, liveSubscriptionStatuses } from "#domain/subscription-report-schemas";
import { PageHeader } from "#web/components/layout/page-header";
import { Button } from "#web/components/ui/button";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { LoadError } from "#web/components/ui/load-error";
import { Spinner } from "#web/components/ui/spinner";
import { RequireAdmin } from "#web/features/auth/components/guards";
import { useAdminSubscriptions } from "#web/features/subscription-reports/api/get-admin-subscriptions";
import { AdminLiveList } from "#web/features/subscription-reports/components/admin-live-list";
import { DunningQueue } from "#web/features/subscription-reports/components/dunning-queue";
import { SubscriptionFigures } from "#web/features/subscription-reports/components/report-parts";
import { useSearchState } from "#web/lib/use-search-state";
import { cn } from "#web/lib/utils";

const isLiveStatus = (value: string | null): value is LiveSubscriptionStatus =>
  liveSubscriptionStatuses.includes(value as LiveSubscriptionStatus);

/** A page number from the URL: 1 when missing or not a positive whole number. */
const pageNumber = (value: string | null) => Math.max(1, Number.parseInt(value ?? "1", 10) || 1);

export function Component() {
  return (
    <RequireAdmin>
      <SubscriptionsScreen />
    </RequireAdmin>
  );
}

/** Every subscription on Stackbay: the platform's figures, the dunning queue and the live list. */
function SubscriptionsScreen() {
  const { params, page, go } = useSearchState();
  const duePage = pageNumber(params.get("duePage"));
  const q = params.get("q")?.trim() || undefined;
  const raw = params.get("status");
  const status = isLiveStatus(raw) ? raw : undefined;
  const report = useAdminSubscriptions({ page, duePage, q, status });
  return (
    <>
      <PageHeader
        title="Subscriptions"
        subtitle="What subscriptions bring in each month, the renewals waiting for payment and every subscription that goes on. Amounts are in USD."
      />
      <div className="mx-auto flex max-w-7xl flex-col gap-10 px-4 py-8 sm:px-6">
        {report.isPending ? (
          <Spinner label="Loading subscriptions" />
        ) : report.isError ? (
          <LoadError what="subscriptions" error={report.error} onRetry={() => report.refetch()} />
        ) : (
          <div
            className={cn("flex flex-col gap-10", report.isFetching && "opacity-70 transition-opacity")}
            data-testid="admin-subscriptions"
          >
            <SubscriptionFigures
              figures={report.data.figures}
              money={formatUsd}
              label="Subscription figures, all of Stackbay"
            />
            {/* Keyed by the URL's search, so going back or following a link shows that search in the box. */}
            <SubscriptionSearch
              key={q ?? ""}
              q={q}
              onSearch={(next) => go({ q: next, page: undefined, duePage: undefined })}
            />
            <DunningQueue
              dunning={report.data.dunning}
              searched={q !== undefined}
              onPage={(p) => go({ duePage: String(p) })}
            />
            <AdminLiveList
              live={report.data.live}
              status={status}
              searched={q !== undefined}
              onStatus={(next) => go({ status: next, page: undefined })}
              onPage={(p) => go({ page: String(p) })}
            />
          </div>
        )}
      </div>
    </>
  );
}

/** Finds subscriptions by buyer e-mail or name, product or id, in both lists; it lives in the URL (`?q=`). */
function SubscriptionSearch({ q, onSearch }: { q?: string; onSearch: (q: string | undefined) => void }) {
  const [text, setText] = useState(q ?? "");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(text.trim() || undefined);
  };
  return (
    <search>
      <form onSubmit={submit} className="flex items-end gap-2">
        <FormField label="Search subscriptions" className="min-w-0 flex-1 sm:max-w-md">
          <Input
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="E-mail or product"
            maxLength={200}
            autoComplete="off"
            spellCheck={false}
          />
        </FormField>
        <Button type="submit">
          <Search aria-hidden />
          Search
        </Button>
        {q && (
          <Button
            type="button"
            variant="ghost"
            onClick={() => onSearch(undefined)}
            aria-label="Clear the search"
          >
            <X aria-hidden />
            <span className="hidden sm:inline">Clear</span>
          </Button>
        )}
      </form>
    </search>
  );
}
