import { z } from "zod";
import { endpoint } from "#domain/endpoint";
import {
  adminFxRateSchema,
  fxRateParams,
  fxRateUpdateSchema,
  jobsSchema,
  retriedJobsSchema,
  retryJobsSchema,
  systemSchema,
} from "#domain/system";

/** What the web calls of the server's `system` module (`src/server/modules/system/routes.ts`). */
export const systemEndpoints = {
  "GET /admin/jobs": endpoint({ answer: jobsSchema, errors: [] }),
  "GET /admin/system": endpoint({ answer: systemSchema, errors: [] }),
  "POST /admin/jobs/retry": endpoint({ body: retryJobsSchema, answer: retriedJobsSchema, errors: [] }),
  "PUT /admin/fx-rates/:code": endpoint({
    params: fxRateParams,
    body: fxRateUpdateSchema,
    answer: z.object({ rate: adminFxRateSchema }),
    errors: [],
  }),
} as const;
