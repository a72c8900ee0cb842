import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { FastifyBaseLogger } from "fastify";
import type { Transporter } from "nodemailer";
import type { Transaction } from "#server/db/client";
import type { Env } from "#server/env";
import type { JobDefinition, JobQueue } from "#server/jobs/queue";
import type { Metrics } from "#server/lib/metrics";
import { seal, unseal } from "#server/lib/sealed";

export type Mail = { to: string; subject: string; text: string; html: string; replyTo?: string };

/** What actually hands a message over: SMTP, or the outbox folder. Only the mail job calls it. */
export type MailTransport = { send(mail: Mail): Promise<void> };

/**
 * How the app sends e-mail: `send` queues the message and returns at once, so no request waits on the
 * mail server; the `mail` job delivers it, with retries (see `mailJob`). Inside a transaction pass
 * `tx`, and the message is sent only if the transaction commits.
 */
export type Mailer = {
  send(mail: Mail, options?: { tx?: Transaction }): Promise<void>;
  /** Queues many messages in one statement, as `send` queues one (a job run's batch of e-mails). */
  sendMany(mails: readonly Mail[], options?: { tx?: Transaction }): Promise<void>;
};

/**
 * A queued e-mail. A rendered message is sealed (encrypted with AUTH_SECRET), as it may carry a
 * sign-in code or license keys; an order confirmation is rendered when it is sent, from the order,
 * and a notification's e-mail from the stored notification (`modules/notifications`).
 */
export type MailJob =
  | { kind: "message"; subject: string; sealed: string }
  | { kind: "order-confirmation"; orderId: string }
  | { kind: "notification"; notificationId: string };

/** Renders the e-mails queued by reference: what they say is read from the database when sent. */
export type MailRenderers = {
  orderConfirmation(orderId: string): Promise<Mail | null>;
  notification(notificationId: string): Promise<Mail | null>;
};

export const MAIL_QUEUE = "mail";
const PURPOSE = "mail-queue";
/** Messages `sendMany` seals in one go (some 0.1 ms each) before letting other work run. */
const SEAL_SLICE = 50;

export function createMailer(jobs: JobQueue, secret: string): Mailer {
  const jobOf = (mail: Mail): MailJob => ({
    kind: "message",
    subject: mail.subject,
    sealed: seal(secret, PURPOSE, JSON.stringify(mail)),
  });
  return {
    async send(mail, options = {}) {
      await jobs.send(MAIL_QUEUE, jobOf(mail), options);
    },
    async sendMany(mails, options = {}) {
      const queued: MailJob[] = [];
      for (let start = 0; start < mails.length; start += SEAL_SLICE) {
        // Sealing is synchronous: a large set lets the event loop serve requests between slices.
        if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
        for (const mail of mails.slice(start, start + SEAL_SLICE)) queued.push(jobOf(mail));
      }
      await jobs.sendMany(MAIL_QUEUE, queued, options);
    },
  };
}

/**
 * Delivers queued e-mail: 9 attempts, the retries backing off exponentially from MAIL_RETRY_SECONDS
 * (30 s by default: about three hours in all, at most an hour apart), then the dead-letter queue, from where an admin retries it on the system screen.
 */
export function mailJob(
  transport: MailTransport,
  env: Pick<Env, "MAIL_RETRY_SECONDS">,
  secret: string,
  render: MailRenderers,
  metrics?: Metrics,
): JobDefinition<MailJob> {
  return {
    name: MAIL_QUEUE,
    retryLimit: 8,
    retryDelaySeconds: env.MAIL_RETRY_SECONDS,
    // Three SMTP timeouts at most; a job still active after this (its process died) is retried.
    expireInSeconds: 60,
    describe: (job) =>
      job.kind === "message"
        ? job.subject
        : job.kind === "notification"
          ? `Notification ${job.notificationId.slice(0, 8).toUpperCase()}`
          : `Order confirmation ${job.orderId.slice(0, 8).toUpperCase()}`,
    async run(job) {
      const mail =
        job.kind === "message"
          ? (JSON.parse(unseal(secret, PURPOSE, job.sealed)) as Mail)
          : job.kind === "notification"
            ? await render.notification(job.notificationId)
            : await render.orderConfirmation(job.orderId);
      if (!mail) return;
      try {
        await transport.send(mail);
      } catch (error) {
        metrics?.mailDelivery("failed");
        throw error;
      }
      metrics?.mailDelivery("sent");
    },
  };
}

/**
 * A nodemailer transport, the SDK loaded when the first message is sent: no request before the server
 * listens sends mail, and loading it was some 90 ms of CPU of a first start.
 */
async function nodemailerTransport(options: Parameters<typeof import("nodemailer").createTransport>[0]) {
  const { default: nodemailer } = await import("nodemailer");
  return nodemailer.createTransport(options) as Transporter;
}

/** `make`'s answer, made on the first call and shared by every later one (a failure is tried again). */
function onFirstUse<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make().catch((error: unknown) => {
      made = undefined;
      throw error;
    });
    return made;
  };
}

/**
 * SMTP when SMTP_URL is set; otherwise every message is written as one RFC 822 file under
 * DATA_DIR/outbox/ (sortable timestamp first), which development and tests read codes and links from.
 */
export function createMailTransport(env: Env, log: FastifyBaseLogger): MailTransport {
  if (env.SMTP_URL) {
    const timeout = env.SMTP_TIMEOUT_SECONDS * 1000;
    const transport = onFirstUse(() =>
      nodemailerTransport({
        url: env.SMTP_URL,
        connectionTimeout: timeout,
        greetingTimeout: timeout,
        socketTimeout: timeout,
      }),
    );
    return {
      async send(mail) {
        // Neither the subject nor the address is logged: a subject may carry a person's name.
        const info = await (await transport()).sendMail({ from: env.MAIL_FROM, ...mail });
        log.info({ messageId: info.messageId }, "mail sent");
      },
    };
  }
  const outbox = path.resolve(env.DATA_DIR, "outbox");
  // Orders messages written within one millisecond (or under a stopped test clock) as they were sent.
  let sequence = 0;
  const transport = onFirstUse(() =>
    nodemailerTransport({ streamTransport: true, buffer: true, newline: "unix" }),
  );
  return {
    async send(mail) {
      const info = await (await transport()).sendMail({ from: env.MAIL_FROM, ...mail });
      await mkdir(outbox, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      const order = String(++sequence).padStart(6, "0");
      const file = path.join(outbox, `${stamp}-${order}-${randomBytes(3).toString("hex")}.eml`);
      await writeFile(file, info.message as Buffer);
      log.info({ file: path.basename(file) }, "mail written to the outbox");
    },
  };
}
