import type { FastifyInstance } from "fastify";
import {
  expiryLabel,
  maskEmail,
  methodLabel,
  type PaymentMethodList,
  type PaymentMethodSetupInput,
  type PaymentMethodSetupState,
  type SavedPaymentMethod,
  type SubscriptionMethodInput,
} from "#domain/payment-methods";
import { absoluteUrl, paths } from "#domain/routes";
import type { Subscription } from "#domain/subscription-schemas";
import type { UserRow } from "#server/auth/guards";
import type { Database, Transaction } from "#server/db/client";
import { publicUrl } from "#server/env";
import { Conflict, NotFound } from "#server/errors";
import type { JobDefinition, JobQueue } from "#server/jobs/queue";
import { recordAudit } from "#server/lib/audit";
import {
  customerRefOf,
  insertSetup,
  lockMethodsOf,
  lockSetupByRef,
  type MethodRow,
  markDeclined,
  methodOfUser,
  methodsOf,
  removeMethod,
  type SetupRow,
  saveCustomerRef,
  setDefaultMethod,
  setSetupRef,
  setSubscriptionMethod,
  setupByRef,
  setupOfUser,
  updateSetup,
  upsertMethod,
} from "#server/modules/payment-methods/repository";
import { lockSubscriptionOfUser } from "#server/modules/subscriptions/repository";
import { subscriptionsOf } from "#server/modules/subscriptions/service";
import type { SetupState } from "#server/payments/provider";
import type { PaymentProviders } from "#server/payments/registry";

/** What saved payment methods need from the app; `methodDepsOf(app)` builds it. */
export type MethodDeps = {
  db: Database;
  providers: PaymentProviders;
  jobs: Pick<JobQueue, "send">;
  /** The site's public origin: the provider sends the buyer back to it. */
  origin: string;
  now: () => Date;
};

export function methodDepsOf(app: FastifyInstance): MethodDeps {
  return {
    db: app.database.db,
    providers: app.payments,
    jobs: app.jobs,
    origin: publicUrl(app.env),
    now: () => app.clock.now(),
  };
}

const methodNotFound = () => new NotFound("Payment method not found.", "PAYMENT_METHOD_NOT_FOUND");
const setupNotFound = () => new NotFound("This payment method setup was not found.", "SETUP_NOT_FOUND");

