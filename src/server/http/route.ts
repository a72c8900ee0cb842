import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyContextConfig,
  FastifyInstance,
  onRequestAsyncHookHandler,
  onResponseAsyncHookHandler,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { type Endpoint, methodAndPath } from "#domain/endpoint";
import { type AllEndpoints, allEndpoints } from "#domain/endpoints";
import { errorStatus, type ServerErrorCode } from "#domain/error-codes";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The declaration the route was registered from (`"GET /orders/:id"`); see `route`. */
    endpoint?: EndpointKey;
    /** The codes the route's guard answers (`Guard.answers`), which its declaration need not repeat. */
    guardAnswers?: readonly ServerErrorCode[];
  }
}

/** A Fastify instance (or an encapsulated scope of one) that validates with zod, as every module's is. */
export type ApiScope = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** Every declared endpoint, the web's and the others (downloads, webhooks, mail links, probes). */
export type EndpointKey = keyof AllEndpoints;

/** A route guard that says which error codes it answers, so the OpenAPI document can list them. */
export type Guard = onRequestAsyncHookHandler & { readonly answers: readonly ServerErrorCode[] };

type Only<E, From extends string, To extends string> = E extends { [K in From]: infer S extends z.ZodType }
  ? { [K in To]: S }
  : unknown;

type Successes<E> = E extends { answer: infer A extends z.ZodType }
  ? E extends { status: 201 }
    ? { 201: A }
    : E extends { status: readonly [200, 201] }
      ? { 200: A; 201: A }
      : { 200: A }
  : E extends { answer: null }
    ? { 204: z.ZodNull }
    : E extends { answer: { file: string } }
      ? { 200: z.ZodString }
      : unknown;

type Others<E> = E extends { otherAnswers: infer O extends Readonly<Record<number, z.ZodType>> }
  ? O
  : unknown;

/** The schemas Fastify types a route's request and reply by: the declaration's, without error answers. */
type SchemaOf<E> = Only<E, "params", "params"> &
  Only<E, "query", "querystring"> &
  Only<E, "body", "body"> & { response: Successes<E> & Others<E> };

/** A route's handler: `request.params`, `.query` and `.body` and the answer are typed from the declaration. */
export type Handler<K extends EndpointKey> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  SchemaOf<AllEndpoints[K]>,
  ZodTypeProvider,
  FastifyBaseLogger
>;

/** What a module adds to a declared endpoint: its documentation, guard and rate limit. */
export interface RouteOptions {
  summary: string;
  description?: string;
  tags?: string[];
  /** Left out of the OpenAPI document (the metrics a scraper reads). */
  hide?: boolean;
  /** The OpenAPI security scheme the route takes instead of the session cookie: a seller API key. */
  security?: "sellerApiKey";
  onRequest?: Guard;
  /** Runs after the answer is sent (the test providers' pages deliver their event then). */
  onResponse?: onResponseAsyncHookHandler;
  config?: Omit<FastifyContextConfig, "endpoint" | "guardAnswers">;
}

const errorBody = (codes: readonly ServerErrorCode[]) =>
  z
    .object({ code: z.string(), message: z.string(), details: z.unknown().optional() })
    .describe(codes.join(", "));

/**
 * Every error answer of a route, by status: the codes its declaration names, plus those any route may
 * answer where they apply (400 for input, the guard's 401/403, 403 for a write from another origin, 429
 * for a rate limit, 503 when the server sheds load, 500).
 */
