import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import compress from "@fastify/compress";
import cookie from "@fastify/cookie";
import rateLimit from "@fastify/rate-limit";
import fastifyStatic from "@fastify/static";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import underPressure from "@fastify/under-pressure";
import Fastify, { type FastifyContextConfig, type FastifyError, type FastifyInstance } from "fastify";
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import helmet from "helmet";
import { allEndpoints } from "#domain/endpoints";
import { anyRouteErrorCodes, errorStatus, isServerErrorCode } from "#domain/error-codes";
import { type Auth, createAuth } from "#server/auth/auth";
import { translateAuthError } from "#server/auth/errors";
import type { DatabaseHandle } from "#server/db/client";
import { type Env, publicUrl } from "#server/env";
import { AppError, Forbidden, ServiceBusy, TooManyRequests } from "#server/errors";
import { refuseUndeclaredRoutes } from "#server/http/route";
import { jobDefinitions } from "#server/jobs/definitions";
import { createJobQueue, type JobQueue } from "#server/jobs/queue";
import { CatalogueCache, readCacheVersions } from "#server/lib/catalogue-cache";
import { AdjustableClock, type Clock, systemClock } from "#server/lib/clock";
import { rejectHostileInput } from "#server/lib/hostile-input";
import { LicenseCheckCache } from "#server/lib/license-check-cache";
import { type LicenseSigner, licenseSigner, newLicenseSigningKey } from "#server/lib/license-signing";
import { serializeError, serializeRequest } from "#server/lib/log-serializers";
import { Metrics, UNMATCHED_ROUTE } from "#server/lib/metrics";
import { postgresRateLimitStore } from "#server/lib/rate-limit-store";
import { createMailer, createMailTransport, type Mailer, type MailTransport } from "#server/mail/mailer";
import { accountRoutes } from "#server/modules/account/routes";
import { adminOverviewRoutes } from "#server/modules/admin-overview/routes";
import { auditRoutes } from "#server/modules/audit/routes";
import { bankTransferRoutes } from "#server/modules/bank-transfers/routes";
import { catalogRoutes } from "#server/modules/catalog/routes";
import { forgetSearchState } from "#server/modules/catalog/search";
import { categoryRoutes } from "#server/modules/categories/routes";
import { compareRoutes } from "#server/modules/compare/routes";
import { contentBlockRoutes } from "#server/modules/content-blocks/routes";
import { earningsRoutes } from "#server/modules/earnings/routes";
import { faqRoutes } from "#server/modules/faq/routes";
import { feeRoutes } from "#server/modules/fees/routes";
import { financeRoutes } from "#server/modules/finance/routes";
import { healthRoutes } from "#server/modules/health/routes";
import { inboundRoutes } from "#server/modules/inbound/routes";
import { inboxRoutes } from "#server/modules/inbox/routes";
import { invoiceRoutes } from "#server/modules/invoices/routes";
import { licenseKeyRoutes, licenseRoutes } from "#server/modules/licenses/routes";
import type { LicenseCheckFacts } from "#server/modules/licenses/service";
import { manageProductRoutes } from "#server/modules/manage-products/routes";
import { metricsRoutes } from "#server/modules/metrics/routes";
import { moderationRoutes } from "#server/modules/moderation/routes";
import { newsletterRoutes } from "#server/modules/newsletter/routes";
import { notificationRoutes } from "#server/modules/notifications/routes";
import { orderRoutes } from "#server/modules/orders/routes";
import { pageRoutes } from "#server/modules/pages/routes";
import { paymentMethodRoutes } from "#server/modules/payment-methods/routes";
import { paymentRoutes } from "#server/modules/payments/routes";
import { payoutAccountRoutes } from "#server/modules/payout-accounts/routes";
import { payoutRoutes } from "#server/modules/payouts/routes";
import { privacyRoutes } from "#server/modules/privacy/routes";
import { questionRoutes } from "#server/modules/questions/routes";
import { referralRoutes } from "#server/modules/referrals/routes";
import { refundRoutes } from "#server/modules/refunds/routes";
import { reviewRoutes } from "#server/modules/reviews/routes";
import { savedRoutes } from "#server/modules/saved/routes";
import { searchRoutes } from "#server/modules/search/routes";
import { sellerApiRoutes } from "#server/modules/seller-api/routes";
import { sellerWebhookRoutes } from "#server/modules/seller-webhooks/routes";
import { shippingRoutes } from "#server/modules/shipping/routes";
import { storefrontRoutes } from "#server/modules/storefronts/routes";
import { subscriptionChangeRoutes } from "#server/modules/subscription-changes/routes";
import { subscriptionReportRoutes } from "#server/modules/subscription-reports/routes";
import { subscriptionRoutes } from "#server/modules/subscriptions/routes";
import { systemRoutes } from "#server/modules/system/routes";
import { taxRoutes } from "#server/modules/tax/routes";
import { testClockRoutes } from "#server/modules/test-clock/routes";
import { uploadRoutes } from "#server/modules/uploads/routes";
import { usageRoutes } from "#server/modules/usage/routes";
import { userAdminRoutes } from "#server/modules/users/routes";
import { type PaymentProviders, type ProviderFactories, providersFromEnv } from "#server/payments/registry";
import { testWebhookSecret } from "#server/payments/test-provider";
import { createStripePayoutRails } from "#server/payouts/stripe-connect";
import { type PayoutRails, payoutRailsFromEnv } from "#server/payouts/transfers";
import { configuredStorage, storageImageOrigin } from "#server/storage/configured";
import type { FileStorage } from "#server/storage/storage";
import { type VatRegisters, vatRegistersFromEnv } from "#server/vat/registers";
import { webRoutes } from "#server/web/routes";
import { seoRoutes } from "#server/web/seo";