export function savedMethodOf(row: MethodRow, subscriptions = 0): SavedPaymentMethod {
  return {
    id: row.id,
    kind: row.kind,
    label: methodLabel(row),
    brand: row.brand,
    last4: row.last4,
    expires: expiryLabel(row.expMonth, row.expYear),
    isDefault: row.isDefault,
    declined: row.declinedAt ? (row.declineReason ?? "Declined") : null,
    subscriptions,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listPaymentMethods(deps: MethodDeps, userId: string): Promise<PaymentMethodList> {
  const rows = await methodsOf(deps.db, userId);
  return {
    methods: rows.map((row) => savedMethodOf(row.method, row.subscriptions)),
    testMode: deps.providers.forMethod("stripe").name === "test",
  };
}

/** Where the buyer comes back to from the provider's page, with the setup's id. */
const returnPaths = {
  wallet: paths.dashboard("wallet"),
  checkout: paths.checkout(),
  subscriptions: paths.dashboard("subscriptions"),
} as const;

/**
 * Opens the provider's page to save a card (Stripe, in setup mode) or a PayPal account (PayPal's vault):
 * a setup row first, whose id is the provider's idempotency key, then the provider's session, as a
 * payment attempt is opened. The buyer's customer at the provider is made once and kept.
 */
export async function startMethodSetup(
  deps: MethodDeps,
  user: Pick<UserRow, "id" | "email">,
  input: PaymentMethodSetupInput,
): Promise<{ redirectUrl: string }> {
  const provider = deps.providers.forMethod(input.kind === "card" ? "stripe" : "paypal");
  const setup = await insertSetup(deps.db, { userId: user.id, kind: input.kind, provider: provider.name });
  const back = absoluteUrl(deps.origin, returnPaths[input.returnTo]);
  const returnUrl = `${back}?setup=${setup.id}`;
  const started = await provider.startSetup({
    setupId: setup.id,
    kind: input.kind,
    customerRef: await customerRefOf(deps.db, user.id, provider.name),
    userId: user.id,
    email: user.email,
    returnUrl,
    cancelUrl: `${returnUrl}&cancelled=1`,
  });
  const now = deps.now();
  if (started.customerRef) await saveCustomerRef(deps.db, user.id, provider.name, started.customerRef);
  await setSetupRef(deps.db, setup.id, started.providerRef, now);
  return { redirectUrl: started.redirectUrl };
}

/**
 * Applies the provider's answer about a setup, in the caller's transaction: the one place a setup moves
 * (the return page and the provider's webhook both come here; the second finds it done). A saved method
 * becomes the buyer's default when they have none. Answers the setup as it is now, or null when the
 * provider names a setup we do not know.
 */
export async function applySetupState(
  tx: Transaction,
  provider: string,
  providerRef: string,
  state: SetupState,
  now: Date,
): Promise<SetupRow | null> {
  const setup = await lockSetupByRef(tx, provider, providerRef);
  if (!setup) return null;
  if (setup.state !== "pending" || state.state === "pending") return setup;
  if (state.state !== "saved") {
    const reason = state.state === "failed" ? state.reason : null;
    await updateSetup(tx, setup.id, { state: state.state, reason }, now);
    return { ...setup, state: state.state, reason };
  }
  const { method } = state;
  const live = await lockMethodsOf(tx, setup.userId);
  const saved = await upsertMethod(tx, {
    userId: setup.userId,
    kind: method.kind,
    provider,
    customerRef: method.customerRef,
    methodRef: method.methodRef,
    brand: method.brand,
    last4: method.last4,
    expMonth: method.expMonth,
    expYear: method.expYear,
    fingerprint: method.fingerprint,
    // Only the masked form of a PayPal e-mail is kept: enough to recognise, nothing to mail.
    email: method.email ? maskEmail(method.email) : null,
    createdAt: now,
  });
  if (saved.userId !== setup.userId)
    throw new Error(`provider method of setup ${setup.id} belongs to another buyer`);
  if (!live.some((m) => m.isDefault && m.id !== saved.id)) await setDefaultMethod(tx, setup.userId, saved.id);
  await updateSetup(tx, setup.id, { state: "saved", reason: null, methodId: saved.id }, now);
  return { ...setup, state: "saved", reason: null, methodId: saved.id };
}

/**
 * The buyer is back from the provider's page: asks the provider about the setup (PayPal turns the
 * approved token into a payment token here) and applies its answer as the webhook would.
 */
export async function completeMethodSetup(
  deps: MethodDeps,
  userId: string,
  setupId: string,
  query: Record<string, string>,
): Promise<PaymentMethodSetupState> {
  let setup = await setupOfUser(deps.db, userId, setupId);
  if (!setup) throw setupNotFound();
  const provider = deps.providers.byName(setup.provider);
  if (setup.state === "pending" && setup.providerRef && provider) {
    const answer = await provider.completeSetup(setup.providerRef, query);
    const ref = setup.providerRef;
    setup =
      (await deps.db.transaction((tx) =>
        applySetupState(tx, setup?.provider ?? "", ref, answer, deps.now()),
      )) ?? setup;
  }
  const method = setup.methodId ? await methodOfUser(deps.db, userId, setup.methodId) : undefined;
  return {
    state: setup.state as PaymentMethodSetupState["state"],
    reason: setup.reason,
    method: method ? savedMethodOf(method) : null,
  };
}

/** Bank transfer as a saved method: renewals on it are invoiced for payment by transfer. One per buyer. */
export async function addBankTransferMethod(deps: MethodDeps, userId: string): Promise<SavedPaymentMethod> {
  const now = deps.now();
  const row = await deps.db.transaction(async (tx) => {
    const live = await lockMethodsOf(tx, userId);
    const existing = live.find((m) => m.kind === "bank_transfer");
    if (existing) return existing;
    const made = await upsertMethod(tx, { userId, kind: "bank_transfer", createdAt: now });
    if (!live.some((m) => m.isDefault)) {
      await setDefaultMethod(tx, userId, made.id);
      return { ...made, isDefault: true };
    }
    return made;
  });
  return savedMethodOf(row);
}

export async function makeDefaultMethod(deps: MethodDeps, userId: string, id: string) {
  await deps.db.transaction(async (tx) => {
    const live = await lockMethodsOf(tx, userId);
    if (!live.some((m) => m.id === id)) throw methodNotFound();
    await setDefaultMethod(tx, userId, id);
  });
  return listPaymentMethods(deps, userId);
}

/**
 * Removes a saved method: its subscriptions follow the default from now on; a removed default passes to
 * the newest method left. Nothing is deleted at the provider: a card stays on the customer until the
 * buyer saves it again or the provider's own retention ends.
 */
export async function removePaymentMethod(
  deps: MethodDeps,
  user: Pick<UserRow, "id" | "email" | "name">,
  id: string,
) {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const live = await lockMethodsOf(tx, user.id);
    const method = live.find((m) => m.id === id);
    if (!method) throw methodNotFound();
    await removeMethod(tx, id, now);
    await forgetAtProvider(deps.jobs, tx, [method]);
    const next = live.find((m) => m.id !== id);
    if (method.isDefault && next) await setDefaultMethod(tx, user.id, next.id);
    await recordAudit(tx, user, {
      action: "delete",
      entityType: "payment_method",
      entityId: id,
      entityLabel: methodLabel(method),
      before: { label: methodLabel(method), isDefault: method.isDefault },
      after: null,
    });
  });
  return listPaymentMethods(deps, user.id);
}

