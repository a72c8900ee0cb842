import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { freePort } from "./ports";

/**
 * A local stand-in for the two VAT registers the checkout asks, on one port:
 *
 * - VIES (the European Commission's REST API, `…/vies/rest-api`): `POST /vies/check-vat-number` with
 *   `{ countryCode, vatNumber, requesterMemberStateCode?, requesterNumber? }`, answering `valid`,
 *   `requestDate`, `name`, `address` and, when a requester is given, a `requestIdentifier`. A member
 *   state "down" answers as VIES does (`MS_UNAVAILABLE`, HTTP 500 with `errorWrappers`).
 * - HMRC (`api.service.hmrc.gov.uk`): `POST /hmrc/oauth/token` (client credentials) and
 *   `GET /hmrc/organisations/vat/check-vat-number/lookup/{target}[/{requester}]` with
 *   `Accept: application/vnd.hmrc.2.0+json` and the bearer token; 404 `NOT_FOUND` for a number it does not
 *   know, `consultationNumber` when a requester VRN is given.
 *
 * Tests register the numbers that "exist", take a register down, revoke tokens and read every request.
 */

export type VatStandIn = {
  /** VIES_API_BASE for the app. */
  viesUrl: string;
  /** HMRC_API_BASE for the app. */
  hmrcUrl: string;
  hmrc: { clientId: string; clientSecret: string };
  /** Every request, in order: which register, the path, and the JSON body VIES was sent. */
  requests: { register: "VIES" | "HMRC"; method: string; path: string; body: unknown; accept: string }[];
  /** A number the register knows, with its prefix ("DE136695976", "GB980780684"). */
  register(vatNumber: string, name?: string): void;
  /** The register answers that it cannot answer (VIES: MS_UNAVAILABLE; HMRC: 503) until put back. */
  setDown(register: "VIES" | "HMRC", down: boolean): void;
  /** HMRC forgets every token it issued (its 401 until a new one is asked for). */
  revokeTokens(): void;
  tokensIssued(): number;
  close(): Promise<void>;
};

type Json = Record<string, unknown>;

