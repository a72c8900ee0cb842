import { lookup } from "node:dns/promises";
import { isIP } from "node:net";

/**
 * Where a webhook may be sent (decision 0030, SSRF): what kind of address an IP is, and the receiver a
 * URL resolves to once checked. A delivery connects to the address checked here, never resolving again.
 */
export type AddressKind =
  | "public"
  | "loopback"
  | "private"
  | "link-local"
  | "cgnat"
  | "multicast"
  | "unspecified"
  | "reserved";

type V4Range = [base: number, bits: number, kind: AddressKind];

const v4 = (a: number, b: number, c: number, d: number) => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;

const v4Ranges: V4Range[] = [
  [v4(0, 0, 0, 0), 32, "unspecified"],
  [v4(0, 0, 0, 0), 8, "reserved"],
  [v4(10, 0, 0, 0), 8, "private"],
  [v4(100, 64, 0, 0), 10, "cgnat"],
  [v4(127, 0, 0, 0), 8, "loopback"],
  [v4(169, 254, 0, 0), 16, "link-local"],
  [v4(172, 16, 0, 0), 12, "private"],
  [v4(192, 0, 0, 0), 24, "reserved"],
  [v4(192, 0, 2, 0), 24, "reserved"],
  [v4(192, 88, 99, 0), 24, "reserved"],
  [v4(192, 168, 0, 0), 16, "private"],
  [v4(198, 18, 0, 0), 15, "reserved"],
  [v4(198, 51, 100, 0), 24, "reserved"],
  [v4(203, 0, 113, 0), 24, "reserved"],
  [v4(224, 0, 0, 0), 4, "multicast"],
  [v4(240, 0, 0, 0), 4, "reserved"],
];

function parseV4(address: string): number | null {
  const parts = address.split(".");
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return null;
    value = value * 256 + Number(part);
  }
  return value >>> 0;
}

function kindOfV4(value: number): AddressKind {
  for (const [base, bits, kind] of v4Ranges) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    if ((value & mask) >>> 0 === base) return kind;
  }
  return "public";
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail read as the last two), or null. */
function parseV6(address: string): number[] | null {
  let text = address.toLowerCase().split("%")[0] ?? "";
  const lastColon = text.lastIndexOf(":");
  const tail = text.slice(lastColon + 1);
  if (tail.includes(".")) {
    const value = parseV4(tail);
    if (value === null) return null;
    text = `${text.slice(0, lastColon + 1)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groupsOf = (part: string) => (part === "" ? [] : part.split(":"));
  const head = groupsOf(halves[0] ?? "");
  const rest = groupsOf(halves[1] ?? "");
  const words =
    halves.length === 2 ? [...head, ...Array(8 - head.length - rest.length).fill("0"), ...rest] : head;
  if (words.length !== 8) return null;
  const groups: number[] = [];
  for (const word of words) {
    if (!/^[0-9a-f]{1,4}$/.test(word)) return null;
    groups.push(Number.parseInt(word, 16));
  }
  return groups;
}

/**
 * What kind of address `address` (IPv4 or IPv6 text) is; an IPv6 address that carries an IPv4 one
 * (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`) is judged by
 * the IPv4 address. Anything that is not an IP address reads as `reserved`.
 */
export function addressKind(address: string): AddressKind {
  const family = isIP(address.split("%")[0] ?? "");
  if (family === 4) return kindOfV4(parseV4(address) ?? 0);
  if (family !== 6) return "reserved";
  const g = parseV6(address);
  if (!g) return "reserved";
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, h = 0, l = 0] = g;
  const embedded = ((h << 16) | l) >>> 0;
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0) {
    if (f === 0xffff) return kindOfV4(embedded);
    if (f === 0 && h === 0 && l === 0) return "unspecified";
    if (f === 0 && h === 0 && l === 1) return "loopback";
    if (f === 0) return kindOfV4(embedded);
  }
  if (a === 0x64 && b === 0xff9b && c === 0 && d === 0 && e === 0 && f === 0) return kindOfV4(embedded);
  if ((a & 0xffc0) === 0xfe80) return "link-local";
  if ((a & 0xfe00) === 0xfc00) return "private";
  if ((a & 0xffc0) === 0xfec0) return "private";
  if ((a & 0xff00) === 0xff00) return "multicast";
  if (a === 0x2001 && b === 0x0db8) return "reserved";
  if (a === 0x0100 && b === 0 && c === 0 && d === 0) return "reserved";
  return "public";
}

/** Whether a delivery may go to an address of this kind: public ones, and loopback outside production. */
export function addressAllowed(kind: AddressKind, production: boolean): boolean {
  return kind === "public" || (!production && kind === "loopback");
}

/** A receiver whose address was checked: connect to `address`, speaking to `url`'s host name. */
export type CheckedReceiver = { url: URL; address: string; family: 4 | 6 };

/** Why a URL is refused, in words for its seller; thrown by `checkReceiver`. */
export class ReceiverRefused extends Error {}

const describe: Record<AddressKind, string> = {
  public: "a public address",
  loopback: "a loopback address",
  private: "a private network address",
  "link-local": "a link-local address",
  cgnat: "a carrier-grade NAT address",
  multicast: "a multicast address",
  unspecified: "an unspecified address",
  reserved: "a reserved address",
};

type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;
const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/**
 * Checks a webhook URL: in production only `https://`, and every address its host resolves to must be
 * public; outside production `http://` and loopback receivers are allowed too. Answers the address to
 * connect to; throws `ReceiverRefused` with the reason.
 */
export async function checkReceiver(
  raw: string,
  production: boolean,
  resolve: Resolver = systemResolver,
): Promise<CheckedReceiver> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ReceiverRefused("The URL is not a valid URL.");
  }
  if (url.protocol !== "https:" && (production || url.protocol !== "http:"))
    throw new ReceiverRefused("The URL must start with https://.");
  if (url.username || url.password)
    throw new ReceiverRefused("The URL must not carry a user name or password.");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      throw new ReceiverRefused(`The host ${host} could not be resolved.`);
    }
  }
  if (addresses.length === 0) throw new ReceiverRefused(`The host ${host} could not be resolved.`);
  for (const { address } of addresses) {
    const kind = addressKind(address);
    if (!addressAllowed(kind, production))
      throw new ReceiverRefused(
        `The host ${host} resolves to ${describe[kind]} (${address}); webhooks go only to public addresses.`,
      );
  }
  const [first] = addresses;
  if (!first) throw new ReceiverRefused(`The host ${host} could not be resolved.`);
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
