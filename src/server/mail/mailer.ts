import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { FastifyBaseLogger } from "fastify";
import nodemailer from "nodemailer";
import type { Env } from "#server/env";

export type Mail = { to: string; subject: string; text: string; html: string; replyTo?: string };
export type Mailer = { send(mail: Mail): Promise<void> };

/**
 * SMTP when SMTP_URL is set; otherwise every message is written as one RFC 822 file under
 * DATA_DIR/outbox/ (sortable timestamp first), which development and tests read codes and links from.
 */
export function createMailer(env: Env, log: FastifyBaseLogger): Mailer {
  if (env.SMTP_URL) {
    const transport = nodemailer.createTransport(env.SMTP_URL);
    return {
      async send(mail) {
        await transport.sendMail({ from: env.MAIL_FROM, ...mail });
        log.info({ subject: mail.subject }, "mail sent");
      },
    };
  }
  const outbox = path.resolve(env.DATA_DIR, "outbox");
  // Orders messages written within one millisecond (or under a stopped test clock) as they were sent.
  let sequence = 0;
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: env.MAIL_FROM, ...mail });
      await mkdir(outbox, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      const order = String(++sequence).padStart(6, "0");
      const file = path.join(outbox, `${stamp}-${order}-${randomBytes(3).toString("hex")}.eml`);
      await writeFile(file, info.message as Buffer);
      log.info({ subject: mail.subject, file: path.basename(file) }, "mail written to the outbox");
    },
  };
}
