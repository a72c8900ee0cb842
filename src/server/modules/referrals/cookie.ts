import type { FastifyRequest } from "fastify";
import type { Referral } from "#server/modules/referrals/service";

/** The referral the buyer's attribution cookie carries, if it is valid and within the window. */
export async function readReferral(_request: FastifyRequest): Promise<Referral | null> {
  return null;
}
