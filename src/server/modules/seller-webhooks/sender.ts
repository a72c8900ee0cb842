import { createHmac } from "node:crypto";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { WEBHOOK_TIMEOUT_SECONDS } from "#domain/seller-webhooks";
import type { CheckedReceiver } from "#server/modules/seller-webhooks/addresses";

/** `t=<unix seconds>,v1=<hex>[,v1=<hex>]`: HMAC-SHA256 of `${t}.${body}` under each secret that signs. */
export function signatureHeader(secrets: readonly string[], timestamp: number, body: string): string {
  const signatures = secrets.map(
    (secret) => `v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`,
  );
  return [`t=${timestamp}`, ...signatures].join(",");
}

/** How an attempt ended: the receiver's status, or the error that kept it from answering. */
export type AttemptResult = { status: number | null; durationMs: number; error: string | null };

/** The longest part of a receiver's answer that is read (and thrown away). */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Posts a delivery to the address that was checked (never resolving the host again, so no DNS answer
 * can change where it goes), with the signature and a timeout. Never throws.
 */
export function postDelivery(
  receiver: CheckedReceiver,
  body: string,
  headers: Record<string, string>,
  timeoutMs = WEBHOOK_TIMEOUT_SECONDS * 1000,
): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const pinned: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, [{ address: receiver.address, family: receiver.family }]);
    else callback(null, receiver.address, receiver.family);
  };
  const send = receiver.url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = send(
      receiver.url,
      {
        method: "POST",
        lookup: pinned,
        agent: false,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body).toString(),
          "user-agent": "Stackbay-Webhooks/1",
          ...headers,
        },
      },
      (res) => {
        let read = 0;
        res.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) res.destroy();
        });
        const done = () => finish({ status: res.statusCode ?? null, durationMs: elapsed(), error: null });
        res.on("end", done);
        res.on("close", done);
        res.on("error", done);
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      finish({
        status: null,
        durationMs: elapsed(),
        error: `No answer within ${Math.round(timeoutMs / 1000)} seconds`,
      });
    }, timeoutMs);
    req.on("error", (error) =>
      finish({
        status: null,
        durationMs: elapsed(),
        error: error.message.slice(0, 300) || "Connection failed",
      }),
    );
    req.end(body);
  });
}
