import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RetryJobs } from "#domain/system";
import { auditLogKey } from "#web/features/audit/api/get-audit-log";
import { jobsQueryOptions } from "#web/features/system/api/get-jobs";
import { call } from "#web/lib/api";

export const retryJobs = (body: RetryJobs) => call("POST /admin/jobs/retry", { body }).then((r) => r.retried);

/** Sends dead-lettered jobs back to their queue; the queues and the audit log reload. */
export function useRetryJobs() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryJobs,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: jobsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: auditLogKey }),
      ]),
  });
}
