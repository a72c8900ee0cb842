import { createHmac } from "node:crypto";
import { BlockList, isIP } from "node:net";
import type { BuyerSignalHashes, ResellerSignalHashes, SignalKind } from "#domain/commission-holds";
import { DAY_MS } from "#domain/dates";
import type { Db } from "#server/db/client";
import {
  fingerprintsOf,
  forgetFingerprintsSeenBefore,
  isReseller,
  upsertFingerprints,
} from "#server/modules/referrals/repository";

/** How long a reseller's sign-in is remembered: past the 30-day attribution plus a refund window. */
export const FINGERPRINT_RETENTION_DAYS = 90;

/**
 * Addresses that name the network in front of us rather than the visitor: loopback, private and
 * link-local ranges, carrier-grade NAT, and the like. Behind a proxy without TRUST_PROXY, or on a
 * laptop, every visitor has one of these, so matching them would hold every referred order.
 */
const local = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
] as const)
  local.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 127],
  ["fc00::", 7],
  ["fe80::", 10],
] as const)
  local.addSubnet(net, prefix, "ipv6");

export function isRoutableAddress(ip: string): boolean {
  const mapped = ip.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i)?.[1];
  const address = mapped ?? ip;
  const family = isIP(address);
  if (family === 0) return false;
  return !local.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** A keyed hash of address and browser: visits can be told apart per day without storing an address. */
export function visitorKey(secret: string, ip: string, userAgent: string): string {
  return createHmac("sha256", secret).update(`referral-visitor\n${ip}\n${userAgent}`).digest("hex");
}

function networkKey(secret: string, ip: string): string {
  return createHmac("sha256", secret).update(`referral-network\n${ip}`).digest("hex");
}

/**
 * The keyed hashes a request is compared by: `device` is the visitor key (address and browser),
 * `network` the address alone. None for a local address (see `isRoutableAddress`).
 */
export function requestSignals(
  secret: string,
  ip: string | null | undefined,
  userAgent: string | null | undefined,
): BuyerSignalHashes {
  if (!ip || !isRoutableAddress(ip)) return {};
  return { device: visitorKey(secret, ip, userAgent ?? ""), network: networkKey(secret, ip) };
}

/**
 * Remembers where a reseller was seen (a sign-in, a visit to their own link), as keyed hashes only,
 * and forgets their sightings older than the retention. Anyone who is not a reseller is not recorded.
 */
export async function recordResellerSighting(
  db: Db,
  secret: string,
  sighting: { userId: string; ip: string | null | undefined; userAgent: string | null | undefined },
  now = new Date(),
): Promise<void> {
  const signals = requestSignals(secret, sighting.ip, sighting.userAgent);
  const kinds = Object.entries(signals) as [SignalKind, string][];
  if (kinds.length === 0) return;
  if (!(await isReseller(db, sighting.userId))) return;
  await upsertFingerprints(db, sighting.userId, kinds, now);
  await forgetFingerprintsSeenBefore(
    db,
    sighting.userId,
    new Date(now.getTime() - FINGERPRINT_RETENTION_DAYS * DAY_MS),
  );
}

/** Every hash the reseller was seen with, by kind. */
export async function resellerSignalHashes(db: Db, resellerId: string): Promise<ResellerSignalHashes> {
  const rows = await fingerprintsOf(db, resellerId);
  const hashes: Partial<Record<SignalKind, string[]>> = {};
  for (const row of rows) hashes[row.kind] = [...(hashes[row.kind] ?? []), row.hash];
  return hashes;
}
