import type { FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import { type Database, isCancelledQuery } from "#server/db/client";
import { ServiceBusy } from "#server/errors";
import { type CachedAnswer, CatalogueCache } from "#server/lib/catalogue-cache";

// Public catalogue data is the same for everyone, but admins and sellers change it at any time and the
// next page load must show the change: shared caches may store it, and everyone revalidates every time
// (cheaply: the ETag answers 304 without a body).
export const CATALOGUE_CACHE_CONTROL = "public, no-cache";

/** The cached answers are gzipped once; smaller ones are not worth the header (as @fastify/compress). */
const GZIP_FROM_BYTES = 1024;

/** Whether `If-None-Match` names this ETag (a list, weak forms and `*` included, RFC 9110 13.1.2). */
function matches(ifNoneMatch: string | undefined, etag: string) {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  return ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

function send(request: FastifyRequest, reply: FastifyReply, answer: CachedAnswer) {
  reply.header("cache-control", CATALOGUE_CACHE_CONTROL).header("etag", answer.etag);
  if (matches(request.headers["if-none-match"], answer.etag)) return reply.code(304).send();
  reply.header("content-type", "application/json; charset=utf-8");
  if (answer.body.length >= GZIP_FROM_BYTES) {
    reply.header("vary", "accept-encoding");
    if (/\bgzip\b/.test(request.headers["accept-encoding"] ?? "")) {
      return reply.header("content-encoding", "gzip").send(CatalogueCache.gzipped(answer));
    }
  }
  return reply.send(answer.body);
}

/**
 * Answers a public catalogue read from the instance's cache (decision 0018): the JSON is made once, through
 * the route's response schema (so the cached text holds what the serialiser would let out, no more), and
 * sent as is with its ETag. A miss runs `read` once however many requests wait for it, as a read the
 * database abandons when every one of them has gone.
 */
export async function answerFromCache<S extends z.ZodType>(
  request: FastifyRequest,
  reply: FastifyReply,
  key: string,
  schema: S,
  read: (db: Database) => Promise<z.input<S>>,
) {
  const { catalogueCache, database } = request.server;
  const hit = catalogueCache.get(key);
  if (hit) return send(request, reply, hit);
  const left = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) left.abort();
  };
  reply.raw.once("close", onClose);
  try {
    const answer = await catalogueCache.load(
      key,
      (signal) =>
        database.cancellableRead(signal, async (db) => JSON.stringify(schema.parse(await read(db)))),
      left.signal,
    );
    return send(request, reply, answer);
  } catch (error) {
    if (isCancelledQuery(error)) {
      // The reader left (nobody reads this) or the read ran past its time limit (the database is busy).
      const retryAfter = request.server.env.OVERLOAD_RETRY_AFTER_SECONDS;
      reply.header("retry-after", String(retryAfter));
      throw new ServiceBusy(retryAfter);
    }
    throw error;
  } finally {
    reply.raw.removeListener("close", onClose);
  }
}
