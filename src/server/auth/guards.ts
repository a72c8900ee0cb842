import { eq } from "drizzle-orm";
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from "fastify";
import { hasRole, type Role } from "#domain/accounts";
import type { ServerErrorCode } from "#domain/error-codes";
import { user } from "#server/db/schema/auth";
import { Forbidden, Unauthorized } from "#server/errors";
import type { Guard } from "#server/http/route";

export type UserRow = typeof user.$inferSelect;

declare module "fastify" {
  interface FastifyRequest {
    /** Set by the guards: the signed-in user's row, fresh from the database. */
    user: UserRow | null;
  }
}

/** The headers better-auth reads a session from, with the client address Fastify resolved. */
export function authHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const name of ["cookie", "user-agent"]) {
    const value = request.headers[name];
    if (typeof value === "string") headers.set(name, value);
  }
  headers.set("x-forwarded-for", request.ip);
  return headers;
}

/** Copies the cookies better-auth set or cleared onto our reply. */
export function forwardCookies(reply: FastifyReply, headers: Headers) {
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) reply.header("set-cookie", cookies);
}

/**
 * The signed-in user, or null; a disabled account counts as signed out. Memoised per request. With a
 * reply, a session that better-auth extends also gets its cookie renewed.
 */
export async function currentUser(request: FastifyRequest, reply?: FastifyReply): Promise<UserRow | null> {
  if (request.user) return request.user;
  const app = request.server;
  const { headers, response: session } = await app.auth.api.getSession({
    headers: authHeaders(request),
    returnHeaders: true,
  });
  if (reply) forwardCookies(reply, headers);
  if (!session) return null;
  const [row] = await app.database.db.select().from(user).where(eq(user.id, session.user.id));
  request.user = row && !row.banned ? row : null;
  return request.user;
}

/** A guard and the error codes it answers, which the OpenAPI document lists for each route it guards. */
export function guard(answers: readonly ServerErrorCode[], check: onRequestAsyncHookHandler): Guard {
  return Object.assign(check, { answers });
}

/** Route guard: 401 unless signed in. Runs before body validation, so strangers learn nothing. */
export const requireUser = guard(["UNAUTHORIZED"], async (request, reply) => {
  if (!(await currentUser(request, reply))) throw new Unauthorized();
});

/** Route guard: 401 unless signed in, 403 unless the user holds `role` (a super admin is an admin). */
export function requireRole(role: Role): Guard {
  return guard(["UNAUTHORIZED", "FORBIDDEN"], async (request, reply) => {
    const me = await currentUser(request, reply);
    if (!me) throw new Unauthorized();
    if (!hasRole(me, role)) throw new Forbidden();
  });
}

/** The user a guarded route runs for; only call it behind `requireUser` or `requireRole`. */
export function signedInUser(request: FastifyRequest): UserRow {
  if (!request.user) throw new Unauthorized();
  return request.user;
}

/** Route guard: 401 unless signed in, 403 unless the user holds at least one of `roles`. */
export function requireAnyRole(...roles: Role[]): Guard {
  return guard(["UNAUTHORIZED", "FORBIDDEN"], async (request, reply) => {
    const me = await currentUser(request, reply);
    if (!me) throw new Unauthorized();
    if (!roles.some((role) => hasRole(me, role))) throw new Forbidden();
  });
}
