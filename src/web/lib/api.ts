import type { EndpointAnswer, EndpointInput } from "#domain/endpoint";
import type { Endpoints } from "#domain/endpoints";
import type { ErrorCode } from "#domain/error-codes";
import { untilHydrated } from "#web/lib/hydration";

/**
 * The one way the web app talks to the API: JSON in, JSON out, errors as ApiError with the server's code,
 * one of the declared `ErrorCode`s (an answer without a declared one is `HTTP_ERROR`).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** Whether `error` is an API error, and (given codes) one of these: the way a screen tells failures apart. */
export const isApiError = (error: unknown, ...codes: ErrorCode[]): error is ApiError =>
  error instanceof ApiError && (codes.length === 0 || codes.includes(error.code));

type QueryValue = string | number | boolean | undefined;
type Query = Record<string, QueryValue | readonly QueryValue[]>;

/** What a call may add to the request: a signal that aborts it (a query that is no longer needed). */
export type CallOptions = { signal?: AbortSignal };

type ApiOptions = Omit<RequestInit, "body"> & {
  body?: unknown;
  query?: Query;
};

/**
 * Where requests go when the page is rendered on the server (`entry-server.tsx`): the app answers them
 * itself, without a network hop. The server hands over a lookup of the render in progress rather than one
 * fetch: renders overlap while they wait for answers, and one process may serve more than one app (the
 * journeys' servers), so each render must reach its own. Answers nothing in the browser.
 */
let serverFetch: () => typeof fetch | undefined = () => undefined;
const SERVER_ORIGIN = "http://stackbay.internal";

export function answerApiOnServer(fetchOfThisRender: () => typeof fetch | undefined) {
  serverFetch = fetchOfThisRender;
}

/**
 * A read in the browser answers once the page the server drew is hydrated (`untilHydrated`): until then
 * every part must render what the server drew, so the query it feeds stays as the server left it. The
 * request itself goes at once.
 */
async function api<T>(path: string, options: ApiOptions = {}): Promise<T> {
  const answer = request<T>(path, options);
  const hydrated = untilHydrated();
  if (!hydrated || serverFetch() || (options.method ?? "GET") !== "GET") return answer;
  await answer.catch(() => undefined);
  await hydrated;
  // The held answers come back one task each: all at once, every part that reads them (the account, the
  // payment methods, each card's saved state) would re-render in one long synchronous task.
  await new Promise((resolve) => setTimeout(resolve, 0));
  return answer;
}

async function request<T>(path: string, options: ApiOptions): Promise<T> {
  const { body, query, headers, ...init } = options;
  const onServer = serverFetch();
  const url = new URL(`/api${path}`, onServer ? SERVER_ORIGIN : window.location.origin);
  for (const [name, value] of Object.entries(query ?? {})) {
    // A repeated parameter (`?vendor=A&vendor=B`) is an array.
    for (const one of Array.isArray(value) ? value : [value]) {
      if (one !== undefined && one !== "") url.searchParams.append(name, String(one));
    }
  }
  // A FormData body (file uploads) goes as multipart, with the boundary the browser sets.
  const multipart = body instanceof FormData;
  let response: Response;
  try {
    response = await (onServer ?? fetch)(url, {
      credentials: "same-origin",
      ...init,
      headers: {
        accept: "application/json",
        ...(body === undefined || multipart ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : multipart ? body : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(
      0,
      "NETWORK_ERROR",
      "We couldn't reach Stackbay. Check your connection and try again.",
    );
  }
  const payload = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) {
    // The list of declared codes is loaded only when an answer is an error: no page needs it to draw.
    const known = await import("#domain/error-codes").then(
      ({ isErrorCode }) => isErrorCode(payload?.code),
      () => false,
    );
    throw new ApiError(
      response.status,
      known ? (payload.code as ErrorCode) : "HTTP_ERROR",
      payload?.message ?? "An unexpected error occurred. Please try again.",
      payload?.details,
    );
  }
  return payload as T;
}

/** An endpoint the web can call: `"METHOD /path"`, as declared in `src/domain/endpoints.ts`. */
export type EndpointKey = keyof Endpoints;
/** What `call` sends to the endpoint `K`. */
export type CallInput<K extends EndpointKey> = EndpointInput<Endpoints[K]>;
/** What the endpoint `K` answers. */
export type CallAnswer<K extends EndpointKey> = EndpointAnswer<Endpoints[K]>;

/**
 * Calls a declared endpoint: the path's `:params` are filled in (escaped), the query and body sent, and the
 * answer typed from the declaration. The declarations are imported type-only, so neither zod nor a schema
 * reaches the browser; the key itself says the method and the path.
 */
export function call<K extends EndpointKey>(
  key: K,
  ...[input, options]: keyof CallInput<K> extends never
    ? [input?: CallInput<K>, options?: CallOptions]
    : [input: CallInput<K>, options?: CallOptions]
): Promise<CallAnswer<K>> {
  const [method, template] = (key as string).split(" ") as [string, string];
  const { params, query, body } = (input ?? {}) as {
    params?: Record<string, string | number>;
    query?: Query;
    body?: unknown;
  };
  // A missing optional param drops its segment (`/admin/fees/:scope/:subject` → `/admin/fees/default`).
  const path = template.replace(/\/:(\w+)\??/g, (_, name: string) => {
    const value = params?.[name];
    return value === undefined || value === "" ? "" : `/${encodeURIComponent(String(value))}`;
  });
  return api<CallAnswer<K>>(path, { method, query, body, signal: options?.signal });
}
