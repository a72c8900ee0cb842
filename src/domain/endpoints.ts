import { catalogEndpoints } from "#domain/endpoints/catalog";

/**
 * Every endpoint the web app calls, declared once (decision 0023): keyed by `"METHOD /path"` (relative to
 * `/api`, with `:params`), each with its params, query, body and answer schemas and the error codes it
 * can answer. The web imports this type-only and calls through `call` (`src/web/lib/api.ts`);
 * `src/server/endpoints.test.ts` checks every declaration against the route the server registers.
 */
export const endpoints = {
  ...catalogEndpoints,
} as const;

export type Endpoints = typeof endpoints;
