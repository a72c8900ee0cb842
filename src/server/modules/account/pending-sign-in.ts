import { createHmac, timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * The "pending sign-in" cookie set by sign-up: it lets the code from the e-mail sign the person in,
 * but only in the browser that signed up, within PENDING_SIGN_IN_SECONDS (decision 0003). The code
 * alone proves the mailbox; the cookie proves it is typed where the password was just given, so a
 * code read elsewhere (another device, someone reading over a shoulder) verifies without a session.
 * It holds a keyed hash of the address, never the address, and is signed with AUTH_SECRET.
 */
export const PENDING_SIGN_IN_COOKIE = "stackbay_pending_sign_in";
export const PENDING_SIGN_IN_SECONDS = 30 * 60;
const COOKIE_PATH = "/api/auth";

const addressKey = (secret: string, email: string) =>
  createHmac("sha256", secret).update(`pending-sign-in:${email}`).digest("base64url");

function secretOf(request: FastifyRequest) {
  const secret = request.server.env.AUTH_SECRET;
  if (!secret) throw new Error("AUTH_SECRET must be set before the app is built");
  return secret;
}

/** Set on every sign-up answer, whether or not the address had an account, so answers stay alike. */
export function writePendingSignIn(
  request: FastifyRequest,
  reply: FastifyReply,
  email: string,
  now = Date.now(),
) {
  const expiresAt = now + PENDING_SIGN_IN_SECONDS * 1000;
  reply.setCookie(PENDING_SIGN_IN_COOKIE, `${addressKey(secretOf(request), email)}:${expiresAt}`, {
    signed: true,
    httpOnly: true,
    // Strict: a page on another site cannot make the browser carry it, not even by a top-level link.
    sameSite: "strict",
    secure: request.protocol === "https",
    path: COOKIE_PATH,
    maxAge: PENDING_SIGN_IN_SECONDS,
  });
}

/** Whether this browser signed up with `email` within the last PENDING_SIGN_IN_SECONDS. */
export function hasPendingSignIn(request: FastifyRequest, email: string, now = Date.now()): boolean {
  const raw = request.cookies[PENDING_SIGN_IN_COOKIE];
  if (!raw) return false;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid) return false;
  const at = unsigned.value.lastIndexOf(":");
  const key = unsigned.value.slice(0, at);
  const expiresAt = Number(unsigned.value.slice(at + 1));
  if (at <= 0 || !Number.isFinite(expiresAt) || expiresAt <= now) return false;
  const expected = Buffer.from(addressKey(secretOf(request), email));
  const given = Buffer.from(key);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Used once: cleared whenever a code is accepted, whether or not it signed the person in. */
export function clearPendingSignIn(reply: FastifyReply) {
  reply.clearCookie(PENDING_SIGN_IN_COOKIE, { path: COOKIE_PATH });
}