export function errorAnswers(
  key: EndpointKey,
  declaration: Endpoint,
  options: Pick<RouteOptions, "onRequest" | "config">,
): Record<number, z.ZodType> {
  const { method, path } = methodAndPath(key);
  const codes: ServerErrorCode[] = [...declaration.errors];
  if (declaration.params || declaration.query || declaration.body) codes.push("VALIDATION_ERROR");
  codes.push(...(options.onRequest?.answers ?? []));
  // Payment providers' webhooks are exempt from the origin check (app.ts).
  if (method !== "GET" && !path.startsWith("/payments/webhooks/")) codes.push("FORBIDDEN_ORIGIN");
  if (options.config?.rateLimit) codes.push("RATE_LIMITED");
  if (options.config?.shedLoad !== false) codes.push("SERVICE_BUSY");
  codes.push("INTERNAL_ERROR");
  const byStatus = new Map<number, Set<ServerErrorCode>>();
  for (const code of codes) {
    const status = errorStatus[code];
    byStatus.set(status, (byStatus.get(status) ?? new Set()).add(code));
  }
  return Object.fromEntries([...byStatus].map(([status, set]) => [status, errorBody([...set].sort())]));
}

function successAnswers(declaration: Endpoint): Record<number, z.ZodType> {
  const { answer, status } = declaration;
  if (answer === null) return { 204: z.null().describe("No content") };
  if ("redirect" in answer)
    return { [answer.redirect]: z.null().describe("Sends the browser on (Location)") };
  const schema = "file" in answer ? z.string().describe(`A ${answer.file} document`) : answer;
  if (status === 201) return { 201: schema };
  if (Array.isArray(status)) return { 200: schema, 201: schema };
  return { 200: schema };
}

/**
 * Registers the route of a declared endpoint (decision 0023): its method, path, params, query, body and
 * answers come from `endpoints[key]` in src/domain, so routes.ts writes none of them again; the module
 * adds the summary, the guard, the rate limit and the handler, whose request and answer are typed from
 * the declaration. The OpenAPI document lists every error answer (`errorAnswers`). A declared `201`
 * is set before the handler runs and a `null` answer is sent as `204 No Content`.
 */
export function route<K extends EndpointKey>(
  app: ApiScope,
  key: K,
  options: RouteOptions,
  handler: Handler<K>,
): void {
  const declaration: Endpoint = allEndpoints[key];
  const { method, path } = methodAndPath(key);
  const expectedPrefix = declaration.root ? "" : "/api";
  if (app.prefix !== expectedPrefix) {
    throw new Error(`${key} is declared under "${expectedPrefix}" but registered under "${app.prefix}"`);
  }
  const { answer, params, query, body } = declaration;
  const produces = answer && "file" in answer ? { produces: [answer.file.split(";")[0] ?? answer.file] } : {};
  app.route({
    method,
    url: path,
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
    ...(options.onResponse ? { onResponse: options.onResponse } : {}),
    config: { ...options.config, endpoint: key, guardAnswers: options.onRequest?.answers ?? [] },
    schema: {
      ...(options.tags ? { tags: options.tags } : {}),
      summary: options.summary,
      ...(options.description ? { description: options.description } : {}),
      ...(options.hide ? { hide: true } : {}),
      ...(options.security ? { security: [{ [options.security]: [] }] } : {}),
      ...produces,
      ...(params ? { params } : {}),
      ...(query ? { querystring: query } : {}),
      ...(body === "multipart" ? { consumes: ["multipart/form-data"] } : body ? { body } : {}),
      response: {
        ...errorAnswers(key, declaration, options),
        ...declaration.otherAnswers,
        ...successAnswers(declaration),
      },
    },
    handler: async function (this: FastifyInstance, request, reply) {
      if (declaration.status === 201) reply.code(201);
      const result = await (handler as RouteHandlerMethod).call(this, request, reply);
      if (answer === null && !reply.sent) return reply.code(204).send();
      return result;
    },
  });
}

/**
 * Every API route is registered from its declaration (`route`), so that the web, the OpenAPI document and
 * the server agree: registering any other route under `/api/` throws, and the app does not start. Only
 * the documentation's own pages (hidden from the document) are not declared.
 */
export function refuseUndeclaredRoutes(app: FastifyInstance): void {
  app.addHook("onRoute", (options) => {
    const hidden = (options.schema as { hide?: boolean } | undefined)?.hide === true;
    if (options.url.startsWith("/api/") && !hidden && !options.config?.endpoint) {
      throw new Error(`${options.method} ${options.url} is not registered from a declaration (route())`);
    }
  });
}
