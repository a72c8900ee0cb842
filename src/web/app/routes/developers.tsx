import type { ReactNode } from "react";
import { useSyncExternalStore } from "react";
import { Link } from "react-router";
import type { z } from "zod";
import { dashboardViewTitles } from "#domain/dashboard-titles";
import { RECEIVED_ORDERS_PAGE_SIZE, type ReceivedOrder } from "#domain/earnings";
import type { pageQuery } from "#domain/endpoint";
import type { sellerApiExternalEndpoints } from "#domain/endpoints/seller-api";
import type { usageExternalEndpoints } from "#domain/endpoints/usage";
import { errorStatus, type ServerErrorCode } from "#domain/error-codes";
import {
  LICENSE_CHECKS_PER_MINUTE,
  LICENSE_KEYS_PATH,
  type LicenseActivationAnswer,
  type LicenseCheckAnswer,
  type LicenseFile,
  type LicenseFilePayload,
  type LicenseKeySet,
  licenseCheckStatuses,
  licenseCheckStatusMeaning,
  MAX_MACHINE_ID,
  MAX_MACHINE_LABEL,
  type SellerLicense,
  type SellerLicenseDetail,
} from "#domain/license-schemas";
import { DEFAULT_LICENSE_ACTIVATION_STALE_DAYS, VALID_LICENSE_STATUSES } from "#domain/licenses";
import {
  CAP_ALERT_LEVELS,
  MAX_PERIOD_USAGE,
  MAX_USAGE_BATCH,
  USAGE_CLOCK_SKEW_MS,
  USAGE_GRACE_MS,
  type UsageBatchAnswer,
  type UsageRecordInput,
  type UsageSummary,
} from "#domain/metering";
import type { Paged } from "#domain/paging";
import { paths } from "#domain/routes";
import {
  MAX_SELLER_API_KEYS,
  SELLER_API_CALLS_PER_MINUTE,
  SELLER_API_KEY_PATTERN,
  SELLER_API_LOG_DAYS,
  type SellerApiScope,
  type SellerApiWhoAmI,
  sellerApiScopeInfo,
  sellerApiScopes,
} from "#domain/seller-api";
import {
  MAX_SELLER_WEBHOOK_ENDPOINTS,
  type SellerWebhookDelivery,
  type SellerWebhookDeliveryPage,
  type SellerWebhookEndpoint,
  type SellerWebhookEndpointList,
  type SellerWebhookInput,
  type SellerWebhookIssued,
  type SellerWebhookPayload,
  type SellerWebhookUpdate,
  sellerWebhookEventInfo,
  sellerWebhookEvents,
  WEBHOOK_RETRY_DAYS,
  WEBHOOK_SECRET_OVERLAP_HOURS,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMEOUT_SECONDS,
  WEBHOOK_TOLERANCE_SECONDS,
  webhookRetryDelaySeconds,
} from "#domain/seller-webhooks";
import {
  type SellerSubscriptionReport,
  SUBSCRIPTION_REPORT_PAGE_SIZE,
  type sellerSubscriptionsQuery,
} from "#domain/subscription-report-schemas";
import { DocumentLayout, type DocumentSection } from "#web/components/layout/document-layout";
import { PageHeader } from "#web/components/layout/page-header";
import {
  Table,
  TableBody,
  TableCell,
  TableFrame,
  TableHead,
  TableHeader,
  TableRow,
} from "#web/components/ui/table";
import { cn } from "#web/lib/utils";

/**
 * The public page for sellers' developers (`/developers`): how the seller API (`/api/seller/v1`) is
 * called, what each key and scope may read, and how it refuses. Every figure and name it states comes
 * from the domain (`#domain/seller-api`, the error codes, the endpoint declarations), so the page cannot
 * drift from what the server does. Drawn on the server like the other information pages.
 */

/** The lengths the key format names, read from the pattern itself: the id's, then the secret's. */
const [ID_LENGTH = 0, SECRET_LENGTH = 0] = Array.from(
  SELLER_API_KEY_PATTERN.source.matchAll(/\{(\d+)\}/g),
  (match) => Number(match[1]),
);
/** A key of the right shape that is plainly not a real one. */
const EXAMPLE_PREFIX = `sbk_${"a1b2c3d4e5f6g7h8i9j0k1".slice(0, ID_LENGTH)}`;
const EXAMPLE_KEY = `${EXAMPLE_PREFIX}_${"your_secret_".padEnd(SECRET_LENGTH, "x")}`;

/** The site's own address in the examples once the browser knows it; a placeholder in the drawn page. */
const EXAMPLE_ORIGIN = "https://stackbay.example";
const noChange = () => () => {};
const useOrigin = () =>
  useSyncExternalStore(
    noChange,
    () => window.location.origin,
    () => EXAMPLE_ORIGIN,
  );

type OperationKey = keyof typeof sellerApiExternalEndpoints | keyof typeof usageExternalEndpoints;
const methodOf = (operation: OperationKey) => operation.slice(0, operation.indexOf(" "));
/** The full path a caller writes: the declarations are relative to `/api`. */
const pathOf = (operation: OperationKey) => `/api${operation.slice(operation.indexOf(" ") + 1)}`;
/** `op-orders` for a read, `op-post-webhooks-id-rotate` for a write: unique, and the same for the first operations as before. */
const operationId = (operation: OperationKey) => {
  const method = methodOf(operation);
  const rest = operation
    .slice(operation.indexOf("/seller/v1/") + "/seller/v1/".length)
    .replaceAll(":", "")
    .replaceAll("/", "-");
  return `op-${method === "GET" ? "" : `${method.toLowerCase()}-`}${rest}`;
};

/** Example ids put in the paths of the examples. */
const EXAMPLE_LICENSE_ID = "6b1d0f3e-8c2a-4e57-9f41-2a7c5e9d0b18";
const EXAMPLE_ACTIVATION_ID = "c4a8e2f0-3b6d-4d19-8e7a-5f0b2c9d1e36";
const EXAMPLE_SUBSCRIPTION_ID = "9d2f7a41-0c3e-4b86-a5d1-7e6f2b8c4a03";
const EXAMPLE_WEBHOOK_ID = "3d6f1a2b-8c4e-4f7a-9b1d-2e5c7a9f0b13";
const EXAMPLE_DELIVERY_ID = "6e5d4c3b-2a19-4f8e-9d7c-6b5a49382716";
/** The path a caller writes, with example ids for its `:params`. */
const examplePath = (operation: OperationKey) => {
  const path = pathOf(operation);
  const id = path.includes("/subscriptions/")
    ? EXAMPLE_SUBSCRIPTION_ID
    : path.includes("/webhooks/")
      ? EXAMPLE_WEBHOOK_ID
      : path.includes("/webhook-deliveries/")
        ? EXAMPLE_DELIVERY_ID
        : EXAMPLE_LICENSE_ID;
  return path.replace(":id", id).replace(":activationId", EXAMPLE_ACTIVATION_ID);
};

// Example answers, typed by the domain's own schemas: an answer's shape that changes fails the typecheck here.
const at = (day: number, time: string) => `2025-06-${String(day).padStart(2, "0")}T${time}.000Z`;

const whoAmIExample: SellerApiWhoAmI = {
  key: { name: "Warehouse sync", prefix: EXAMPLE_PREFIX, scopes: ["orders:read"] },
  seller: { id: "5f0c9a8e-2d41-4b7a-9c3e-81d2f6a4b019", storefront: "Northwind Devices" },
};

