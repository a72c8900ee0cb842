import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

export const getJobs = () => call("GET /admin/jobs");

/** The background job queues and the jobs that gave up, for super admins; refreshed every 15 s while shown. */
export const jobsQueryOptions = () =>
  queryOptions({ queryKey: ["admin", "jobs"], queryFn: getJobs, refetchInterval: 15_000 });

export function useJobs() {
  return useQuery(jobsQueryOptions());
}
