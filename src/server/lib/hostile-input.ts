import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "#server/errors";

/** Text PostgreSQL cannot store (NUL) or that is not Unicode (a lone UTF-16 surrogate). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const unstorable = (text: string) => text.includes("\u0000") || LONE_SURROGATE.test(text);

export class InvalidInput extends AppError {
  constructor(message: string) {
    super(400, "INVALID_INPUT", message);
  }
}

const NUL_OR_BROKEN = "Text must not contain NUL characters or invalid Unicode.";

/** Whether any string (or key) of a parsed value is unstorable; walked without recursion, as bodies nest deeply. */
export function hasUnstorableText(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === "string") {
      if (unstorable(item)) return true;
    } else if (Array.isArray(item)) {
      pending.push(...item);
    } else if (item !== null && typeof item === "object") {
      for (const [key, child] of Object.entries(item)) {
        if (unstorable(key)) return true;
        pending.push(child);
      }
    }
  }
  return false;
}

/** Path and query string as sent: every percent-escape must decode to UTF-8 text without NUL. */
function checkUrl(url: string) {
  const queryAt = url.indexOf("?");
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const parts = [path, ...(queryAt === -1 ? [] : url.slice(queryAt + 1).split(/[&=]/))];
  for (const part of parts) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(part.replaceAll("+", " "));
    } catch {
      throw new InvalidInput("The address has an invalid percent-encoding (it must be UTF-8).");
    }
    if (unstorable(decoded)) throw new InvalidInput(NUL_OR_BROKEN);
  }
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Hostile bytes are refused once, here, before any handler: NUL in text (PostgreSQL refuses it and
 * the query would fail with a 500), lone surrogates and bytes that are not UTF-8, in the URL, the
 * headers and JSON bodies of every route, ours and the account routes alike.
 */
export function rejectHostileInput(app: FastifyInstance) {
  app.addHook("onRequest", async (request) => {
    checkUrl(request.url);
    for (const value of Object.values(request.headers)) {
      if (hasUnstorableText(value)) throw new InvalidInput(NUL_OR_BROKEN);
    }
  });

  // Fastify's own parser decodes bodies leniently (bad bytes become U+FFFD); decode strictly, then
  // hand the text to that parser, which keeps its protection against prototype poisoning.
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (request, body, done) => {
    let text: string;
    try {
      text = strictUtf8.decode(body as Buffer);
    } catch {
      done(new InvalidInput("The request body is not valid UTF-8."), undefined);
      return;
    }
    parseJson(request, text, done);
  });

  app.addHook("preValidation", async (request: FastifyRequest) => {
    if (
      hasUnstorableText(request.body) ||
      hasUnstorableText(request.params) ||
      hasUnstorableText(request.query)
    ) {
      throw new InvalidInput(NUL_OR_BROKEN);
    }
  });
}