const ordersExample: Paged<ReceivedOrder> = {
  items: [
    {
      orderId: "b7e2d4c1-6a3f-4e8b-9d05-3c1f7a2e9b64",
      placedAt: at(3, "14:12:09"),
      buyer: "Contoso Ltd",
      items: [
        {
          id: "0e9d8c7b-6a5f-4e3d-8c2b-1a0f9e8d7c6b",
          productName: "Edge Gateway EG-200",
          quantity: 2,
          price: 349.5,
          pricingUnit: "unit",
          refunded: false,
          shipping: {
            state: "shipped",
            carrier: "DHL",
            trackingNumber: "JD014600006281",
            shippedAt: at(4, "09:30:00"),
            deliveredAt: null,
            deliveredBy: null,
          },
        },
        {
          id: "4c3b2a19-0f8e-4d7c-b6a5-9e8d7c6b5a40",
          productName: "Gateway Manager licence",
          quantity: 1,
          price: 120,
          pricingUnit: "one_time",
          refunded: false,
          shipping: null,
        },
      ],
      amount: 819,
    },
  ],
  total: 37,
  page: 1,
  pageSize: RECEIVED_ORDERS_PAGE_SIZE,
};

const subscriptionsExample: SellerSubscriptionReport = {
  figures: {
    monthStart: at(1, "00:00:00"),
    active: 11,
    cancelling: 1,
    pastDue: 1,
    endedThisMonth: 0,
    endedUnpaidThisMonth: 0,
    trialing: 2,
    trialsConvertedThisMonth: 1,
    trialsLostThisMonth: 0,
    mrr: "612.5000",
    mrrAtMonthStart: "563.5000",
    newMrr: "49.0000",
    expansionMrr: "0.0000",
    contractionMrr: "0.0000",
    churnedMrr: "0.0000",
  },
  pastDue: {
    items: [
      {
        subscriptionId: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
        productId: "3d2c1b0a-9f8e-4d7c-a6b5-4c3d2e1f0a9b",
        productName: "Fleet Monitor",
        buyer: "Maria",
        interval: "month",
        quantity: 5,
        amountDue: "147.0000",
        dueAt: at(2, "00:00:00"),
        remindersSent: 1,
        nextReminderAt: at(5, "00:00:00"),
        endsAt: at(16, "00:00:00"),
      },
    ],
    total: 1,
    page: 1,
    pageSize: SUBSCRIPTION_REPORT_PAGE_SIZE,
  },
  live: {
    items: [
      {
        subscriptionId: "1f2e3d4c-5b6a-4978-8f6e-5d4c3b2a1f0e",
        productId: "3d2c1b0a-9f8e-4d7c-a6b5-4c3d2e1f0a9b",
        productName: "Fleet Monitor",
        buyer: "James",
        interval: "year",
        quantity: 10,
        status: "active",
        periodAmount: "2940.0000",
        monthlyAmount: "245.0000",
        startedAt: at(1, "10:04:51"),
        renewsAt: "2026-06-01T10:04:51.000Z",
        endsAt: null,
      },
    ],
    total: 15,
    page: 1,
    pageSize: SUBSCRIPTION_REPORT_PAGE_SIZE,
  },
};

const exampleKey = "7KQ2-M9XH-4TRW-PBC3";

const sellerLicenseExample: SellerLicense = {
  id: EXAMPLE_LICENSE_ID,
  key: exampleKey,
  productId: "3d2c1b0a-9f8e-4d7c-a6b5-4c3d2e1f0a9b",
  productName: "Fleet Monitor",
  orderId: "b7e2d4c1-6a3f-4e8b-9d05-3c1f7a2e9b64",
  status: "active",
  seats: 1,
  seatsUsed: 1,
  issuedAt: at(3, "14:12:09"),
  renewsAt: "2026-06-03T14:12:09.000Z",
  revokedAt: null,
  suspendedAt: null,
};

const sellerLicenseDetailExample: SellerLicenseDetail = {
  ...sellerLicenseExample,
  activations: [
    {
      id: EXAMPLE_ACTIVATION_ID,
      machine: "a3f9c2e1-workstation-07",
      label: "Front desk PC",
      activatedAt: at(3, "15:01:44"),
      lastSeenAt: at(9, "08:30:12"),
    },
  ],
};

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** Code in a sentence; `nowrap` for a name in a table's column (a scope, an error code), never split. */
function InlineCode({ children, nowrap = false }: { children: ReactNode; nowrap?: boolean }) {
  return (
    <code
      className={cn(
        "rounded-sm bg-muted px-1 py-0.5 font-mono text-[0.875em] text-foreground",
        nowrap ? "whitespace-nowrap" : "wrap-anywhere",
      )}
    >
      {children}
    </code>
  );
}

/**
 * A block of code under its caption: monospace, and scrolling sideways inside its own box (never the
 * page) when a line is longer than the box; the keyboard reaches it to scroll it.
 */
function CodeBlock({ caption, children }: { caption: string; children: string }) {
  return (
    <figure className="min-w-0">
      <figcaption className="mb-1.5 text-xs font-semibold tracking-wider text-muted-foreground uppercase">
        {caption}
      </figcaption>
      <pre
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a box that scrolls must be reachable by keyboard
        tabIndex={0}
        data-testid="code-block"
        className="overflow-x-auto rounded-lg border border-border bg-muted px-4 py-3 font-mono text-[0.8125rem] leading-relaxed text-foreground"
      >
        <code>{children}</code>
      </pre>
    </figure>
  );
}

/** A `curl` call of an operation with the example key, at this site's address; a write sends `-X` and its JSON body. */
function Curl({ operation, query = "", body }: { operation: OperationKey; query?: string; body?: unknown }) {
  const origin = useOrigin();
  const method = methodOf(operation);
  const data =
    body === undefined
      ? ""
      : ` \\\n  -H "Content-Type: application/json" \\\n  -d '${JSON.stringify(body, null, 2).replaceAll("\n", "\n     ")}'`;
  return (
    <CodeBlock caption="Request">
      {`curl ${method === "GET" ? "" : `-X ${method} `}"${origin}${examplePath(operation)}${query}" \\\n  -H "Authorization: Bearer ${EXAMPLE_KEY}"${data}`}
    </CodeBlock>
  );
}

function ScopeName({ scope }: { scope: SellerApiScope | null }) {
  if (!scope) return <>None: any active key may call it</>;
  return (
    <>
      <InlineCode>{scope}</InlineCode> ({sellerApiScopeInfo[scope].label})
    </>
  );
}

type Operation = {
  scope: SellerApiScope | null;
  answers: ReactNode;
  /** The query parameters it reads, each with what it does. */
  params: { name: string; text: ReactNode }[];
  /** The example request's query string. */
  query?: string;
  /** The example request's JSON body, for a write. */
  body?: unknown;
  /** The success status when it is not 200. */
  status?: number;
  example: unknown;
};

type PageParam = keyof z.input<typeof pageQuery>;
type SubscriptionParam = keyof z.input<typeof sellerSubscriptionsQuery>;
const pageParam: Record<PageParam, ReactNode> = {
  page: "Which page of orders, from 1 (the default).",
};
const subscriptionParams: Record<SubscriptionParam, ReactNode> = {
  page: (
    <>
      Which page of <InlineCode>live</InlineCode>, from 1 (the default).
    </>
  ),
  duePage: (
    <>
      Which page of <InlineCode>pastDue</InlineCode>, from 1 (the default).
    </>
  ),
};
const paramList = (params: Record<string, ReactNode>) =>
  Object.entries(params).map(([name, text]) => ({ name, text }));

const usageRecordExample: UsageRecordInput = {
  subscriptionId: EXAMPLE_SUBSCRIPTION_ID,
  quantity: 1840,
  usedAt: at(10, "13:00:00"),
  idempotencyKey: "lookups-2025-06-10T13",
};

const usageSummaryExample: UsageSummary = {
  unit: "call",
  tiers: [
    { upTo: 10000, unitPrice: "0.0020" },
    { upTo: 100000, unitPrice: "0.0015" },
    { upTo: null, unitPrice: "0.0010" },
  ],
  periodStart: at(1, "09:30:00"),
  periodEnd: "2025-07-01T09:30:00.000Z",
  quantity: 23450,
  usageAmount: "40.1800",
  estimate: "89.1800",
  cap: "100.0000",
  alerts: [],
  overCap: false,
};

