import { createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { type TestSetupChoice, testCards } from "#domain/payment-methods";
import type { TestPaymentChoice } from "#domain/payments";
import { accountStatusOf } from "#domain/payouts";
import { paths } from "#domain/routes";
import type { Database } from "#server/db/client";
import { testSetupSessions } from "#server/db/schema/payment-methods";
import { type TestSessionRefund, testPaymentSessions } from "#server/db/schema/payments";
import type { Env } from "#server/env";
import {
  type ChargeResult,
  InvalidWebhookSignature,
  type PaymentEvent,
  type PaymentProvider,
  type PaymentState,
  type RefundResult,
  type RefundState,
} from "#server/payments/provider";

/** The header the test provider signs its webhook events in, formatted as Stripe's `Stripe-Signature`. */
export const TEST_SIGNATURE_HEADER = "test-signature";
/** A signature older (or newer) than this is refused, so a captured event cannot be replayed later. */
export const SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

/** The body of one test webhook event, as our webhook endpoint receives it. */
export type TestWebhookEvent = {
  id: string;
  type: "payment.succeeded" | "payment.failed" | "payment.cancelled";
  data: { ref: string; orderId: string; amountCents: number; reason: string | null };
};

/**
 * A refund event of the test provider, shaped like its payment events: what a real provider sends when
 * a refund it answered "pending" settles, or again (duplicates, out of order) as providers do.
 */
export type TestRefundEvent = {
  id: string;
  type: "refund.pending" | "refund.succeeded" | "refund.failed";
  data: { refundRef: string; refundId: string; reason: string | null };
};

/**
 * Test mode's `account.updated`: what the hosted Connect onboarding page reports about a test connected
 * account when the user completes it or leaves it unfinished (see `payouts/transfers.ts`).
 */
export type TestAccountEvent = {
  id: string;
  type: "account.updated";
  /** Unix seconds, as Stripe's `created`. */
  created: number;
  data: { accountId: string; payoutsEnabled: boolean; detailsSubmitted: boolean; currentlyDue: string[] };
};

/** The test provider's `setup.completed`: a setup session was saved or cancelled on its hosted page. */
export type TestSetupEvent = { id: string; type: "setup.completed"; data: { ref: string } };

type SessionRow = typeof testPaymentSessions.$inferSelect;
type SetupRow = typeof testSetupSessions.$inferSelect;

/** The reusable method a test setup saves: `tpm_<card>_<session>` (`tpm_paypal_…` for PayPal). */
function testMethodRef(row: SetupRow): string {
  return `tpm_${row.card ?? "paypal"}_${row.ref.slice(4)}`;
}

/** What a saved test method does when charged, from its reference. */
function testOutcomeOf(methodRef: string): (typeof testCards)[number]["outcome"] | null {
  const card = /^tpm_([a-z0-9]+)_/.exec(methodRef)?.[1];
  if (card === "paypal") return "paid";
  return testCards.find((c) => c.last4 === card)?.outcome ?? null;
}

const declineReasons: Record<string, string> = {
  insufficient_funds: "Your card has insufficient funds (test card 0341).",
  stolen_card: "Your card was declined: reported stolen (test card 9979).",
};

/** The webhook secret: PAYMENTS_TEST_WEBHOOK_SECRET, or one derived from AUTH_SECRET. */
export function testWebhookSecret(env: Pick<Env, "PAYMENTS_TEST_WEBHOOK_SECRET" | "AUTH_SECRET">): string {
  if (env.PAYMENTS_TEST_WEBHOOK_SECRET) return env.PAYMENTS_TEST_WEBHOOK_SECRET;
  if (!env.AUTH_SECRET)
    throw new Error("the test payment provider needs AUTH_SECRET or PAYMENTS_TEST_WEBHOOK_SECRET");
  return createHmac("sha256", env.AUTH_SECRET).update("stackbay payments test webhook").digest("base64url");
}

/** `t=<unix seconds>,v1=<HMAC-SHA256 hex of "t.rawBody">`, as Stripe signs. */
export function signTestEvent(secret: string, rawBody: string | Buffer, now = new Date()): string {
  const t = Math.floor(now.getTime() / 1000);
  const v1 = createHmac("sha256", secret).update(`${t}.`).update(rawBody).digest("hex");
  return `t=${t},v1=${v1}`;
}

function verifySignature(secret: string, rawBody: Buffer, header: string | undefined, now: Date): void {
  if (!header) throw new InvalidWebhookSignature("no signature header");
  const parts = header.split(",").map((part) => part.trim().split("="));
  const t = Number(parts.find(([key]) => key === "t")?.[1]);
  const candidates = parts.filter(([key]) => key === "v1").map(([, value]) => value ?? "");
  if (!Number.isInteger(t) || candidates.length === 0) throw new InvalidWebhookSignature("malformed header");
  if (Math.abs(now.getTime() / 1000 - t) > SIGNATURE_TOLERANCE_SECONDS) {
    throw new InvalidWebhookSignature("timestamp outside the tolerance");
  }
  const expected = createHmac("sha256", secret).update(`${t}.`).update(rawBody).digest();
  const matches = candidates.some((candidate) => {
    const given = Buffer.from(candidate, "hex");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new InvalidWebhookSignature("signature does not match");
}

function stateOf(row: SessionRow): PaymentState {
  if (row.state === "paid") return { state: "paid", amountCents: row.amountCents, currency: "usd" };
  if (row.state === "failed") return { state: "failed", reason: row.reason ?? "declined" };
  if (row.state === "cancelled") return { state: "cancelled" };
  return { state: "pending" };
}

const outcomes: Record<
  TestPaymentChoice,
  { state: "paid" | "failed" | "cancelled"; type: TestWebhookEvent["type"]; reason: string | null }
> = {
  pay: { state: "paid", type: "payment.succeeded", reason: null },
  decline: {
    state: "failed",
    type: "payment.failed",
    reason: "Decline was chosen on the test payment page (test mode).",
  },
  cancel: { state: "cancelled", type: "payment.cancelled", reason: null },
};

export type TestProvider = PaymentProvider & {
  readonly name: "test";
  readonly secret: string;
  /** The session the hosted test page shows, or undefined for an unknown reference. */
  session(ref: string): Promise<SessionRow | undefined>;
  /**
   * Records the buyer's choice on the hosted page (the first choice stands; a repeated one changes
   * nothing) and answers where to send the buyer and the event to deliver, if this choice made one.
   */
  decide(
    ref: string,
    choice: TestPaymentChoice,
  ): Promise<{ redirectUrl: string; event: TestWebhookEvent | null }>;
  /** The setup session the hosted setup page shows, or undefined for an unknown reference. */
  setupSession(ref: string): Promise<SetupRow | undefined>;
  /** Records the buyer's choice on the hosted setup page, as `decide` does for payments. */
  decideSetup(
    ref: string,
    choice: TestSetupChoice,
  ): Promise<{ redirectUrl: string; event: TestSetupEvent | null }>;
  /** Runs a delivery after the buyer's answer and remembers it until it ends (see `idle`). */
  track(delivery: () => Promise<unknown>): void;
  /** Resolves once every delivery started so far has ended. */
  idle(): Promise<void>;
  /** What tests (and a person trying failure paths by hand) can make the test provider do. */
  controls: {
    /** Events are recorded but never delivered, as when the provider's webhook is lost. */
    dropEvents: boolean;
    /** The next refund fails with this reason. */
    failNextRefund: string | null;
  };
};

/**
 * The provider used for every method without keys: our own hosted page (`/pay/test/:ref`) with Pay,
 * Decline and Cancel, and events signed and delivered to our own webhook endpoint like a real
 * provider's. It takes no money; the app shows a test-mode banner while it is in use.
 */
export function createTestProvider(deps: {
  db: Database;
  secret: string;
  publicUrl: string;
  log?: { warn(obj: object, msg: string): void };
  now?: () => Date;
}): TestProvider {
  const { db, secret } = deps;
  const now = deps.now ?? (() => new Date());
  const base = deps.publicUrl.replace(/\/$/, "");
  const pending = new Set<Promise<unknown>>();

  async function find(ref: string): Promise<SessionRow | undefined> {
    const [row] = await db.select().from(testPaymentSessions).where(eq(testPaymentSessions.ref, ref));
    return row;
  }

  async function known(ref: string): Promise<SessionRow> {
    const row = await find(ref);
    if (!row) throw new Error("unknown test payment session");
    return row;
  }

  const provider: TestProvider = {
    name: "test",
    secret,
    controls: { dropEvents: false, failNextRefund: null },

    async start(payment) {
      const ref = `tps_${randomBytes(12).toString("hex")}`;
      await db
        .insert(testPaymentSessions)
        .values({
          ref,
          idempotencyKey: payment.idempotencyKey,
          orderId: payment.orderId,
          amountCents: payment.amountCents,
          description: payment.description,
          returnUrl: payment.returnUrl,
          cancelUrl: payment.cancelUrl,
        })
        .onConflictDoNothing({ target: testPaymentSessions.idempotencyKey });
      // The same idempotency key answers with the session it opened first.
      const [row] = await db
        .select({ ref: testPaymentSessions.ref })
        .from(testPaymentSessions)
        .where(eq(testPaymentSessions.idempotencyKey, payment.idempotencyKey));
      if (!row) throw new Error("the test payment session vanished");
      return { providerRef: row.ref, redirectUrl: `${base}${paths.testPayment(row.ref)}` };
    },

    async complete(providerRef) {
      return stateOf(await known(providerRef));
    },

    async lookup(providerRef) {
      return stateOf(await known(providerRef));
    },

    async parseWebhook(rawBody, headers) {
      const header = headers[TEST_SIGNATURE_HEADER];
      verifySignature(secret, rawBody, Array.isArray(header) ? header[0] : header, now());
      const parsed = JSON.parse(rawBody.toString("utf8")) as
        | TestWebhookEvent
        | TestRefundEvent
        | TestAccountEvent
        | TestSetupEvent;
      if (parsed.type === "setup.completed")
        return { eventId: parsed.id, kind: "setup", providerRef: parsed.data.ref } satisfies PaymentEvent;
      if (parsed.type === "account.updated") {
        const { accountId, ...report } = parsed.data;
        return {
          eventId: parsed.id,
          kind: "account",
          accountId,
          occurredAt: new Date(parsed.created * 1000),
          ...accountStatusOf(report),
        } satisfies PaymentEvent;
      }
      if (parsed.type.startsWith("refund.")) {
        const refund = parsed as TestRefundEvent;
        const result: RefundState =
          refund.type === "refund.succeeded"
            ? { state: "succeeded" }
            : refund.type === "refund.failed"
              ? { state: "failed", reason: refund.data.reason ?? "refused" }
              : { state: "pending" };
        return {
          eventId: refund.id,
          kind: "refund",
          providerRefundRef: refund.data.refundRef,
          refundId: refund.data.refundId,
          result,
        } satisfies PaymentEvent;
      }
      const event = parsed as TestWebhookEvent;
      const { ref, orderId, amountCents, reason } = event.data;
      const result: PaymentState =
        event.type === "payment.succeeded"
          ? { state: "paid", amountCents, currency: "usd" }
          : event.type === "payment.failed"
            ? { state: "failed", reason: reason ?? "declined" }
            : event.type === "payment.cancelled"
              ? { state: "cancelled" }
              : { state: "pending" };
      if (result.state === "pending") return { eventId: event.id, kind: "ignored", type: String(event.type) };
      return { eventId: event.id, kind: "payment", providerRef: ref, orderId, result } satisfies PaymentEvent;
    },

    async refund(refund): Promise<RefundResult> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(testPaymentSessions)
          .where(eq(testPaymentSessions.ref, refund.providerRef))
          .for("update");
        if (!row) return { providerRefundRef: "", state: "failed", reason: "unknown payment" };
        const done = row.refunds.find((r) => r.refundId === refund.refundId);
        const answer = (r: TestSessionRefund): RefundResult =>
          r.state === "succeeded"
            ? { providerRefundRef: `tre_${r.refundId}`, state: "succeeded" }
            : { providerRefundRef: `tre_${r.refundId}`, state: "failed", reason: r.reason ?? "refused" };
        if (done) return answer(done);
        const paid = row.state === "paid" ? row.amountCents : 0;
        const refunded = row.refunds
          .filter((r) => r.state === "succeeded")
          .reduce((sum, r) => sum + r.amountCents, 0);
        let made: TestSessionRefund;
        if (provider.controls.failNextRefund) {
          made = {
            refundId: refund.refundId,
            amountCents: refund.amountCents,
            state: "failed",
            reason: provider.controls.failNextRefund,
          };
          provider.controls.failNextRefund = null;
        } else if (refund.amountCents <= 0 || refunded + refund.amountCents > paid) {
          made = {
            refundId: refund.refundId,
            amountCents: refund.amountCents,
            state: "failed",
            reason: `refund of ${refund.amountCents} cents exceeds the ${paid - refunded} cents left to refund`,
          };
        } else {
          made = {
            refundId: refund.refundId,
            amountCents: refund.amountCents,
            state: "succeeded",
            reason: null,
          };
        }
        await tx
          .update(testPaymentSessions)
          .set({ refunds: [...row.refunds, made] })
          .where(eq(testPaymentSessions.ref, row.ref));
        return answer(made);
      });
    },

    async startSetup(setup) {
      const ref = `tss_${randomBytes(12).toString("hex")}`;
      const customerRef = setup.customerRef ?? `tcus_${randomBytes(8).toString("hex")}`;
      await db
        .insert(testSetupSessions)
        .values({
          ref,
          setupId: setup.setupId,
          kind: setup.kind,
          customerRef,
          returnUrl: setup.returnUrl,
          cancelUrl: setup.cancelUrl,
        })
        .onConflictDoNothing({ target: testSetupSessions.setupId });
      const [row] = await db
        .select()
        .from(testSetupSessions)
        .where(eq(testSetupSessions.setupId, setup.setupId));
      if (!row) throw new Error("the test setup session vanished");
      return {
        providerRef: row.ref,
        redirectUrl: `${base}${paths.testSetup(row.ref)}`,
        customerRef: row.customerRef,
      };
    },

    async completeSetup(providerRef) {
      const [row] = await db.select().from(testSetupSessions).where(eq(testSetupSessions.ref, providerRef));
      if (!row) throw new Error("unknown test setup session");
      if (row.state === "pending") return { state: "pending" };
      if (row.state === "cancelled") return { state: "cancelled" };
      const card = testCards.find((c) => c.last4 === row.card);
      return {
        state: "saved",
        method: {
          kind: row.kind === "paypal" ? "paypal" : "card",
          customerRef: row.customerRef,
          methodRef: testMethodRef(row),
          brand: card?.brand ?? "paypal",
          last4: card?.last4 ?? null,
          expMonth: card ? 12 : null,
          expYear: card ? row.createdAt.getUTCFullYear() + 4 : null,
          // Stripe's fingerprint is of the card number: the same test card is the same card for anyone.
          fingerprint: card ? `tfp_${card.last4}` : null,
          email: row.kind === "paypal" ? "buyer@paypal.test" : null,
        },
      };
    },

    // A test method is a row of ours: removed with the buyer's method, nothing is kept anywhere else.
    async forgetSaved() {},

    async chargeSaved(charge): Promise<ChargeResult> {
      const outcome = testOutcomeOf(charge.methodRef);
      if (!outcome)
        return { state: "declined", providerRef: null, reason: "No such saved test method.", hard: true };
      const paid = outcome === "paid";
      const reason = paid ? null : (declineReasons[outcome] ?? "declined");
      const ref = `tps_${randomBytes(12).toString("hex")}`;
      // A charge is a session decided at once, so `lookup` and `refund` answer it like any other; the
      // same idempotency key answers the charge it made first.
      await db
        .insert(testPaymentSessions)
        .values({
          ref,
          idempotencyKey: charge.idempotencyKey,
          orderId: charge.orderId,
          amountCents: charge.amountCents,
          description: charge.description,
          returnUrl: "",
          cancelUrl: "",
          state: paid ? "paid" : "failed",
          reason,
          decidedAt: now(),
        })
        .onConflictDoNothing({ target: testPaymentSessions.idempotencyKey });
      const [row] = await db
        .select()
        .from(testPaymentSessions)
        .where(eq(testPaymentSessions.idempotencyKey, charge.idempotencyKey));
      if (!row) throw new Error("the test charge vanished");
      if (row.state === "paid")
        return { state: "paid", providerRef: row.ref, amountCents: row.amountCents, currency: "usd" };
      return {
        state: "declined",
        providerRef: row.ref,
        reason: row.reason ?? "declined",
        hard: outcome === "stolen_card",
      };
    },

    setupSession: async (ref) => {
      const [row] = await db.select().from(testSetupSessions).where(eq(testSetupSessions.ref, ref));
      return row;
    },

    async decideSetup(ref, choice) {
      const decided = await db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(testSetupSessions)
          .where(eq(testSetupSessions.ref, ref))
          .for("update");
        if (!row) return null;
        if (row.state !== "pending") return { row, fresh: false };
        const save = choice.choice === "save";
        const [after] = await tx
          .update(testSetupSessions)
          .set({
            state: save ? "saved" : "cancelled",
            card: save && row.kind === "card" ? (choice.card ?? "4242") : null,
          })
          .where(eq(testSetupSessions.ref, ref))
          .returning();
        return { row: after ?? row, fresh: true };
      });
      if (!decided) throw new Error("unknown test setup session");
      const { row, fresh } = decided;
      const redirectUrl = row.state === "cancelled" ? row.cancelUrl : row.returnUrl;
      if (!fresh) return { redirectUrl, event: null };
      return {
        redirectUrl,
        event: { id: `evt_test_${randomUUID()}`, type: "setup.completed", data: { ref: row.ref } },
      };
    },

    session: find,

    async decide(ref, choice) {
      const outcome = outcomes[choice];
      const decided = await db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(testPaymentSessions)
          .where(eq(testPaymentSessions.ref, ref))
          .for("update");
        if (!row) return null;
        if (row.state !== "pending") return { row, fresh: false };
        const [after] = await tx
          .update(testPaymentSessions)
          .set({ state: outcome.state, reason: outcome.reason, decidedAt: now() })
          .where(eq(testPaymentSessions.ref, ref))
          .returning();
        return { row: after ?? row, fresh: true };
      });
      if (!decided) throw new Error("unknown test payment session");
      const { row, fresh } = decided;
      const redirectUrl = row.state === "cancelled" ? row.cancelUrl : row.returnUrl;
      if (!fresh) return { redirectUrl, event: null };
      return {
        redirectUrl,
        event: {
          id: `evt_test_${randomUUID()}`,
          type: outcome.type,
          data: { ref: row.ref, orderId: row.orderId, amountCents: row.amountCents, reason: row.reason },
        },
      };
    },

    track(delivery) {
      const running: Promise<unknown> = delivery()
        .catch((error: unknown) => deps.log?.warn({ err: error }, "test payment event delivery failed"))
        .finally(() => pending.delete(running));
      pending.add(running);
    },

    async idle() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
  return provider;
}

/**
 * Delivers one test event to our own webhook endpoint, signed, as the provider's servers would: a
 * server-to-server POST that carries no cookie. It answers the endpoint's status code. The lead moves
 * this call onto the job queue, which then retries a failed delivery.
 */
export async function deliverTestEvent(
  app: FastifyInstance,
  event: TestWebhookEvent | TestRefundEvent | TestAccountEvent | TestSetupEvent,
): Promise<number> {
  const provider = app.payments.test;
  if (!provider) throw new Error("no test payment provider in this app");
  const body = JSON.stringify(event);
  const res = await app.inject({
    method: "POST",
    url: "/api/payments/webhooks/test",
    headers: {
      "content-type": "application/json",
      [TEST_SIGNATURE_HEADER]: signTestEvent(provider.secret, body),
    },
    payload: body,
  });
  if (res.statusCode >= 300)
    app.log.warn({ status: res.statusCode, eventId: event.id }, "test payment event refused");
  return res.statusCode;
}
