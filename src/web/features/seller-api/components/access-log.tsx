import { Activity } from "lucide-react";
import { useId, useState } from "react";
import { formatDateTime } from "#domain/dates";
import { SELLER_API_LOG_DAYS, type SellerApiCall } from "#domain/seller-api";
import { Badge } from "#web/components/ui/badge";
import { LoadError } from "#web/components/ui/load-error";
import { ScrollTable, TableCell, TableRow } from "#web/components/ui/table";
import { useApiCalls } from "#web/features/seller-api/api/get-api-calls";
import { callStatusText, callSucceeded } from "#web/features/seller-api/call-status";
import { Pager } from "#web/features/subscription-reports/components/report-parts";
import { cn } from "#web/lib/utils";

const columns = ["Time", "Key", "Operation", "Status"];

/**
 * The access log: every call made with the seller's keys, newest first, a page at a time. It keeps when,
 * with which key, the operation and how it ended, never what was asked or answered.
 */
export function AccessLog() {
  const id = useId();
  const [page, setPage] = useState(1);
  const calls = useApiCalls(page);
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <div>
        <h3 id={id} className="text-lg font-semibold">
          Access log
        </h3>
        <p className="mt-1 text-sm text-muted-foreground">
          {`Every call made with your keys, newest first. The log keeps each call for ${SELLER_API_LOG_DAYS} days: when, with which key, the operation and its status, never what was asked or answered.`}
        </p>
      </div>
      {calls.isPending ? (
        <div role="status" aria-label="Loading the access log" className="flex flex-col gap-2">
          {[0, 1, 2].map((row) => (
            <div key={row} className="h-10 animate-pulse rounded bg-muted" aria-hidden />
          ))}
        </div>
      ) : calls.isError ? (
        <LoadError what="access log" error={calls.error} onRetry={() => calls.refetch()} />
      ) : calls.data.total === 0 ? (
        <div
          className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-border px-4 py-8 text-center"
          data-testid="api-calls-empty"
        >
          <Activity className="size-8 text-muted-foreground" aria-hidden />
          <p className="font-medium">No calls yet</p>
          <p className="max-w-md text-sm text-muted-foreground">
            Each call your systems make to the seller API with one of your keys appears here a moment later.
          </p>
        </div>
      ) : (
        <div
          className={cn("flex flex-col gap-3", calls.isPlaceholderData && "opacity-70 transition-opacity")}
        >
          <ScrollTable label="Access log" columns={columns} minWidth="min-w-[40rem]" testId="api-call-table">
            {calls.data.items.map((item, n) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a call has no id; two may share a millisecond and a key, and rows hold no state
              <CallRow key={`${item.at} ${item.keyPrefix} ${n}`} call={item} />
            ))}
          </ScrollTable>
          <Pager
            what="calls"
            total={calls.data.total}
            page={calls.data.page}
            pageSize={calls.data.pageSize}
            onPage={setPage}
          />
        </div>
      )}
    </section>
  );
}

function CallRow({ call }: { call: SellerApiCall }) {
  const ok = callSucceeded(call.status);
  return (
    <TableRow className="[&>td]:align-top" data-testid="api-call-row">
      <TableCell className="whitespace-nowrap">
        <time dateTime={call.at}>{formatDateTime(call.at)}</time>
      </TableCell>
      <TableCell className="max-w-56 break-words">
        {call.keyName}
        <code className="block font-mono text-xs text-muted-foreground">{call.keyPrefix}</code>
      </TableCell>
      <TableCell>
        <code className="font-mono text-xs break-all">{call.operation}</code>
      </TableCell>
      <TableCell>
        <Badge
          variant={ok ? "success" : "outline"}
          className={cn("whitespace-nowrap", !ok && "border-destructive/60 text-destructive")}
          data-testid="api-call-status"
        >
          {callStatusText(call.status)}
        </Badge>
      </TableCell>
    </TableRow>
  );
}