/** Chooses the method a subscription renews on: one of the buyer's, or null for their default. */
export async function setSubscriptionPaymentMethod(
  deps: MethodDeps,
  userId: string,
  subscriptionId: string,
  input: SubscriptionMethodInput,
): Promise<Subscription> {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const subscription = await lockSubscriptionOfUser(tx, userId, subscriptionId);
    if (!subscription) throw new NotFound("Subscription not found.", "SUBSCRIPTION_NOT_FOUND");
    if (subscription.endedAt) throw new Conflict("This subscription has ended.", "SUBSCRIPTION_ENDED");
    if (input.paymentMethodId && !(await methodOfUser(tx, userId, input.paymentMethodId)))
      throw methodNotFound();
    await setSubscriptionMethod(tx, subscriptionId, input.paymentMethodId, now);
  });
  const [answer] = (await subscriptionsOf(deps.db, userId, now)).filter((s) => s.id === subscriptionId);
  if (!answer) throw new NotFound("Subscription not found.", "SUBSCRIPTION_NOT_FOUND");
  return answer;
}

/** The provider's hard decline of an off-session charge: the method is not charged again as it is. */
export async function methodDeclined(tx: Transaction, methodId: string, reason: string, now: Date) {
  await markDeclined(tx, methodId, reason, now);
}

/** The test provider's hosted setup page may show a setup only to the buyer who opened it. */
export async function ownTestSetup(deps: MethodDeps, userId: string, ref: string): Promise<SetupRow> {
  const setup = await setupByRef(deps.db, "test", ref);
  if (!setup || setup.userId !== userId) throw setupNotFound();
  return setup;
}

/** The queue that removes a removed method at its provider (`forgetMethodJob`). */
export const FORGET_METHOD_QUEUE = "payment-method-forget";

/** A removed method as its provider knows it: all the job needs, as the row itself may be gone (a deleted account). */
type ForgetMethod = { provider: string; customerRef: string; methodRef: string };

/**
 * Queues, in the transaction that removes them, the removal of these methods at their providers: so a
 * method the buyer removed cannot be charged there by anyone, even if the provider is down just then. A
 * bank transfer is ours alone.
 */
export async function forgetAtProvider(
  jobs: Pick<JobQueue, "send">,
  tx: Transaction,
  methods: Pick<MethodRow, "provider" | "customerRef" | "methodRef">[],
) {
  for (const { provider, customerRef, methodRef } of methods)
    if (provider && customerRef && methodRef)
      await jobs.send<ForgetMethod>(FORGET_METHOD_QUEUE, { provider, customerRef, methodRef }, { tx });
}

/** Removes a removed method at its provider; retried (for about a day) while the provider is down. */
export function forgetMethodJob(providers: () => PaymentProviders): JobDefinition<ForgetMethod> {
  return {
    name: FORGET_METHOD_QUEUE,
    retryLimit: 24,
    retryDelaySeconds: 3600,
    describe: (method) => `removal of a saved method at ${method.provider}`,
    async run(method) {
      const provider = providers().byName(method.provider);
      if (!provider) throw new Error(`the payment provider ${method.provider} is not configured`);
      await provider.forgetSaved(method);
    },
  };
}
