import type { FastifyReply, FastifyRequest } from "fastify";
import { ATTRIBUTION_DAYS } from "#domain/commissions";
import { withinAttribution } from "#domain/referrals";
import type { Referral } from "#server/modules/referrals/service";
import { requestSignals } from "#server/modules/referrals/signals";

/**
 * The first-party attribution cookie: `resellerId:clickedAtMs`, signed with AUTH_SECRET so a visitor
 * cannot name a reseller or move a click date. Last click wins: every valid visit through a reseller
 * link overwrites it, so an order is credited to the reseller whose link the buyer followed last,
 * within ATTRIBUTION_DAYS of that click.
 */
export const REFERRAL_COOKIE = "stackbay_ref";

export function writeReferral(request: FastifyRequest, reply: FastifyReply, referral: Referral): void {
  reply.setCookie(REFERRAL_COOKIE, `${referral.resellerId}:${referral.clickedAt.getTime()}`, {
    signed: true,
    httpOnly: true,
    sameSite: "lax",
    secure: request.protocol === "https",
    path: "/",
    maxAge: ATTRIBUTION_DAYS * 24 * 60 * 60,
  });
}

/**
 * The referral the buyer's attribution cookie carries, if it is valid and within the window, with the
 * keyed-hash signals of this request (the checkout) that commission recording compares with the
 * reseller's own sign-ins.
 */
export async function readReferral(
  request: FastifyRequest,
  now = request.server.clock.now(),
): Promise<Referral | null> {
  const raw = request.cookies[REFERRAL_COOKIE];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid) return null;
  const at = unsigned.value.lastIndexOf(":");
  const resellerId = unsigned.value.slice(0, at);
  const clickedAt = new Date(Number(unsigned.value.slice(at + 1)));
  if (at <= 0 || Number.isNaN(clickedAt.getTime())) return null;
  if (!withinAttribution(clickedAt, now)) return null;
  const secret = request.server.env.AUTH_SECRET;
  if (!secret) throw new Error("AUTH_SECRET must be set before the app is built");
  return {
    resellerId,
    clickedAt,
    signals: requestSignals(secret, request.ip, request.headers["user-agent"]),
  };
}