declare module "fastify" {
  interface FastifyInstance {
    database: DatabaseHandle;
    env: Env;
    /** Queues e-mail; the `mail` job delivers it. */
    mailer: Mailer;
    /** Background jobs in the database (pg-boss): e-mail, sweeps, approvals. */
    jobs: JobQueue;
    auth: Auth;
    storage: FileStorage;
    /** The payment provider of each checkout method (Stripe, PayPal or test mode), from the environment. */
    payments: PaymentProviders;
    /** The time the money jobs go by: the system clock, or a movable one on test servers. */
    clock: Clock;
    /** Connect onboarding and transfers to sellers and resellers (Stripe, or test mode), from the environment. */
    payoutRails: PayoutRails;
    /** VIES and HMRC, which confirm a business buyer's VAT number before its reverse charge. */
    vatRegisters: VatRegisters;
    /**
     * The public catalogue's serialised answers and listing totals, cleared by every change to a table they
     * read, on every instance (decision 0018).
     */
    catalogueCache: CatalogueCache;
    /**
     * What licence checks read of each key, forgotten by every change to a table it came from, on every
     * instance (decision 0028).
     */
    licenseCheckCache: LicenseCheckCache<LicenseCheckFacts>;
    /** Prometheus series of this app (its own registry), read at GET /metrics with METRICS_TOKEN. */
    metrics: Metrics;
    /** Set once the app starts shutting down: readiness answers 503 from then on. */
    readiness: { shuttingDown: boolean };
    /** Signs offline licence files with LICENSE_SIGNING_KEY and publishes its public half. */
    licenseSigner: LicenseSigner;
  }
  interface FastifyContextConfig {
    /** False for a route a saturated server still answers (liveness): see refuseWhenSaturated. */
    shedLoad?: boolean;
    /**
     * False for a write that changes nothing the in-memory caches hold (the catalogue, licence checks): its
     * answer does not read their versions (see the onSend hook in buildApp).
     */
    changesCachedState?: boolean;
  }
}

