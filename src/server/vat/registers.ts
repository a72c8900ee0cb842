import { z } from "zod";
import type { VatCheckStatus, VatRegister } from "#domain/tax";
import type { Env } from "#server/env";

/**
 * The tax authorities' VAT registers a business buyer's VAT number is confirmed with before its reverse
 * charge: the European Commission's VIES (REST API, no credentials) for EU numbers, HMRC's "Check a UK
 * VAT number" API (v2.0, OAuth client credentials) for UK ones. Each answers what the register said;
 * a register that could not be asked is `unavailable` (or `unchecked` without credentials), never an
 * error: the checkout charges VAT then, which the buyer can reclaim.
 */

export type RegisterAnswer = {
  register: VatRegister;
  status: VatCheckStatus;
  /** The consultation number (VIES requestIdentifier, HMRC consultationNumber), when given. */
  reference: string | null;
  /** When the register says it answered; when we asked, if it did not answer. */
  checkedAt: Date;
};

export interface VatRegisters {
  /** `vatNumber` in its canonical form, prefix included ("DE136695976", "EL094259216", "GB980780684"). */
  check(vatNumber: string, now: Date): Promise<RegisterAnswer>;
}

type Log = { warn(details: object, message: string): void };

/** A checkout waits on the register; past this it is charged VAT rather than kept waiting. */
const TIMEOUT_MS = 8_000;

/** A register's date ("2026-11-27+01:00", "2026-11-27T10:15:00.000Z") or, unreadable, when we asked. */
function dateOf(text: string | undefined, asked: Date): Date {
  if (!text) return asked;
  const date = new Date(/^\d{4}-\d{2}-\d{2}[+-]\d{2}:\d{2}$/.test(text) ? text.slice(0, 10) : text);
  return Number.isNaN(date.getTime()) ? asked : date;
}

const viesAnswer = z.looseObject({
  valid: z.boolean(),
  requestDate: z.string().optional(),
  requestIdentifier: z.string().nullish(),
  /** Set by some answers of the REST API instead of an HTTP error (e.g. MS_UNAVAILABLE). */
  userError: z.string().optional(),
});

/**
 * VIES: `POST {base}/check-vat-number` with the number split into its member-state code and the rest;
 * with the operator's own number as requester, the answer carries a consultation number
 * (`requestIdentifier`) that proves the check was made.
 */