export async function startVatStandIn(options: { registered?: string[] } = {}): Promise<VatStandIn> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const known = new Map<string, string>();
  for (const number of options.registered ?? []) known.set(number, "Stand-in Trading Ltd");
  const down = new Set<"VIES" | "HMRC">();
  const tokens = new Set<string>();
  let tokensIssued = 0;
  const hmrc = {
    clientId: `client-${randomBytes(8).toString("hex")}`,
    clientSecret: randomBytes(16).toString("hex"),
  };
  const requests: VatStandIn["requests"] = [];

  function send(res: ServerResponse, status: number, body: unknown, type = "application/json") {
    res.writeHead(status, { "content-type": type });
    res.end(JSON.stringify(body));
  }

  function vies(res: ServerResponse, body: Json) {
    if (down.has("VIES"))
      return send(res, 500, { actionSucceed: false, errorWrappers: [{ error: "MS_UNAVAILABLE" }] });
    const { countryCode, vatNumber, requesterMemberStateCode, requesterNumber } = body;
    if (typeof countryCode !== "string" || typeof vatNumber !== "string" || !/^[A-Z]{2}$/.test(countryCode))
      return send(res, 400, { actionSucceed: false, errorWrappers: [{ error: "INVALID_INPUT" }] });
    const name = known.get(`${countryCode}${vatNumber}`);
    const withRequester = typeof requesterMemberStateCode === "string" && typeof requesterNumber === "string";
    send(res, 200, {
      countryCode,
      vatNumber,
      requestDate: `${new Date().toISOString().slice(0, 10)}+01:00`,
      valid: name !== undefined,
      requestIdentifier: withRequester ? `WAPI${randomBytes(6).toString("hex").toUpperCase()}` : "",
      name: name ?? "---",
      address: name ? "1 Stand-in Street, 10115 Berlin" : "---",
      traderName: "---",
      traderStreet: "---",
      traderPostalCode: "---",
      traderCity: "---",
      traderCompanyType: "---",
      traderNameMatch: "NOT_PROCESSED",
      traderStreetMatch: "NOT_PROCESSED",
      traderPostalCodeMatch: "NOT_PROCESSED",
      traderCityMatch: "NOT_PROCESSED",
      traderCompanyTypeMatch: "NOT_PROCESSED",
    });
  }

  function token(res: ServerResponse, form: URLSearchParams) {
    if (form.get("grant_type") !== "client_credentials")
      return send(res, 400, { error: "unsupported_grant_type" });
    if (form.get("client_id") !== hmrc.clientId || form.get("client_secret") !== hmrc.clientSecret)
      return send(res, 401, { error: "invalid_client", error_description: "invalid client id or secret" });
    const value = randomBytes(16).toString("hex");
    tokens.add(value);
    tokensIssued++;
    send(res, 200, { access_token: value, token_type: "bearer", expires_in: 14_400, scope: "" });
  }

  function lookup(req: IncomingMessage, res: ServerResponse, target: string, requester: string | undefined) {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (!bearer || !tokens.has(bearer))
      return send(res, 401, {
        code: "INVALID_CREDENTIALS",
        message: "Invalid Authentication information provided",
      });
    if (req.headers.accept !== "application/vnd.hmrc.2.0+json")
      return send(res, 406, {
        code: "ACCEPT_HEADER_INVALID",
        message: "The accept header is missing or invalid",
      });
    if (down.has("HMRC")) return send(res, 503, { code: "SERVER_ERROR", message: "Service unavailable" });
    if (!/^\d{9}(\d{3})?$/.test(target) || (requester !== undefined && !/^\d{9}(\d{3})?$/.test(requester)))
      return send(res, 400, {
        code: "INVALID_REQUEST",
        message: "Invalid targetVrn - Vrn parameters should be 9 or 12 digits",
      });
    const name = known.get(`GB${target}`);
    if (!name)
      return send(res, 404, { code: "NOT_FOUND", message: "targetVrn does not match a registered company" });
    send(res, 200, {
      target: {
        name,
        vatNumber: target,
        address: { line1: "1 Stand-in Street", postcode: "SW1A 1AA", countryCode: "GB" },
      },
      ...(requester
        ? {
            requester,
            consultationNumber:
              `${randomBytes(2).toString("hex")}-${randomBytes(2).toString("hex")}-${randomBytes(2).toString("hex")}`.toUpperCase(),
          }
        : {}),
      processingDate: new Date().toISOString(),
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const method = req.method ?? "GET";
    const path = new URL(req.url ?? "/", base).pathname;
    const accept = req.headers.accept ?? "";
    if (method === "POST" && path === "/vies/check-vat-number") {
      let body: unknown = null;
      try {
        body = JSON.parse(text);
      } catch {
        body = null;
      }
      requests.push({ register: "VIES", method, path, body, accept });
      return vies(res, (body ?? {}) as Json);
    }
    requests.push({ register: "HMRC", method, path, body: null, accept });
    if (method === "POST" && path === "/hmrc/oauth/token") return token(res, new URLSearchParams(text));
    const match = /^\/hmrc\/organisations\/vat\/check-vat-number\/lookup\/([^/]+)(?:\/([^/]+))?$/.exec(path);
    if (method === "GET" && match?.[1]) return lookup(req, res, match[1], match[2]);
    send(res, 404, {
      code: "MATCHING_RESOURCE_NOT_FOUND",
      message: "A resource with the name in the request can not be found in the API",
    });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, { message: String(error) }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });

  return {
    viesUrl: `${base}/vies`,
    hmrcUrl: `${base}/hmrc`,
    hmrc,
    requests,
    register: (vatNumber, name = "Stand-in Trading Ltd") => void known.set(vatNumber, name),
    setDown: (register, isDown) => void (isDown ? down.add(register) : down.delete(register)),
    revokeTokens: () => tokens.clear(),
    tokensIssued: () => tokensIssued,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