/** The channel the catalogue tables' triggers notify on (migration 0020). */
export const CATALOGUE_CHANNEL = "catalogue_changed";
/** How the notices for licence checks on that channel begin (migration 0045): `license-check:<table>`. */
export const LICENSE_CHECK_NOTICE = "license-check:";

export type AppOptions = {
  env: Env;
  database: DatabaseHandle;
  /** How the mail job hands messages over; by default SMTP or the DATA_DIR outbox, as the environment says. */
  mailTransport?: MailTransport;
  /** Runs the job queues' cron schedules (tests turn them off and call the work directly). */
  schedules?: boolean;
  /** Runs queued jobs in this process (a test turns it off to stand for a crash before a job ran). */
  workers?: boolean;
  /** Folder of the built SPA (dist/web); null serves the API alone, as in API tests and `npm run dev`. */
  webRoot?: string | null;
  /** The real payment adapters this build has; a method whose keys are unset runs in test mode. */
  paymentFactories?: ProviderFactories;
  /** Where uploads are stored; DATA_DIR/uploads by default. */
  storage?: FileStorage;
  /** Where log lines go (tests read them to prove no secret is logged); stdout by default. */
  logStream?: { write(line: string): void };
};

export const contentSecurityPolicy = {
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    // Toasts and Radix popovers position themselves with inline styles.
    styleSrc: ["'self'", "'unsafe-inline'"],
    // Content pages written by admins may show images hosted elsewhere over HTTPS.
    imgSrc: ["'self'", "data:", "blob:", "https:"],
    fontSrc: ["'self'", "data:"],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    upgradeInsecureRequests: null,
  },
};

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The headers helmet sets with these options, read once from its middleware run on a stand-in answer. */
export function helmetHeaders(options: Parameters<typeof helmet>[0]): Record<string, string> {
  const headers: Record<string, string> = {};
  const answer = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, answer as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * A saturated server answers at once "busy, retry after N s" rather than slowly (decision 0018): when the
 * event loop lags (`@fastify/under-pressure`), or when too many requests already wait for a connection.
 */
async function refuseWhenSaturated(app: FastifyInstance, env: Env, database: DatabaseHandle) {
  const retryAfter = env.OVERLOAD_RETRY_AFTER_SECONDS;
  // Shedding load is for production: in development and tests (one machine running everything, and
  // PGlite's work in the event loop) a busy moment would turn requests away for nothing.
  const maxDelay = env.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS ?? (env.NODE_ENV === "production" ? 250 : 0);
  if (maxDelay > 0) {
    await app.register(underPressure, {
      maxEventLoopDelay: maxDelay,
      // A lag is noticed within a tenth of a second, and forgiven as soon.
      sampleInterval: 100,
      // The busy error goes to the error handler as any AppError. Liveness still answers: a busy instance
      // is alive, and a failed liveness probe would get it restarted when it is needed most.
      pressureHandler: async (request, reply) => {
        if (request.routeOptions.config.shedLoad === false) return;
        reply.header("retry-after", String(retryAfter));
        throw new ServiceBusy(retryAfter);
      },
    });
  }
  const maxWaiting = env.OVERLOAD_MAX_WAITING_QUERIES;
  if (maxWaiting > 0) {
    app.addHook("onRequest", async (request, reply) => {
      if (request.routeOptions.config.shedLoad === false) return;
      if (database.waitingForConnection() > maxWaiting) {
        reply.header("retry-after", String(retryAfter));
        throw new ServiceBusy(retryAfter);
      }
    });
  }
}

const anyRoute: ReadonlySet<string> = new Set(anyRouteErrorCodes);

/**
 * Why an error a route threw contradicts its declaration, or null when it does not: its code is neither
 * declared by the endpoint, nor answered by its guard, nor one any route may answer, or its status is not
 * the code's (errorStatus).
 * Test servers answer such an error with a 500 that says so, so the API test that reaches it fails and
 * the declaration (what the web and the OpenAPI document trust) gets corrected.
 */
export function undeclaredError(config: FastifyContextConfig, error: AppError): string | null {
  const key = config.endpoint;
  if (error.statusCode !== errorStatus[error.code]) {
    return `${error.code} was answered with ${error.statusCode}, but errorStatus says ${errorStatus[error.code]}`;
  }
  if (!key || anyRoute.has(error.code) || config.guardAnswers?.includes(error.code)) return null;
  const declared: readonly string[] = allEndpoints[key].errors;
  if (declared.includes(error.code)) return null;
  return `${key} answered ${error.code}, which its declaration does not list: add it to its errors in src/domain/endpoints`;
}

export async function buildApp(options: AppOptions) {
  const { env, database } = options;
  const app = Fastify({
    logger: {
      level: env.LOG_LEVEL,
      ...(options.logStream ? { stream: options.logStream } : {}),
      redact: ["req.headers.authorization", "req.headers.cookie", 'res.headers["set-cookie"]'],
      // No query tokens, client addresses or bound query parameters in the logs.
      serializers: { req: serializeRequest, err: serializeError },
    },
    genReqId: () => randomUUID(),
    trustProxy: env.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate("database", database);
  app.decorate("env", env);
  app.decorate("clock", env.NODE_ENV === "test" ? new AdjustableClock() : systemClock);
  if (!env.AUTH_SECRET) throw new Error("AUTH_SECRET must be set before the app is built");
  if (!env.LICENSE_SIGNING_KEY && env.NODE_ENV === "production")
    throw new Error("LICENSE_SIGNING_KEY must be set before the app is built in production");
  // Outside production a start without one signs with a key of its own (main.ts keeps one in DATA_DIR,
  // so a development server's files stay verifiable across restarts; a test app's lives with it).
  app.decorate("licenseSigner", licenseSigner(env.LICENSE_SIGNING_KEY ?? newLicenseSigningKey()));
  const readiness = { shuttingDown: false };
  app.decorate("readiness", readiness);
  // First of the close hooks: a load balancer polling readiness stops sending requests while the rest drains.
  app.addHook("preClose", async () => {
    readiness.shuttingDown = true;
  });
  // Process metrics only when someone may read them (their collectors watch the event loop and GC).
  const metrics = new Metrics({ processMetrics: env.METRICS_TOKEN !== undefined });
  app.decorate("metrics", metrics);
  const jobs = createJobQueue(
    database,
    jobDefinitions(app, options.mailTransport ?? createMailTransport(env, app.log), env.AUTH_SECRET),
    app.log,
    { schedules: options.schedules ?? true, workers: options.workers ?? true, metrics },
  );
  app.decorate("jobs", jobs);
  metrics.collectFrom({ poolUse: () => database.poolUse(), queueDepth: () => jobs.depth() });
  if (env.METRICS_TOKEN) {
    // One hook, no promise, and by route template (never the raw URL, which would grow the series without end).
    app.addHook("onResponse", (request, reply, done) => {
      metrics.observeRequest(
        request.method,
        request.routeOptions.url ?? UNMATCHED_ROUTE,
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
      done();
    });
  }
  app.decorate("mailer", createMailer(jobs, env.AUTH_SECRET));
  app.addHook("onReady", async () => jobs.start());
  // Before the database closes (an onClose hook below): running jobs get a few seconds to finish.
  app.addHook("preClose", async () => jobs.stop());
  app.decorate("auth", createAuth({ db: database.db, env, log: app.log }));
  app.decorate("storage", options.storage ?? configuredStorage(env));
  app.decorate(
    "payments",
    providersFromEnv(env, { db: database.db, factories: options.paymentFactories, log: app.log }),
  );
  app.decorate(
    "payoutRails",
    payoutRailsFromEnv(env, { testSecret: testWebhookSecret(env), stripe: createStripePayoutRails }),
  );
  const catalogueCache = new CatalogueCache();
  const licenseCheckCache = new LicenseCheckCache<LicenseCheckFacts>();
  app.decorate("vatRegisters", vatRegistersFromEnv(env, app.log));
  app.decorate("catalogueCache", catalogueCache);
  app.decorate("licenseCheckCache", licenseCheckCache);
  const clearCatalogue = () => {
    catalogueCache.clear();
    forgetSearchState();
  };
  // Every instance forgets its catalogue answers when a catalogue table changes anywhere, and what its
  // licence checks read when one of their tables does (the same channel; migration 0045 names those
  // `license-check:<table>`). While it cannot hear of changes (its LISTEN connection is lost) it keeps
  // nothing, and starts afresh when it can again.
  let stopListening: (() => Promise<void>) | undefined;
  app.addHook("onReady", async () => {
    stopListening = await database.listen(
      CATALOGUE_CHANNEL,
      (payload) => (payload.startsWith(LICENSE_CHECK_NOTICE) ? licenseCheckCache.clear() : clearCatalogue()),
      (listening) => {
        catalogueCache.suspend(!listening);
        licenseCheckCache.suspend(!listening);
      },
    );
  });
  app.addHook("preClose", async () => stopListening?.());
  // The notification reaches this instance a moment after the commit. So that whoever made a change sees
  // it on their very next request, a write answered here also reads the caches' versions and clears the
  // one that moved; a write that changed neither (a cart, a sign-in) leaves them alone. A route whose
  // writes change neither by design (the licence check's own records) says so and skips the read.
  let versions: { catalogue: string; licenseCheck: string } | undefined;
  app.addHook("onSend", async (request, reply) => {
    if (SAFE_METHODS.has(request.method) || !request.url.startsWith("/api/")) return;
    if (request.routeOptions.config.changesCachedState === false) return;
    // A refused write (4xx) changed nothing: its transaction, if any, was rolled back.
    if (reply.statusCode >= 400 && reply.statusCode < 500) return;
    // Unknown (the database is not answering) counts as moved: the answer already made is sent as is.
    const now = await readCacheVersions(database.db).catch(() => undefined);
    if (now === undefined || now.catalogue !== versions?.catalogue) clearCatalogue();
    if (now === undefined || now.licenseCheck !== versions?.licenseCheck) licenseCheckCache.clear();
    versions = now;
  });
  refuseUndeclaredRoutes(app);
  app.decorateRequest("user", null);
  app.decorateRequest("sellerApiKey", null);
  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
  // API answers speak of one person or change at any time: no cache keeps them unless the route says
  // so itself (the public catalogue and pages set "public, no-cache"). This runs before the routes'
  // own onSend hooks, so those still have the last word.
  app.addHook("onSend", async (request, reply) => {
    if (request.url.startsWith("/api/") && !reply.hasHeader("cache-control")) {
      reply.header("cache-control", "private, no-store");
    }
  });
  app.addHook("onClose", async () => {
    await database.close();
  });
  await refuseWhenSaturated(app, env, database);
  rejectHostileInput(app);

  // Cookies are SameSite=Lax and bodies must be JSON; on top, a write whose Origin is not the public
  // origin (PUBLIC_URL's scheme, host and port; never the request's own Host, which the sender picks)
  // is refused. Browsers send Origin with every POST, PUT, PATCH and DELETE, so a request without one
  // comes from a non-browser client (curl, scripts, server-to-server), which a forged page cannot
  // drive with the user's cookies: those stay allowed unless Fetch Metadata says cross-site.
  const publicOrigin = new URL(publicUrl(env)).origin;
  app.addHook("onRequest", async (request) => {
    if (!request.url.startsWith("/api/") || SAFE_METHODS.has(request.method)) return;
    // Payment providers post their webhooks server to server; the signature is their authority.
    if (request.url.startsWith("/api/payments/webhooks/")) return;
    const origin = request.headers.origin;
    if (
      request.headers["sec-fetch-site"] === "cross-site" ||
      (origin !== undefined && origin !== publicOrigin)
    ) {
      throw new Forbidden("Requests from other sites are not accepted.", "FORBIDDEN_ORIGIN");
    }
  });

  app.setErrorHandler((caught: FastifyError, request, reply) => {
    const error = (translateAuthError(caught) ?? caught) as FastifyError;
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((issue) => ({
        path: `${issue.instancePath.replace(/^\//, "").replaceAll("/", ".")}`,
        message: issue.message,
      }));
      const first = details[0];
      const where = error.validationContext ?? "request";
      return reply.status(400).send({
        code: "VALIDATION_ERROR",
        message: first
          ? `Invalid ${where}${first.path ? ` '${first.path}'` : ""}: ${first.message}`
          : "Invalid request.",
        details,
      });
    }
    if (error instanceof AppError) {
      const undeclared = env.NODE_ENV === "test" ? undeclaredError(request.routeOptions.config, error) : null;
      if (undeclared) {
        request.log.error({ err: error }, undeclared);
        return reply.status(500).send({ code: "INTERNAL_ERROR", message: undeclared });
      }
      return reply.status(error.statusCode).send({
        code: error.code,
        message: error.message,
        ...(error.details === undefined ? {} : { details: error.details }),
      });
    }
    const status = error.statusCode ?? 500;
    if (status < 500) {
      // Fastify's own refusals, by their declared name; one not declared is a plain bad request.
      const code = (error.code ?? "BAD_REQUEST").replace(/^FST_(ERR_)?/, "");
      return reply.status(status).send({
        code: isServerErrorCode(code) ? code : "BAD_REQUEST",
        message: error.message,
      });
    }
    request.log.error({ err: error }, "request failed");
    return reply.status(500).send({
      code: "INTERNAL_ERROR",
      message: `Something went wrong on our side. Please try again (reference ${request.id}).`,
    });
  });

  const imageOrigin = storageImageOrigin(env);
  // Helmet's headers, worked out once: they are the same for every answer (the policy has no nonce), so
  // each request only adds them to its reply. @fastify/helmet ran helmet's middleware anew for every
  // request, parsing the policy and setting a dozen headers one by one: a tenth of a licence check's CPU.
  const secureHeaders = helmetHeaders({
    // Uploads in a bucket are pictures from its public origin (which may be plain http in development).
    contentSecurityPolicy: imageOrigin
      ? {
          directives: {
            ...contentSecurityPolicy.directives,
            imgSrc: [...contentSecurityPolicy.directives.imgSrc, imageOrigin],
          },
        }
      : contentSecurityPolicy,
    strictTransportSecurity: env.NODE_ENV === "production",
    crossOriginEmbedderPolicy: false,
  });
  app.addHook("onRequest", (_request, reply, done) => {
    reply.headers(secureHeaders);
    done();
  });
  await app.register(compress, { threshold: 1024 });
  await app.register(cookie, { secret: env.AUTH_SECRET });
  // Routes opt in with `config.rateLimit`; counters live in the database, shared by all instances.
  await app.register(rateLimit, {
    global: false,
    store: postgresRateLimitStore(database.db),
    errorResponseBuilder: (_request, context) => new TooManyRequests(Math.ceil(context.ttl / 1000)),
  });

  await app.register(swagger, {
    openapi: {
      info: { title: "Stackbay API", version: "0.1.0", description: "The marketplace's JSON API." },
      tags: [
        {
          name: "seller-api",
          description:
            "The seller API: what a seller's own systems call with one of their API keys (`Authorization: Bearer sbk_…`), each key limited to its scopes and rate-limited on its own. Keys are made on the dashboard under API keys; the guide is at /developers.",
        },
        {
          name: "seller-api-keys",
          description: "A seller's API keys and access log, managed while signed in.",
        },
        {
          name: "seller-webhooks",
          description:
            "A seller's webhook endpoints and their deliveries, managed while signed in (the same operations are in the seller API with `webhooks:write`).",
        },
      ],
      components: {
        securitySchemes: {
          sellerApiKey: {
            type: "http",
            scheme: "bearer",
            description: "A seller API key, `sbk_` then its id and secret, sent as a bearer token.",
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: "/api/docs" });
  app.get("/api/openapi.json", { schema: { hide: true } }, async () => app.swagger());

  await app.register(fastifyStatic, {
    root: path.resolve(env.DATA_DIR, "uploads"),
    prefix: "/uploads/",
    decorateReply: false,
    index: false,
    setHeaders: (res) => {
      res.header("cache-control", "public, max-age=31536000, immutable");
      res.header("x-content-type-options", "nosniff");
    },
  });

  await app.register(healthRoutes, { prefix: "/api" });
  await app.register(metricsRoutes);
  await app.register(licenseKeyRoutes);
  await app.register(accountRoutes, { prefix: "/api" });
  await app.register(privacyRoutes, { prefix: "/api" });
  await app.register(newsletterRoutes, { prefix: "/api" });
  await app.register(catalogRoutes, { prefix: "/api" });
  await app.register(compareRoutes, { prefix: "/api" });
  await app.register(searchRoutes, { prefix: "/api" });
  await app.register(faqRoutes, { prefix: "/api" });
  await app.register(inboundRoutes, { prefix: "/api" });
  await app.register(inboxRoutes, { prefix: "/api" });
  await app.register(orderRoutes, { prefix: "/api" });
  await app.register(shippingRoutes, { prefix: "/api" });
  await app.register(paymentRoutes, { prefix: "/api" });
  await app.register(paymentMethodRoutes, { prefix: "/api" });
  await app.register(bankTransferRoutes, { prefix: "/api" });
  await app.register(payoutAccountRoutes, { prefix: "/api" });
  await app.register(savedRoutes, { prefix: "/api" });
  await app.register(auditRoutes, { prefix: "/api" });
  await app.register(categoryRoutes, { prefix: "/api" });
  await app.register(contentBlockRoutes, { prefix: "/api" });
  await app.register(manageProductRoutes, { prefix: "/api" });
  await app.register(moderationRoutes, { prefix: "/api" });
  await app.register(pageRoutes, { prefix: "/api" });
  await app.register(systemRoutes, { prefix: "/api" });
  await app.register(uploadRoutes, { prefix: "/api" });
  await app.register(userAdminRoutes, { prefix: "/api" });
  await app.register(invoiceRoutes, { prefix: "/api" });
  await app.register(licenseRoutes, { prefix: "/api" });
  await app.register(subscriptionRoutes, { prefix: "/api" });
  await app.register(subscriptionChangeRoutes, { prefix: "/api" });
  await app.register(subscriptionReportRoutes, { prefix: "/api" });
  await app.register(reviewRoutes, { prefix: "/api" });
  await app.register(questionRoutes, { prefix: "/api" });
  await app.register(referralRoutes, { prefix: "/api" });
  await app.register(refundRoutes, { prefix: "/api" });
  await app.register(notificationRoutes, { prefix: "/api" });
  await app.register(payoutRoutes, { prefix: "/api" });
  if (env.NODE_ENV === "test") await app.register(testClockRoutes, { prefix: "/api" });
  await app.register(earningsRoutes, { prefix: "/api" });
  await app.register(taxRoutes, { prefix: "/api" });
  await app.register(financeRoutes, { prefix: "/api" });
  await app.register(adminOverviewRoutes, { prefix: "/api" });
  await app.register(feeRoutes, { prefix: "/api" });
  await app.register(storefrontRoutes, { prefix: "/api" });
  await app.register(sellerApiRoutes, { prefix: "/api" });
  await app.register(usageRoutes, { prefix: "/api" });
  await app.register(sellerWebhookRoutes, { prefix: "/api" });
  await app.register(seoRoutes);
  await app.register(webRoutes, { webRoot: options.webRoot ?? null });

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