// Webhooks (decision 0030): examples typed by the domain's schemas, like the others.
const EXAMPLE_ENDPOINT_ID = "3d6f1a2b-8c4e-4f7a-9b1d-2e5c7a9f0b13";
const EXAMPLE_SECRET = `whsec_${"your_signing_secret_".padEnd(43, "x")}`;
const endpointExample: SellerWebhookEndpoint = {
  id: EXAMPLE_ENDPOINT_ID,
  url: "https://hooks.northwind.example/stackbay",
  description: "Provisioning",
  events: ["order.paid", "subscription.started", "subscription.ended"],
  createdAt: at(2, "10:00:00"),
  rotatedAt: null,
  previousSecretUntil: null,
  disabledAt: null,
  failingSince: null,
};
const issuedExample: SellerWebhookIssued = { endpoint: endpointExample, secret: EXAMPLE_SECRET };
const webhookInputExample: SellerWebhookInput = {
  url: endpointExample.url,
  description: endpointExample.description,
  events: endpointExample.events,
};
const webhookUpdateExample: SellerWebhookUpdate = { events: ["order.paid", "refund.requested"] };
const payloadExample: SellerWebhookPayload = {
  id: "evt_5b1e0c9d7a3f4e2b8c6d1a0f9e8d7c6b",
  type: "order.paid",
  createdAt: at(3, "14:12:09"),
  data: {
    orderId: "b7e2d4c1-6a3f-4e8b-9d05-3c1f7a2e9b64",
    paidAt: at(3, "14:12:09"),
    currency: "USD",
    items: [
      {
        orderItemId: "4c3b2a19-0f8e-4d7c-b6a5-9e8d7c6b5a40",
        productId: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
        productName: "Gateway Manager licence",
        quantity: 1,
        unitPrice: "120.0000",
      },
    ],
  },
};
const deliveryExample: SellerWebhookDelivery = {
  id: "6e5d4c3b-2a19-4f8e-9d7c-6b5a49382716",
  endpointId: EXAMPLE_ENDPOINT_ID,
  endpointUrl: endpointExample.url,
  eventId: payloadExample.id,
  eventType: payloadExample.type,
  status: "succeeded",
  attempts: 1,
  responseStatus: 200,
  durationMs: 84,
  lastError: null,
  lastAttemptAt: at(3, "14:12:40"),
  nextAttemptAt: null,
  createdAt: at(3, "14:12:09"),
  payload: payloadExample,
};
const endpointListExample: SellerWebhookEndpointList = { items: [endpointExample] };
const deliveryPageExample: SellerWebhookDeliveryPage = {
  items: [deliveryExample],
  total: 1,
  page: 1,
  pageSize: 20,
};

const webhookOperations = {
  "GET /seller/v1/webhooks": {
    scope: "webhooks:write",
    answers: (
      <p>
        Your webhook endpoints, newest first: URL, description, events, and whether each is on. Never a
        secret.
      </p>
    ),
    params: [],
    example: endpointListExample,
  },
  "POST /seller/v1/webhooks": {
    scope: "webhooks:write",
    answers: (
      <p>
        Registers an endpoint for the events you choose (at most {MAX_SELLER_WEBHOOK_ENDPOINTS}). The answer
        holds its signing secret, the only time it is shown. A URL Stackbay will not post to answers{" "}
        <InlineCode>WEBHOOK_URL_REFUSED</InlineCode> with the reason.
      </p>
    ),
    params: [],
    body: webhookInputExample,
    status: 201,
    example: issuedExample,
  },
  "PATCH /seller/v1/webhooks/:id": {
    scope: "webhooks:write",
    answers: (
      <p>
        Changes any of <InlineCode>url</InlineCode>, <InlineCode>description</InlineCode> and{" "}
        <InlineCode>events</InlineCode>; <InlineCode>{`"enabled": true`}</InlineCode> turns an endpoint that
        was turned off back on, <InlineCode>{`"enabled": false`}</InlineCode> turns it off.
      </p>
    ),
    params: [],
    body: webhookUpdateExample,
    example: endpointExample,
  },
  "DELETE /seller/v1/webhooks/:id": {
    scope: "webhooks:write",
    answers: <p>Deletes the endpoint and its deliveries; answers your endpoints.</p>,
    params: [],
    example: { items: [] } satisfies SellerWebhookEndpointList,
  },
  "POST /seller/v1/webhooks/:id/rotate": {
    scope: "webhooks:write",
    answers: (
      <p>
        Makes a new signing secret, shown once. The secret it replaces signs beside it for{" "}
        {WEBHOOK_SECRET_OVERLAP_HOURS} hours.
      </p>
    ),
    params: [],
    example: {
      endpoint: { ...endpointExample, rotatedAt: at(5, "08:00:00"), previousSecretUntil: at(6, "08:00:00") },
      secret: EXAMPLE_SECRET,
    } satisfies SellerWebhookIssued,
  },
  "POST /seller/v1/webhooks/:id/test": {
    scope: "webhooks:write",
    answers: (
      <p>
        Posts a <InlineCode>ping</InlineCode> event to the endpoint now, once, and answers its delivery.
      </p>
    ),
    params: [],
    status: 201,
    example: {
      ...deliveryExample,
      eventType: "ping",
      payload: { ...payloadExample, type: "ping", data: { message: "A test event sent from Stackbay." } },
    } satisfies SellerWebhookDelivery,
  },
  "GET /seller/v1/webhook-deliveries": {
    scope: "webhooks:write",
    answers: <p>Your deliveries, newest first, each with its payload, status and last attempt.</p>,
    params: [
      { name: "page", text: "Which page, from 1 (the default)." },
      { name: "endpointId", text: "Only this endpoint's deliveries." },
    ],
    query: "?page=1",
    example: deliveryPageExample,
  },
  "POST /seller/v1/webhook-deliveries/:id/replay": {
    scope: "webhooks:write",
    answers: <p>Posts the delivery's event again now, with the same id, once; answers the delivery.</p>,
    params: [],
    example: { ...deliveryExample, attempts: 2 } satisfies SellerWebhookDelivery,
  },
} satisfies Partial<Record<OperationKey, Operation>>;

