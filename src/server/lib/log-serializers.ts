import type { FastifyRequest } from "fastify";
import { stdSerializers } from "pino";

/**
 * Query parameters whose values may be logged: paging, sorting and filters. Every other value (the
 * newsletter's `token`, a referral `ref`, a search typed by a person, an e-mail…) becomes [redacted].
 */
const LOGGABLE_QUERY = new Set([
  "page",
  "pageSize",
  "sort",
  "category",
  "status",
  "discount",
  "role",
  "currency",
]);

/** The path as it is, query values redacted unless they are plainly harmless. */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf("?");
  if (queryAt === -1) return url;
  const query = url
    .slice(queryAt + 1)
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=");
      if (equals === -1) return pair;
      const name = pair.slice(0, equals);
      return LOGGABLE_QUERY.has(name) ? pair : `${name}=[redacted]`;
    })
    .join("&");
  return `${url.slice(0, queryAt)}?${query}`;
}

/**
 * Request lines keep the method and the redacted URL; no client address (personal data), no headers
 * (cookies, tokens). The request id is on every line already.
 */
export function serializeRequest(request: FastifyRequest) {
  return { method: request.method, url: redactUrl(request.url) };
}

/** Anything shaped like an e-mail address. */
const EMAIL_ADDRESS = /[^\s<>()"',;:@]+@[^\s<>()"',;:@]+\.[A-Za-z]{2,}/g;

/**
 * Errors without the values of bound parameters: Drizzle puts them in its message ("params: …") and
 * PostgreSQL in `detail` ("Key (email)=(…) already exists"), and those are e-mails, names, tokens.
 * E-mail addresses go wherever they are: an SMTP server's refusal names the recipient in the message,
 * and nodemailer copies it into `response`, `rejected` and `envelope`.
 */
export function serializeError(error: Error) {
  const out = stdSerializers.err(error) as ReturnType<typeof stdSerializers.err> & Record<string, unknown>;
  const strip = (text: string) =>
    text.replace(/\nparams: .*?(?=\n {4}at |$)/s, "\nparams: [redacted]").replace(EMAIL_ADDRESS, "[e-mail]");
  delete out.params;
  delete out.detail;
  delete out.envelope;
  for (const [key, value] of Object.entries(out)) {
    if (typeof value === "string") out[key] = strip(value);
    else if (Array.isArray(value))
      out[key] = value.map((item) => (typeof item === "string" ? strip(item) : item));
  }
  return out;
}
