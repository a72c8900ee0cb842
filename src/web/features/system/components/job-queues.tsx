import { RotateCcw } from "lucide-react";
import { formatDateTime, formatRelativeTime } from "#domain/dates";
import { type DeadLetterInfo, type JobQueueInfo, queueTitle, scheduleText } from "#domain/system";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { LoadError } from "#web/components/ui/load-error";
import { Spinner } from "#web/components/ui/spinner";
import { ScrollTable, TableCell, TableRow } from "#web/components/ui/table";
import { useJobs } from "#web/features/system/api/get-jobs";
import { useRetryJobs } from "#web/features/system/api/retry-jobs";
import { runMutation } from "#web/lib/mutation";

/** The background job queues and the jobs that used up their retries, with a retry for each. */
export function JobQueues() {
  const jobs = useJobs();
  if (jobs.isPending) return <Spinner label="Loading the job queues" />;
  if (jobs.isError) {
    return <LoadError what="job queues" error={jobs.error} onRetry={() => jobs.refetch()} />;
  }
  return (
    <div className="grid gap-6">
      <ScrollTable
        label="Job queues"
        columns={["Queue", "Waiting", "Running", "Failed", "Last run"]}
        minWidth="min-w-[44rem]"
        testId="job-queues"
      >
        {jobs.data.queues.map((queue) => (
          <QueueRow key={queue.name} queue={queue} />
        ))}
      </ScrollTable>
      <DeadLetters items={jobs.data.deadLetters} />
    </div>
  );
}

function QueueRow({ queue }: { queue: JobQueueInfo }) {
  const run = queue.lastRun;
  return (
    <TableRow data-queue={queue.name}>
      <TableCell>
        <p className="font-medium">{queueTitle(queue.name)}</p>
        <p className="text-xs text-muted-foreground">{scheduleText(queue.schedule)}</p>
      </TableCell>
      <TableCell className="tabular-nums">{queue.waiting}</TableCell>
      <TableCell className="tabular-nums">{queue.active}</TableCell>
      <TableCell className="tabular-nums">
        {queue.deadLettered > 0 ? (
          <Badge variant="outline" className="border-destructive text-destructive">
            {queue.deadLettered}
          </Badge>
        ) : (
          0
        )}
      </TableCell>
      <TableCell>
        {run ? (
          <div className="grid gap-0.5">
            <p>
              <span title={formatDateTime(run.startedAt)}>{formatRelativeTime(run.startedAt)}</span>
              {" · "}
              {run.outcome === "completed" ? (
                <span className="text-emerald-700 dark:text-emerald-400">completed</span>
              ) : run.outcome === "failed" ? (
                <span className="text-destructive">failed</span>
              ) : (
                <span>running</span>
              )}
            </p>
            {run.outcome === "failed" && run.error ? (
              <p className="max-w-md break-words text-xs text-muted-foreground">{run.error}</p>
            ) : null}
            <p className="text-xs text-muted-foreground">
              {run.runs} run{run.runs === 1 ? "" : "s"}, {run.failures} failed
            </p>
          </div>
        ) : (
          <span className="text-muted-foreground">Not run yet</span>
        )}
      </TableCell>
    </TableRow>
  );
}

function DeadLetters({ items }: { items: DeadLetterInfo[] }) {
  const retry = useRetryJobs();
  const retryJobs = (ids?: string[]) =>
    runMutation(retry.mutateAsync(ids ? { ids } : {}), {
      success: (retried) => ({
        title: retried === 1 ? "Job queued again" : `${retried} jobs queued again`,
        description: "They will be tried again in a moment.",
      }),
      error: { title: "Failed to retry", show: "client" },
    });
  return (
    <section aria-labelledby="dead-letters-heading" className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="dead-letters-heading" className="font-semibold">
          Failed jobs
        </h3>
        {items.length > 1 ? (
          <Button variant="outline" size="sm" disabled={retry.isPending} onClick={() => retryJobs()}>
            <RotateCcw aria-hidden /> Retry all
          </Button>
        ) : null}
      </div>
      {items.length === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="no-dead-letters">
          No failed jobs. A job that fails every attempt waits here for a retry.
        </p>
      ) : (
        <ScrollTable
          label="Failed jobs"
          columns={["Job", "Queue", "Gave up", "Attempts", ""]}
          minWidth="min-w-[40rem]"
          testId="dead-letters"
        >
          {items.map((job) => (
            <TableRow key={job.id}>
              <TableCell className="font-medium">{job.about}</TableCell>
              <TableCell>{queueTitle(job.queue)}</TableCell>
              <TableCell>
                <span title={formatDateTime(job.failedAt)}>{formatRelativeTime(job.failedAt)}</span>
              </TableCell>
              <TableCell className="tabular-nums">{job.attempts}</TableCell>
              <TableCell className="text-right">
                <Button
                  variant="outline"
                  size="sm"
                  disabled={retry.isPending}
                  aria-label={`Retry ${job.about}`}
                  onClick={() => retryJobs([job.id])}
                >
                  <RotateCcw aria-hidden /> Retry
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </ScrollTable>
      )}
    </section>
  );
}