export function createVies(options: { apiBase: string; requesterVat?: string; log: Log }): VatRegisters {
  return {
    async check(vatNumber, now) {
      const unavailable = (why: object): RegisterAnswer => {
        options.log.warn({ register: "VIES", ...why }, "VAT register unavailable: VAT charged");
        return { register: "VIES", status: "unavailable", reference: null, checkedAt: now };
      };
      const body = {
        countryCode: vatNumber.slice(0, 2),
        vatNumber: vatNumber.slice(2),
        ...(options.requesterVat
          ? {
              requesterMemberStateCode: options.requesterVat.slice(0, 2),
              requesterNumber: options.requesterVat.slice(2),
            }
          : {}),
      };
      let response: Response;
      try {
        response = await fetch(`${options.apiBase}/check-vat-number`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (error) {
        return unavailable({ error: error instanceof Error ? error.name : "fetch failed" });
      }
      const parsed = viesAnswer.safeParse(await response.json().catch(() => null));
      if (response.status !== 200 || !parsed.success) return unavailable({ status: response.status });
      const answer = parsed.data;
      // A member state's own register being down (MS_UNAVAILABLE, TIMEOUT, …) is not a "no".
      if (answer.userError && answer.userError !== "VALID" && answer.userError !== "INVALID")
        return unavailable({ userError: answer.userError });
      return {
        register: "VIES",
        status: answer.valid ? "valid" : "invalid",
        reference: answer.requestIdentifier || null,
        checkedAt: dateOf(answer.requestDate, now),
      };
    },
  };
}

const tokenAnswer = z.looseObject({ access_token: z.string(), expires_in: z.number() });
const hmrcAnswer = z.looseObject({
  target: z.looseObject({ vatNumber: z.string() }),
  processingDate: z.string().optional(),
  consultationNumber: z.string().optional(),
});

/**
 * HMRC: an application token by the client credentials grant (`POST {base}/oauth/token`, renewed a
 * minute before it expires), then `GET {base}/organisations/vat/check-vat-number/lookup/{target}` (and
 * `/{requester}` with the operator's VRN, so HMRC answers a `consultationNumber`). 200 is registered,
 * 404 is not; anything else is unavailable. Without credentials nothing is asked: `unchecked`.
 */
export function createHmrc(options: {
  apiBase: string;
  clientId?: string;
  clientSecret?: string;
  requesterVrn?: string;
  log: Log;
}): VatRegisters {
  let token: { value: string; renewAt: number } | null = null;

  async function accessToken(): Promise<string> {
    if (token && Date.now() < token.renewAt) return token.value;
    const response = await fetch(`${options.apiBase}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({
        client_id: options.clientId ?? "",
        client_secret: options.clientSecret ?? "",
        grant_type: "client_credentials",
      }).toString(),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const parsed = tokenAnswer.safeParse(await response.json().catch(() => null));
    if (response.status !== 200 || !parsed.success)
      throw new Error(`HMRC refused the token request (${response.status})`);
    token = {
      value: parsed.data.access_token,
      renewAt: Date.now() + Math.max(0, parsed.data.expires_in - 60) * 1000,
    };
    return token.value;
  }

  async function lookup(target: string): Promise<Response> {
    const path = `/organisations/vat/check-vat-number/lookup/${target}${options.requesterVrn ? `/${options.requesterVrn}` : ""}`;
    const ask = async () =>
      fetch(`${options.apiBase}${path}`, {
        headers: {
          accept: "application/vnd.hmrc.2.0+json",
          authorization: `Bearer ${await accessToken()}`,
        },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    const first = await ask();
    if (first.status !== 401) return first;
    // A token HMRC revoked before its time: one new token, one more try.
    token = null;
    return ask();
  }

  return {
    async check(vatNumber, now) {
      if (!options.clientId || !options.clientSecret)
        return { register: "HMRC", status: "unchecked", reference: null, checkedAt: now };
      const unavailable = (why: object): RegisterAnswer => {
        options.log.warn({ register: "HMRC", ...why }, "VAT register unavailable: VAT charged");
        return { register: "HMRC", status: "unavailable", reference: null, checkedAt: now };
      };
      let response: Response;
      try {
        response = await lookup(vatNumber.replace(/^GB/, ""));
      } catch (error) {
        return unavailable({ error: error instanceof Error ? error.message : "fetch failed" });
      }
      const json: unknown = await response.json().catch(() => null);
      // HMRC's "no such registration"; another 404 (a wrong address) says nothing about the number.
      if (response.status === 404 && (json as { code?: unknown } | null)?.code === "NOT_FOUND")
        return { register: "HMRC", status: "invalid", reference: null, checkedAt: now };
      const parsed = hmrcAnswer.safeParse(json);
      if (response.status !== 200 || !parsed.success) return unavailable({ status: response.status });
      return {
        register: "HMRC",
        status: "valid",
        reference: parsed.data.consultationNumber ?? null,
        checkedAt: dateOf(parsed.data.processingDate, now),
      };
    },
  };
}

/** VIES for EU numbers, HMRC for UK ones, as the environment configures them. */
export function vatRegistersFromEnv(env: Env, log: Log): VatRegisters {
  const vies = createVies({
    apiBase: env.VIES_API_BASE,
    ...(env.VIES_REQUESTER_VAT ? { requesterVat: env.VIES_REQUESTER_VAT } : {}),
    log,
  });
  const hmrc = createHmrc({
    apiBase: env.HMRC_API_BASE,
    ...(env.HMRC_CLIENT_ID ? { clientId: env.HMRC_CLIENT_ID } : {}),
    ...(env.HMRC_CLIENT_SECRET ? { clientSecret: env.HMRC_CLIENT_SECRET } : {}),
    ...(env.HMRC_REQUESTER_VRN ? { requesterVrn: env.HMRC_REQUESTER_VRN } : {}),
    log,
  });
  return { check: (vatNumber, now) => (vatNumber.startsWith("GB") ? hmrc : vies).check(vatNumber, now) };
}
