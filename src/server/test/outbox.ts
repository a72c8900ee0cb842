import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

export type OutboxMail = { file: string; to: string; subject: string; replyTo?: string; body: string };

/** Undoes quoted-printable: soft line breaks and =XX escapes, whose bytes are UTF-8. */
function decodeQuotedPrintable(text: string): string {
  const latin1 = text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(latin1, "latin1").toString("utf8");
}

/** The messages the outbox transport wrote, oldest first, with headers and a decoded body. */
export async function readOutbox(dataDir: string): Promise<OutboxMail[]> {
  const dir = path.join(dataDir, "outbox");
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith(".eml")).sort();
  return Promise.all(
    files.map(async (file) => {
      const raw = await readFile(path.join(dir, file), "utf8");
      const [folded = "", ...rest] = raw.split(/\r?\n\r?\n/);
      // A long header is folded onto lines that start with a space (RFC 5322 §2.2.3): unfold it.
      const head = folded.replace(/\r?\n(?=[ \t])/g, "");
      const header = (name: string) => head.match(new RegExp(`^${name}: (.*)$`, "mi"))?.[1]?.trim();
      return {
        file,
        to: header("To") ?? "",
        subject: header("Subject") ?? "",
        replyTo: header("Reply-To"),
        body: decodeQuotedPrintable(rest.join("\n\n")),
      };
    }),
  );
}

/**
 * The newest message matching `match`, waiting for it: e-mail is delivered by a background job, a
 * moment after the request that queued it answered.
 */
export async function waitForMail(
  dataDir: string,
  match: (mail: OutboxMail) => boolean,
  timeoutMs = 10_000,
): Promise<OutboxMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = (await readOutbox(dataDir)).filter(match).at(-1);
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no matching e-mail arrived within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