/** Every operation of the seller API, as the endpoint declarations name them. */
const operations: Record<OperationKey, Operation> = {
  "GET /seller/v1/key": {
    scope: null,
    answers: (
      <p>
        Which key made the call and whose it is: the key's name, prefix and scopes, your seller id and your
        storefront's name (<InlineCode>null</InlineCode> if you have none). Call it to check that a key works.
      </p>
    ),
    params: [],
    example: whoAmIExample,
  },
  "GET /seller/v1/orders": {
    scope: "orders:read",
    answers: (
      <p>
        The paid orders you received, newest first, a page at a time. Each names the buyer (the company on the
        invoice, else the billing name) and holds only your items, never another seller's: each with its
        product, quantity, unit price, pricing unit, whether it was refunded and, for a physical item, its
        shipping. <InlineCode>amount</InlineCode> is your items' total before fees.
      </p>
    ),
    params: paramList(pageParam),
    query: "?page=1",
    example: ordersExample,
  },
  "GET /seller/v1/subscriptions": {
    scope: "subscriptions:read",
    answers: (
      <p>
        Your products' subscriptions, as your dashboard's {dashboardViewTitles.recurring} view shows them:{" "}
        <InlineCode>figures</InlineCode> (counts, monthly recurring revenue and this month's movement),{" "}
        <InlineCode>pastDue</InlineCode> (renewals waiting to be paid) and <InlineCode>live</InlineCode>{" "}
        (subscriptions that have not ended). Buyers appear by first name only.
      </p>
    ),
    params: paramList(subscriptionParams),
    query: "?page=1&duePage=1",
    example: subscriptionsExample,
  },
  "GET /seller/v1/licenses": {
    scope: "licenses:write",
    answers: (
      <p>
        The license keys of your products, newest first, a page at a time: each with its product, order,
        status (<InlineCode>active</InlineCode>, <InlineCode>suspended</InlineCode> or{" "}
        <InlineCode>revoked</InlineCode>), <InlineCode>seats</InlineCode> and{" "}
        <InlineCode>seatsUsed</InlineCode> (the machines it is activated on).
      </p>
    ),
    params: paramList({ page: "Which page of licenses, from 1 (the default)." }),
    query: "?page=1",
    example: {
      items: [sellerLicenseExample],
      total: 12,
      page: 1,
      pageSize: 50,
    } satisfies Paged<SellerLicense>,
  },
  "GET /seller/v1/licenses/:id": {
    scope: "licenses:write",
    answers: (
      <p>
        One license key with the machines it is activated on: each machine's identifier, label, when it was
        activated and when it last checked in. Another seller's license answers 404{" "}
        <InlineCode>LICENSE_NOT_FOUND</InlineCode>.
      </p>
    ),
    params: [],
    example: sellerLicenseDetailExample,
  },
  "POST /seller/v1/licenses/:id/suspend": {
    scope: "licenses:write",
    answers: (
      <p>
        Suspends a key: from now on its checks answer <InlineCode>suspended</InlineCode> (not valid), and it
        cannot be activated on another machine or downloaded as an offline license. Its activations stay.
        Suspending a suspended key changes nothing; a revoked key answers 409{" "}
        <InlineCode>LICENSE_REVOKED</InlineCode>. Answers the license; the change is written to the audit log.
      </p>
    ),
    params: [],
    example: { ...sellerLicenseDetailExample, status: "suspended", suspendedAt: at(10, "11:00:00") },
  },
  "POST /seller/v1/licenses/:id/reinstate": {
    scope: "licenses:write",
    answers: (
      <p>
        Reinstates a suspended key: it reads as before (active, or as its subscription reads). Reinstating an
        active key changes nothing; a revoked key answers 409 <InlineCode>LICENSE_REVOKED</InlineCode>.
        Answers the license; the change is written to the audit log.
      </p>
    ),
    params: [],
    example: sellerLicenseDetailExample,
  },
  "DELETE /seller/v1/licenses/:id/activations/:activationId": {
    scope: "licenses:write",
    answers: (
      <p>
        Deactivates the key on one machine, freeing its seat, for instance when a buyer has lost the machine.
        A machine that is not activated answers 404 <InlineCode>LICENSE_ACTIVATION_NOT_FOUND</InlineCode>.
        Answers the license.
      </p>
    ),
    params: [],
    example: { ...sellerLicenseDetailExample, seatsUsed: 0, activations: [] },
  },
  "POST /seller/v1/usage": {
    scope: "usage:write",
    answers: (
      <p>
        Reports one record of use of a metered subscription, named by its{" "}
        <InlineCode>subscriptionId</InlineCode> or by one of its <InlineCode>licenseKey</InlineCode>s. The
        answer is <InlineCode>recorded</InlineCode>, or <InlineCode>duplicate</InlineCode> when its{" "}
        <InlineCode>idempotencyKey</InlineCode> was used before (the record is not counted again). A refused
        record answers its error; see <a href="#usage">Reporting usage</a>.
      </p>
    ),
    params: [],
    body: usageRecordExample,
    example: { status: "recorded", id: "3f6a9c2e-1b7d-4e08-9a5c-6d2e8f1b0a47", code: null, message: null },
  },
  "POST /seller/v1/usage/batch": {
    scope: "usage:write",
    answers: (
      <p>
        Reports up to {MAX_USAGE_BATCH.toLocaleString("en-US")} records at once, each checked as a single
        record is. The call answers 200 with one result per record, in the order sent: a refused record does
        not stop the others, so read <InlineCode>results</InlineCode> and send the refused ones again only
        once you have corrected them.
      </p>
    ),
    params: [],
    body: {
      records: [
        usageRecordExample,
        {
          ...usageRecordExample,
          quantity: -120,
          idempotencyKey: "fix-2025-06-10",
          reason: "Retried calls counted twice",
        },
      ],
    },
    example: {
      recorded: 1,
      duplicates: 1,
      refused: 0,
      results: [
        { status: "duplicate", id: "3f6a9c2e-1b7d-4e08-9a5c-6d2e8f1b0a47", code: null, message: null },
        { status: "recorded", id: "8b1e4d7a-2c9f-4a36-b0e5-1f7c3a9d6e22", code: null, message: null },
      ],
    } satisfies UsageBatchAnswer,
  },
  "GET /seller/v1/subscriptions/:id/usage": {
    scope: "usage:write",
    answers: (
      <p>
        A metered subscription's current period: the use counted so far (corrections included), what it costs
        so far before tax, the estimated bill (the plan's fixed fee, if any, and the use), and the buyer's
        spending cap with the alerts it has reached. Another seller's subscription answers 404.
      </p>
    ),
    params: [],
    example: usageSummaryExample,
  },
  ...webhookOperations,
};
const operationKeys = Object.keys(operations) as OperationKey[];
const operationsOf = (scope: SellerApiScope) =>
  operationKeys.filter((key) => operations[key].scope === scope);

function MethodAndPath({ operation }: { operation: OperationKey }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-1 font-mono">
      <span className="rounded-sm bg-primary px-1.5 py-0.5 text-xs font-bold text-primary-foreground">
        {methodOf(operation)}
      </span>{" "}
      <span className="wrap-anywhere">{pathOf(operation)}</span>
    </span>
  );
}

/** The refusals a caller meets, in the order a call meets them. */
const errors: { code: ServerErrorCode; meaning: ReactNode; todo: ReactNode }[] = [
  {
    code: "API_KEY_INVALID",
    meaning:
      "The key is missing, malformed or unknown, has been revoked, carries a secret that was since rolled, or belongs to an account that no longer sells on Stackbay.",
    todo: "Check the Authorization header. Use the key's current secret, or make a new key. Retrying with the same key gets the same answer.",
  },
  {
    code: "API_KEY_SCOPE",
    meaning: "The key lacks the scope the operation needs; the message names it.",
    todo: "Make a key with that scope, and revoke the old one if nothing else uses it.",
  },
  {
    code: "LICENSE_NOT_FOUND",
    meaning: "No license of your products has this id.",
    todo: "Check the id: it is the license's id from the list, not its key.",
  },
  {
    code: "LICENSE_ACTIVATION_NOT_FOUND",
    meaning: "The license is not activated on that machine (any more).",
    todo: "Read the license again: its activations list the machines it is activated on now.",
  },
  {
    code: "LICENSE_REVOKED",
    meaning: "The license was revoked for good (its purchase refunded, or its seat removed).",
    todo: "Nothing to suspend or reinstate: a revoked key stays revoked.",
  },
  {
    code: "USAGE_SUBSCRIPTION_NOT_FOUND",
    meaning: "No subscription of your products has this id or license key.",
    todo: "Check the id or key: a subscription of another seller's product is never yours to report.",
  },
  {
    code: "USAGE_NOT_METERED",
    meaning: "The subscription's plan is not metered, so it takes no usage.",
    todo: "Report use only for subscriptions to a metered plan.",
  },
  {
    code: "USAGE_OUT_OF_PERIOD",
    meaning: "usedAt is before the subscription started, after it ended, or in the future.",
    todo: "Send the time the use happened, in UTC, from a clock that is set right.",
  },
  {
    code: "USAGE_TOO_LATE",
    meaning: "The period the use belongs to is closed: it ended more than an hour ago and has been invoiced.",
    todo: "Report use as it happens. Use you missed cannot be billed any more.",
  },
  {
    code: "USAGE_CORRECTION_TOO_LARGE",
    meaning: "A correction would take the period's use below zero.",
    todo: "Correct no more than the period counts: read it first with the usage operation.",
  },
  {
    code: "USAGE_PERIOD_LIMIT",
    meaning: `The period would count more than ${MAX_PERIOD_USAGE.toLocaleString("en-US")} units.`,
    todo: "Contact us: a subscription using this much needs a plan made for it.",
  },
  {
    code: "VALIDATION_ERROR",
    meaning: (
      <>
        The query or body is not valid, such as <InlineCode>page=0</InlineCode>;{" "}
        <InlineCode>details</InlineCode> names the fields.
      </>
    ),
    todo: "Correct the request. Sent again unchanged, it is refused again.",
  },
  {
    code: "RATE_LIMITED",
    meaning: `The key made more than ${SELLER_API_CALLS_PER_MINUTE} calls within a minute.`,
    todo: (
      <>
        Wait the number of seconds in the <InlineCode>Retry-After</InlineCode> header, then retry.
      </>
    ),
  },
  {
    code: "SERVICE_BUSY",
    meaning: "The server is shedding load for a moment.",
    todo: "Retry later, waiting longer after each failed try.",
  },
  {
    code: "INTERNAL_ERROR",
    meaning: "Something failed on Stackbay's side.",
    todo: (
      <>
        Retry later. If it keeps happening, <Link to={paths.contact()}>contact us</Link> with the time of the
        call.
      </>
    ),
  },
];

const scopeError = {
  code: "API_KEY_SCOPE",
  message: `This key may not do this: it needs the "orders:read" scope (${sellerApiScopeInfo["orders:read"].label}).`,
} as const;

/** Typography of the sections' plain elements, as the other long information pages set it. */
const dashboardApi = paths.dashboard("api");

function ApiKeysLink() {
  return <Link to={dashboardApi}>{dashboardViewTitles.api}</Link>;
}

function Authentication() {
  return (
    <>
      <p>
        Send a key in the <InlineCode>Authorization</InlineCode> header of every call, as a bearer token. A
        signed-in browser session is not enough: without a valid key, every operation answers 401.
      </p>
      <Curl operation="GET /seller/v1/key" />
      <p>Every key has this form:</p>
      <CodeBlock caption="Key format">{SELLER_API_KEY_PATTERN.source}</CodeBlock>
      <p>
        It starts with <InlineCode>sbk_</InlineCode> and an id of {ID_LENGTH} lowercase letters and digits.
        That part (<InlineCode>{EXAMPLE_PREFIX}</InlineCode> above) is the key's prefix: it names the key in
        your list of keys and in the access log, and is no use without the rest. After a{" "}
        <InlineCode>_</InlineCode> comes the secret: {SECRET_LENGTH} letters, digits,{" "}
        <InlineCode>-</InlineCode> and <InlineCode>_</InlineCode>.
      </p>
      <h3>Making and managing keys</h3>
      <ul>
        <li>
          On your dashboard, under <ApiKeysLink />, make a key: name it after what will use it and choose its
          scopes.
        </li>
        <li>
          The whole key is shown once, when it is made. Stackbay stores only a hash of it, so nobody can show
          it to you again: put it in your system's secret store straight away.
        </li>
        <li>
          <strong>Roll secret</strong> gives a key a new secret at once: the old secret stops working that
          moment, and the new one is shown once. The key keeps its name, prefix and scopes.
        </li>
        <li>
          <strong>Revoke</strong> ends a key for good.
        </li>
        <li>
          A key's scopes are chosen when it is made. To change them, make a new key and revoke the old one.
        </li>
        <li>You can hold up to {MAX_SELLER_API_KEYS} active keys; revoked keys do not count.</li>
      </ul>
    </>
  );
}

function Scopes() {
  return (
    <>
      <p>
        A key may call only the operations its scopes open.{" "}
        <InlineCode>{pathOf("GET /seller/v1/key")}</InlineCode> needs none: any active key may call it.
      </p>
      <TableFrame aria-label="Scopes and the operations they open">
        <Table className="min-w-[40rem]" data-testid="scopes-table">
          <TableHeader>
            <TableHead>Scope</TableHead>
            <TableHead>On the dashboard</TableHead>
            <TableHead>What it opens</TableHead>
            <TableHead>Operations</TableHead>
          </TableHeader>
          <TableBody>
            {sellerApiScopes.map((scope) => (
              <TableRow key={scope} className="align-top">
                <TableCell>
                  <InlineCode nowrap>{scope}</InlineCode>
                </TableCell>
                <TableCell>{sellerApiScopeInfo[scope].label}</TableCell>
                <TableCell className="text-muted-foreground">{sellerApiScopeInfo[scope].grants}</TableCell>
                <TableCell>
                  {operationsOf(scope).map((operation) => (
                    <a
                      key={operation}
                      href={`#${operationId(operation)}`}
                      className="block font-mono text-xs break-all"
                    >
                      {methodOf(operation)} {pathOf(operation)}
                    </a>
                  ))}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableFrame>
    </>
  );
}

function Operations() {
  return (
    <>
      <p>
        The orders and subscriptions operations read; the others report usage, manage license keys and manage
        your <a href="#webhooks">webhook endpoints</a>. Bodies and answers are JSON. The{" "}
        <a href="#openapi">OpenAPI document</a> gives every field of every answer.
      </p>
      {operationKeys.map((operation) => {
        const { scope, answers, params, query, body, status = 200, example } = operations[operation];
        return (
          <div key={operation} id={operationId(operation)} className="space-y-4" data-testid="operation">
            <h3>
              <MethodAndPath operation={operation} />
            </h3>
            <p className="text-sm">
              <span className="font-semibold text-foreground">Scope:</span> <ScopeName scope={scope} />
            </p>
            {answers}
            {params.length > 0 && (
              <div>
                <p className="mb-1.5 text-xs font-semibold tracking-wider text-muted-foreground uppercase">
                  Query parameters
                </p>
                <dl className="space-y-1.5 text-sm">
                  {params.map((param) => (
                    <div key={param.name} className="grid grid-cols-[5.5rem_minmax(0,1fr)] gap-x-2">
                      <dt>
                        <InlineCode>{param.name}</InlineCode>
                      </dt>
                      <dd className="text-muted-foreground">{param.text}</dd>
                    </div>
                  ))}
                </dl>
              </div>
            )}
            <Curl operation={operation} query={query} body={body} />
            <CodeBlock caption={`Answer (${status})`}>{json(example)}</CodeBlock>
          </div>
        );
      })}
    </>
  );
}

function Paging() {
  return (
    <>
      <p>
        Lists come a page at a time. Ask for a page with <InlineCode>?page=</InlineCode>, counting from 1;
        without it you get page 1. A list answers:
      </p>
      <CodeBlock caption="A page of a list">
        {json({ items: ["…"], total: 37, page: 1, pageSize: RECEIVED_ORDERS_PAGE_SIZE })}
      </CodeBlock>
      <p>
        <InlineCode>total</InlineCode> counts the items of every page, so the last page is{" "}
        <InlineCode>ceil(total / pageSize)</InlineCode>. The subscription report holds two lists, each paged
        on its own: <InlineCode>page</InlineCode> pages <InlineCode>live</InlineCode> and{" "}
        <InlineCode>duePage</InlineCode> pages <InlineCode>pastDue</InlineCode>.
      </p>
      <h3>Amounts and times</h3>
      <ul>
        <li>
          Amounts are in US dollars. In orders they are numbers with cents (<InlineCode>349.5</InlineCode> is
          $349.50). In the subscription report they are strings with four decimals (
          <InlineCode>"49.0000"</InlineCode>): read them as decimals, not as floating-point numbers.
        </li>
        <li>
          Times are ISO 8601 in UTC, such as <InlineCode>{at(3, "14:12:09")}</InlineCode>.
        </li>
      </ul>
    </>
  );
}

function Errors() {
  return (
    <>
      <p>
        A refused call answers an HTTP status and a JSON body with a <InlineCode>code</InlineCode>, a{" "}
        <InlineCode>message</InlineCode> for people and, for some errors, <InlineCode>details</InlineCode>:
      </p>
      <CodeBlock caption={`Answer (${errorStatus.API_KEY_SCOPE})`}>{json(scopeError)}</CodeBlock>
      <p>
        Branch on <InlineCode>code</InlineCode>, never on the message: codes stay, messages may be reworded.
      </p>
      <TableFrame aria-label="Error codes">
        <Table className="min-w-[44rem]" data-testid="errors-table">
          <TableHeader>
            <TableHead>Status</TableHead>
            <TableHead>Code</TableHead>
            <TableHead>What it means</TableHead>
            <TableHead>What to do</TableHead>
          </TableHeader>
          <TableBody>
            {errors.map(({ code, meaning, todo }) => (
              <TableRow key={code} className="align-top">
                <TableCell className="tabular-nums">{errorStatus[code]}</TableCell>
                <TableCell>
                  <InlineCode nowrap>{code}</InlineCode>
                </TableCell>
                {/* One element per cell: stacked as a card on a phone, a cell's parts stay one block. */}
                <TableCell>
                  <div>{meaning}</div>
                </TableCell>
                <TableCell className="text-muted-foreground">
                  <div>{todo}</div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableFrame>
    </>
  );
}

function RateLimits() {
  return (
    <>
      <p>
        Each key may make {SELLER_API_CALLS_PER_MINUTE} calls a minute, counted for that key alone. A call
        over the limit answers {errorStatus.RATE_LIMITED} <InlineCode>RATE_LIMITED</InlineCode> with a{" "}
        <InlineCode>Retry-After</InlineCode> header: the seconds to wait before calling again.
      </p>
      <p>
        When the server is shedding load it answers {errorStatus.SERVICE_BUSY}{" "}
        <InlineCode>SERVICE_BUSY</InlineCode>: try again a little later. Spread regular work out rather than
        sending it all at once, and read a list one page after another.
      </p>
    </>
  );
}

const licenseCheckExample: LicenseCheckAnswer = {
  valid: true,
  status: "past_due",
  product: "Northwind Inventory Cloud",
  renewsAt: at(30, "09:00:00"),
  seats: 1,
  seatsUsed: 1,
  activated: true,
};

const activationExample: LicenseActivationAnswer = {
  valid: true,
  status: "active",
  product: "Northwind Inventory Cloud",
  seats: 1,
  seatsUsed: 1,
  activation: {
    machine: "a3f9c2e1-workstation-07",
    label: "Front desk PC",
    activatedAt: at(3, "15:01:44"),
    lastSeenAt: at(3, "15:01:44"),
  },
};

const filePayloadExample: LicenseFilePayload = {
  licenseId: EXAMPLE_LICENSE_ID,
  key: exampleKey,
  productId: "3d2c1b0a-9f8e-4d7c-a6b5-4c3d2e1f0a9b",
  productName: "Northwind Inventory Cloud",
  seats: 1,
  status: "active",
  issuedAt: at(9, "10:00:00"),
  expiresAt: "2026-06-10T14:12:09.000Z",
};

const licenseFileExample: LicenseFile = {
  format: "stackbay-license/1",
  kid: "3f6a0c9e2b1d4e87",
  alg: "EdDSA",
  payload: JSON.stringify(filePayloadExample),
  signature: "q1Xb…(base64)…Ag==",
};

const keySetExample: LicenseKeySet = {
  keys: [
    {
      kid: "3f6a0c9e2b1d4e87",
      kty: "OKP",
      crv: "Ed25519",
      alg: "EdDSA",
      use: "sig",
      x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
    },
  ],
};

function LicenseChecks() {
  const origin = useOrigin();
  return (
    <>
      <p>
        The software your buyers run checks its license key with{" "}
        <InlineCode nowrap>POST /api/licenses/validate</InlineCode>. It needs no API key (shipped software
        cannot keep one secret), answers nothing about who holds the key, and takes{" "}
        {LICENSE_CHECKS_PER_MINUTE} checks a minute from one address. Case and spaces around the key do not
        matter.
      </p>
      <CodeBlock caption="Request">
        {`curl "${origin}/api/licenses/validate" \\\n  -H "Content-Type: application/json" \\\n  -d '{"key": "${exampleKey}", "machine": "a3f9c2e1-workstation-07"}'`}
      </CodeBlock>
      <CodeBlock caption="Answer">{json(licenseCheckExample)}</CodeBlock>
      <p>
        <InlineCode>valid</InlineCode> says whether the software should go on working;{" "}
        <InlineCode>status</InlineCode> says why, so it can tell the person what to do;{" "}
        <InlineCode>renewsAt</InlineCode> is when a valid subscription renews (null for a perpetual license);{" "}
        <InlineCode>seats</InlineCode> and <InlineCode>seatsUsed</InlineCode> count the machines it may be and
        is activated on. <InlineCode>machine</InlineCode> is optional: sent, the answer's{" "}
        <InlineCode>activated</InlineCode> says whether that machine is activated, and the check counts as the
        machine's latest check-in (see <a href="#activations">Activations</a>).
      </p>
      <TableFrame aria-label="What a license check answers">
        <Table data-testid="license-statuses">
          <TableHeader>
            <TableHead>Status</TableHead>
            <TableHead>Valid</TableHead>
            <TableHead>Meaning</TableHead>
          </TableHeader>
          <TableBody>
            {licenseCheckStatuses.map((status) => (
              <TableRow key={status} className="align-top">
                <TableCell>
                  <InlineCode nowrap>{status}</InlineCode>
                </TableCell>
                <TableCell>{VALID_LICENSE_STATUSES.has(status) ? "Yes" : "No"}</TableCell>
                <TableCell className="text-muted-foreground">{licenseCheckStatusMeaning[status]}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableFrame>
    </>
  );
}

function Activations() {
  const origin = useOrigin();
  return (
    <>
      <p>
        A license key can be activated on as many machines at once as it has seats. Each key Stackbay issues
        has one seat: a buyer who needs three machines buys three units, or three seats of a per-seat plan,
        and gets three keys. Your software activates, checks and deactivates with the key alone, like the
        check: no API key, the same limit of {LICENSE_CHECKS_PER_MINUTE} calls a minute from one address.
      </p>
      <ul>
        <li>
          <InlineCode>POST /api/licenses/activate</InlineCode> with <InlineCode>key</InlineCode>,{" "}
          <InlineCode>machine</InlineCode> (an identifier your software chooses for the machine, 1 to{" "}
          {MAX_MACHINE_ID} characters, kept as sent) and optionally <InlineCode>label</InlineCode> (a name
          people recognise, up to {MAX_MACHINE_LABEL} characters).
        </li>
        <li>
          Activating a machine that is already activated takes no new seat: it only updates its label and
          check-in time. Your software can activate at every start.
        </li>
        <li>
          With every seat in use, a new machine is refused with {errorStatus.LICENSE_SEATS_FULL}{" "}
          <InlineCode>LICENSE_SEATS_FULL</InlineCode>, even when several activate at the same moment. A key
          that is not valid (see the statuses below) is refused with {errorStatus.LICENSE_NOT_VALID}{" "}
          <InlineCode>LICENSE_NOT_VALID</InlineCode>, and an unknown key with {errorStatus.LICENSE_NOT_FOUND}{" "}
          <InlineCode>LICENSE_NOT_FOUND</InlineCode>.
        </li>
        <li>
          <InlineCode>POST /api/licenses/deactivate</InlineCode> with <InlineCode>key</InlineCode> and{" "}
          <InlineCode>machine</InlineCode> frees the machine's seat, whatever state the key is in. The buyer
          can also deactivate a machine on their Licenses screen, and you with the seller API.
        </li>
        <li>
          A machine that neither activates nor checks in with its <InlineCode>machine</InlineCode> for{" "}
          {DEFAULT_LICENSE_ACTIVATION_STALE_DAYS} days is deactivated by a daily job, so a machine thrown away
          does not keep its seat for ever. Checking in once a day or at every start is enough.
        </li>
      </ul>
      <CodeBlock caption="Request">
        {`curl "${origin}/api/licenses/activate" \\\n  -H "Content-Type: application/json" \\\n  -d '{"key": "${exampleKey}", "machine": "a3f9c2e1-workstation-07", "label": "Front desk PC"}'`}
      </CodeBlock>
      <CodeBlock caption="Answer">{json(activationExample)}</CodeBlock>
    </>
  );
}

function OfflineLicenses() {
  const origin = useOrigin();
  return (
    <>
      <p>
        For software that runs where it cannot reach Stackbay, a buyer downloads a signed license file from
        their Licenses screen. It holds a <InlineCode>payload</InlineCode> (JSON text) and an Ed25519{" "}
        <InlineCode>signature</InlineCode> (base64) of the payload's exact bytes, made with the key named by{" "}
        <InlineCode>kid</InlineCode>. Verify the signature against the payload as it is in the file, before
        parsing it; anyone can read the file, nobody can change it without the signature failing.
      </p>
      <CodeBlock caption="stackbay-license-7KQ2-M9XH-4TRW-PBC3.json">{json(licenseFileExample)}</CodeBlock>
      <CodeBlock caption="The payload, parsed">{json(filePayloadExample)}</CodeBlock>
      <ul>
        <li>
          <InlineCode>expiresAt</InlineCode> is null for a perpetual license. For a subscription it is the end
          of the period paid for (or of the trial) plus the grace an unpaid renewal gets before the
          subscription ends; only the period's end when the subscription is cancelled for then. The buyer
          downloads a new file after each renewal.
        </li>
        <li>
          A revoked, suspended or ended license has no file. A file already downloaded stays valid until its{" "}
          <InlineCode>expiresAt</InlineCode>: check keys online when you can.
        </li>
        <li>
          The public keys are at <InlineCode>{LICENSE_KEYS_PATH}</InlineCode>, as a JSON Web Key set. Fetch it
          once and ship it with your software, or cache it.
        </li>
      </ul>
      <CodeBlock caption={`GET ${LICENSE_KEYS_PATH}`}>{json(keySetExample)}</CodeBlock>
      <CodeBlock caption="Verifying a license file in Node.js">
        {`import { createPublicKey, verify } from "node:crypto";
import { readFileSync } from "node:fs";

// Once, then ship or cache it: ${origin}${LICENSE_KEYS_PATH}
const { keys } = await (await fetch("${origin}${LICENSE_KEYS_PATH}")).json();

const file = JSON.parse(readFileSync("stackbay-license-${exampleKey}.json", "utf8"));
const jwk = keys.find((key) => key.kid === file.kid);
if (!jwk) throw new Error("Unknown signing key");
const publicKey = createPublicKey({ key: jwk, format: "jwk" });
const genuine = verify(null, Buffer.from(file.payload), publicKey, Buffer.from(file.signature, "base64"));
if (!genuine) throw new Error("This license file was changed");

const license = JSON.parse(file.payload);
if (license.expiresAt !== null && new Date(license.expiresAt) < new Date())
  throw new Error("This license file has expired");`}
      </CodeBlock>
    </>
  );
}

const GRACE_MINUTES = USAGE_GRACE_MS / 60_000;

function ReportingUsage() {
  return (
    <>
      <p>
        A metered plan charges its buyer a fixed fee each month and, at the end of the month, for the use you
        report: calls, minutes, gigabytes or other units, priced in graduated tiers. Set the fee to 0 to sell
        by use alone (pay as you go): buyers then pay nothing when they subscribe, only for their use, on the
        card they save. Your system reports use with a key that has the <InlineCode>usage:write</InlineCode>{" "}
        scope, as it happens or in batches of up to {MAX_USAGE_BATCH.toLocaleString("en-US")}.
      </p>
      <h3>Idempotency</h3>
      <p>
        Give every record an <InlineCode>idempotencyKey</InlineCode> of your own (up to 100 characters), the
        same each time you send that record: for instance your own row id, or the hour and the machine that
        counted it. A record sent again with a key you used before is answered{" "}
        <InlineCode>duplicate</InlineCode> with the first record's id and is not counted again, even when the
        two arrive at the same moment. So after a timeout or an error you did not see the end of, send the
        same records again without fear of billing twice.
      </p>
      <h3>Corrections</h3>
      <p>
        Records cannot be changed or deleted. To take back use you reported in error, report a record with a
        negative <InlineCode>quantity</InlineCode> and a <InlineCode>reason</InlineCode>; it counts in the
        period its <InlineCode>usedAt</InlineCode> falls in, and may not take that period below zero.
      </p>
      <h3>Periods and late records</h3>
      <ul>
        <li>
          A record counts in the subscription's period that contains its <InlineCode>usedAt</InlineCode>, not
          the one in which it arrives.
        </li>
        <li>
          Use of a period is taken for {GRACE_MINUTES} minutes after the period ends, so records still on
          their way count where they belong. Then the period is rated and invoiced, and later records for it
          are refused with <InlineCode>USAGE_TOO_LATE</InlineCode>.
        </li>
        <li>
          A <InlineCode>usedAt</InlineCode> more than {USAGE_CLOCK_SKEW_MS / 60_000} minutes ahead of our
          clock is refused as in the future.
        </li>
      </ul>
      <h3>Billing</h3>
      <p>
        At the end of each period the use is priced tier by tier (the first tier's units at its price, the
        next tier's at its own, and so on), rounded to the cent once, and added to the renewal that also
        charges the next month's fee. Tax is added as on any order, and the renewal is paid, retried and
        reminded like every renewal. A pay-as-you-go month without use comes to nothing: it is settled at
        once, without a charge, and the subscription runs on.
      </p>
      <h3>The buyer's spending cap</h3>
      <p>
        A buyer may cap what a period's use may cost. They are alerted at{" "}
        {CAP_ALERT_LEVELS.map((level) => `${level}%`).join(", ")} of it. Once the cap is reached, checks of
        the subscription's license keys answer <InlineCode>over_cap</InlineCode> (not valid) until the buyer
        raises or removes the cap or the next period starts: your service should stop or slow down. Use you
        report past the cap is still billed, so stop counting when you stop serving.
      </p>
    </>
  );
}

function AccessLog() {
  return (
    <>
      <p>
        Your dashboard's <ApiKeysLink /> view lists the calls made with your keys over the last{" "}
        {SELLER_API_LOG_DAYS} days: when each was made, with which key (its name and prefix), which operation,
        and the status it answered. It never keeps what a call asked for or what it answered.
      </p>
      <p>
        Use it to see which of your systems calls what, to find refused calls, and to notice a key in use that
        you did not expect.
      </p>
    </>
  );
}

function KeepingKeysSafe() {
  return (
    <ul>
      <li>
        A key is for your servers. Never put one in a web page, a browser extension or an app your customers
        download: anyone who holds it can read what its scopes open.
      </li>
      <li>Keep keys in a secret store or your servers' environment, not in source code or repositories.</li>
      <li>Give each system its own key, with only the scopes it needs.</li>
      <li>
        If a key may have leaked, roll its secret or revoke it on your dashboard at once, then look through
        the access log for calls you do not recognise.
      </li>
    </ul>
  );
}

/** The verification recipe a receiver copies: the same steps `seller-webhooks.test.ts` checks deliveries with. */
const VERIFY_RECIPE = `import { createHmac, timingSafeEqual } from "node:crypto";

// rawBody: the request's body exactly as received (a string, before JSON.parse).
// header: the ${WEBHOOK_SIGNATURE_HEADER} header. secret: your endpoint's whsec_… secret.
export function verifyStackbaySignature(rawBody, header, secret) {
  const parts = header.split(",").map((part) => part.trim().split("="));
  const timestamp = Number(parts.find(([key]) => key === "t")?.[1]);
  // Refuse a malformed header, and one older or newer than ${WEBHOOK_TOLERANCE_SECONDS / 60} minutes (a replay).
  if (!Number.isInteger(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > ${WEBHOOK_TOLERANCE_SECONDS}) return false;
  const expected = createHmac("sha256", secret).update(\`\${timestamp}.\${rawBody}\`).digest();
  // During a secret's rotation there is one v1= per secret: any match is enough.
  return parts
    .filter(([key]) => key === "v1")
    .some(([, value]) => {
      const given = Buffer.from(value ?? "", "hex");
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}`;

const RECEIVER_EXAMPLE = `import express from "express";

const app = express();
// The raw body: a signature is over the bytes sent, not over JSON parsed and written again.
app.post("/stackbay", express.raw({ type: "application/json" }), (req, res) => {
  const rawBody = req.body.toString("utf8");
  const header = req.get("${WEBHOOK_SIGNATURE_HEADER}") ?? "";
  if (!verifyStackbaySignature(rawBody, header, process.env.STACKBAY_WEBHOOK_SECRET)) {
    return res.sendStatus(400);
  }
  const event = JSON.parse(rawBody);
  // Answer at once; do slow work afterwards. Skip an event.id you have handled already.
  res.sendStatus(200);
});`;

/** The waits between attempts, in words: 1, 2, 4 … minutes, then every few hours. */
const retryWaits = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
  .map((attempt) => webhookRetryDelaySeconds(attempt) / 60)
  .filter((minutes, index, all) => all.indexOf(minutes) === index)
  .map((minutes) => (minutes < 60 ? `${minutes} min` : `${minutes / 60} h`));

function WebhooksLink() {
  return <Link to={paths.dashboard("webhooks")}>{dashboardViewTitles.webhooks}</Link>;
}

function Webhooks() {
  return (
    <>
      <p>
        Instead of asking for news, your systems can be told: register an endpoint (a URL of yours) on your
        dashboard under <WebhooksLink />, or with the webhook operations above, and choose its events.
        Stackbay then posts each of those events to it, usually within a minute. You can register up to{" "}
        {MAX_SELLER_WEBHOOK_ENDPOINTS} endpoints.
      </p>
      <h3>Events</h3>
      <TableFrame aria-label="Webhook events">
        <Table className="min-w-[32rem]" data-testid="webhook-events">
          <TableHeader>
            <TableHead>Event</TableHead>
            <TableHead>When</TableHead>
          </TableHeader>
          <TableBody>
            {sellerWebhookEvents.map((event) => (
              <TableRow key={event} className="align-top">
                <TableCell>
                  <InlineCode nowrap>{event}</InlineCode>
                </TableCell>
                <TableCell className="text-muted-foreground">{sellerWebhookEventInfo[event]}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableFrame>
      <p>
        Each event carries only your own items, as your dashboard shows them, and never a buyer's contact
        details. A test event sent from the dashboard or the API has the type <InlineCode>ping</InlineCode>.
      </p>
      <h3>What is posted</h3>
      <p>
        A <InlineCode>POST</InlineCode> with a JSON body: the event's <InlineCode>id</InlineCode>, its{" "}
        <InlineCode>type</InlineCode>, when it happened (<InlineCode>createdAt</InlineCode>) and its{" "}
        <InlineCode>data</InlineCode>. The headers <InlineCode>{WEBHOOK_SIGNATURE_HEADER}</InlineCode>,{" "}
        <InlineCode>Stackbay-Event-Id</InlineCode> and <InlineCode>Stackbay-Event-Type</InlineCode> come with
        it.
      </p>
      <CodeBlock caption="Body">{json(payloadExample)}</CodeBlock>
      <p>
        Answer with any 2xx status within {WEBHOOK_TIMEOUT_SECONDS} seconds. An event may arrive more than
        once (a retry, a replay, an answer lost on the way): every attempt carries the same{" "}
        <InlineCode>id</InlineCode>, so skip one you have handled. Events may arrive out of order; order them
        by <InlineCode>createdAt</InlineCode>.
      </p>
      <h3>Checking the signature</h3>
      <p>
        Every delivery is signed with your endpoint's secret (<InlineCode>whsec_…</InlineCode>, shown once
        when the endpoint is made or its secret rotated). The header holds the time of signing in Unix seconds
        and an HMAC-SHA256, in hex, of that time, a dot and the raw body, keyed with the whole secret:
      </p>
      <CodeBlock caption="Header">{`${WEBHOOK_SIGNATURE_HEADER}: t=1748959929,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd`}</CodeBlock>
      <p>
        Check it before you trust a delivery: compute the HMAC over the body exactly as received, compare in
        constant time, and refuse a timestamp more than {WEBHOOK_TOLERANCE_SECONDS / 60} minutes from your
        clock.
      </p>
      <CodeBlock caption="Verifying in Node.js">{VERIFY_RECIPE}</CodeBlock>
      <CodeBlock caption="A receiver with Express">{RECEIVER_EXAMPLE}</CodeBlock>
      <h3>Rotating the secret</h3>
      <p>
        Rotating makes a new secret, shown once. For {WEBHOOK_SECRET_OVERLAP_HOURS} hours the old secret signs
        too, so the header holds two <InlineCode>v1=</InlineCode> signatures and a receiver with either secret
        accepts the delivery: deploy the new secret within that time. After it, only the new secret signs.
      </p>
      <h3>Retries and turned-off endpoints</h3>
      <p>
        An attempt fails when the endpoint answers anything but 2xx, takes longer than{" "}
        {WEBHOOK_TIMEOUT_SECONDS} seconds, or cannot be reached. It is tried again after{" "}
        {retryWaits.join(", ")} and then every {webhookRetryDelaySeconds(99) / 3600} hours, for{" "}
        {WEBHOOK_RETRY_DAYS} days; then the delivery is marked failed. An endpoint whose deliveries have all
        failed for {WEBHOOK_RETRY_DAYS} days is turned off and you are e-mailed. Your dashboard's{" "}
        <WebhooksLink /> view shows each delivery with its payload, status, answer and attempts; turn the
        endpoint back on there and replay what it missed.
      </p>
      <h3>Which URLs</h3>
      <p>
        Endpoints must use <InlineCode>https://</InlineCode>, and their host must resolve only to public
        internet addresses: never a private network, loopback, link-local, carrier-grade NAT, multicast or
        unspecified address, in IPv4 or IPv6. Stackbay checks this when the endpoint is registered and again
        on every delivery, and connects to the address it checked. A URL it will not post to is refused with{" "}
        <InlineCode>WEBHOOK_URL_REFUSED</InlineCode> and the reason.
      </p>
    </>
  );
}

/** The OpenAPI document's tag of the seller API's operations. */
const OPENAPI_TAG = "seller-api";

function OpenApi() {
  return (
    <p>
      The <a href="/api/docs">OpenAPI document</a> describes every operation, its parameters and the full
      shape of each answer, and lists the seller API in a section of its own (
      <InlineCode>{OPENAPI_TAG}</InlineCode>). Tools that read OpenAPI can load it as JSON from{" "}
      <a href="/api/openapi.json">/api/openapi.json</a>.
    </p>
  );
}

const sections: DocumentSection[] = [
  { id: "authentication", title: "Authentication", body: <Authentication /> },
  { id: "scopes", title: "Scopes", body: <Scopes /> },
  { id: "operations", title: "Operations", body: <Operations /> },
  { id: "paging", title: "Paging", body: <Paging /> },
  { id: "errors", title: "Errors", body: <Errors /> },
  { id: "rate-limits", title: "Rate limits", body: <RateLimits /> },
  { id: "usage", title: "Reporting usage", body: <ReportingUsage /> },
  { id: "access-log", title: "Access log", body: <AccessLog /> },
  { id: "webhooks", title: "Webhooks", body: <Webhooks /> },
  { id: "license-checks", title: "Checking license keys", body: <LicenseChecks /> },
  { id: "activations", title: "Activations", body: <Activations /> },
  { id: "offline-licenses", title: "Offline licenses", body: <OfflineLicenses /> },
  { id: "keeping-keys-safe", title: "Keeping keys safe", body: <KeepingKeysSafe /> },
  { id: "openapi", title: "OpenAPI document", body: <OpenApi /> },
];

export function Component() {
  return (
    <DocumentLayout
      header={
        <PageHeader
          title="Seller API"
          subtitle="Read the orders you received and your products' subscriptions, report metered usage and manage your license keys, from your own systems with an API key."
        />
      }
      intro={
        <>
          <p>
            The Seller API lets your own software (an ERP, a warehouse system, a revenue report) read what
            Stackbay knows about your sales, and report the use of your metered plans. It answers JSON under{" "}
            <InlineCode>/api/seller/v1</InlineCode> on this site. It reads, except for reporting usage and the
            license operations, which suspend and reinstate a key or deactivate it on a machine.
          </p>
          <p>
            You need a seller account. Make a key on your dashboard under <ApiKeysLink />, choose what it may
            do, and send it with each call.
          </p>
        </>
      }
      sections={sections}
    />
  );
}
