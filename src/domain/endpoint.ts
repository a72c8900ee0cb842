import { z } from "zod";
import type { ServerErrorCode } from "#domain/error-codes";
import { pageNumber } from "#domain/paging";

/** The HTTP methods the API answers. */
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** An answer that is not JSON: a download or a document, of this content type. */
export interface FileAnswer {
  file: string;
}

/** An answer that sends the browser elsewhere (a link followed from an e-mail). */
export interface RedirectAnswer {
  redirect: 302 | 303;
}

/**
 * One endpoint of the API, declared once: what it takes (path params, query, body), what it answers on
 * success (`answer`, or `null` for `204 No Content`) and the error codes a caller can meet beyond any
 * route's own (validation, guard, rate limit; see `src/domain/error-codes.ts`). The method and path are its
 * key in `endpoints` (`"GET /orders/:id"`), so the web can import the declarations type-only and still
 * know where to send a request: the key is the only thing that reaches the browser. The server registers
 * each route from its declaration (`src/server/http/route.ts`), so the schemas here are the ones that
 * validate requests, with their messages.
 */
export interface Endpoint {
  params?: z.ZodType;
  query?: z.ZodType;
  /** A zod schema for a JSON body, or `"multipart"` for a file upload sent as `FormData`. */
  body?: z.ZodType | "multipart";
  /** A JSON answer's schema; `null` for `204 No Content`; a file or a redirect for the few that are neither. */
  answer: z.ZodType | FileAnswer | RedirectAnswer | null;
  /** The success status when it is not 200 (or 204 for a `null` answer): 201, or either (an idempotent create). */
  status?: 201 | readonly [200, 201];
  /** Answers with a body of their own at other statuses (a health check's 503). */
  otherAnswers?: Readonly<Record<number, z.ZodType>>;
  /** Served at the site's root rather than under `/api` (the metrics a scraper reads). */
  root?: true;
  errors: readonly ServerErrorCode[];
}

/** Declares an endpoint; only checks the shape and keeps the exact types. */
export const endpoint = <const E extends Endpoint>(declaration: E): E => declaration;

type Part<E, Name extends "params" | "query" | "body"> = E extends { [K in Name]: infer S }
  ? S extends z.ZodType
    ? { [K in Name]: z.input<S> }
    : S extends "multipart"
      ? { [K in Name]: FormData }
      : unknown
  : unknown;

/** What a caller sends: `{ params?, query?, body? }`, each part present only when the endpoint takes it. */
export type EndpointInput<E> = Part<E, "params"> & Part<E, "query"> & Part<E, "body">;

/** What the endpoint answers on success. */
export type EndpointAnswer<E> = E extends { answer: infer A }
  ? A extends z.ZodType
    ? z.output<A>
    : null
  : never;

/** The error codes the endpoint declares. */
export type EndpointErrors<E> = E extends { errors: readonly (infer C)[] } ? C : never;

/** Splits an endpoint's key into its method and path (with `:params`). */
export function methodAndPath(key: string): { method: Method; path: string } {
  const [method, path] = key.split(" ");
  return { method: method as Method, path: path as string };
}

/** The answer of a deletion that has nothing else to say. */
export const okAnswerSchema = z.object({ ok: z.literal(true) });

/** The query of a list that takes only `?page=`. */
export const pageQuery = z.object({ page: pageNumber });
