import { ArrowRight } from "lucide-react";
import type { AuditAction, AuditEntityType, AuditEntry } from "#domain/audit";
import { formatDateTime } from "#domain/dates";
import { Badge } from "#web/components/ui/badge";
import { Card } from "#web/components/ui/card";

export const entityTypeLabels: Record<AuditEntityType, string> = {
  product: "Product",
  category: "Category",
  page: "Page",
  content_block: "Content block",
  user: "User",
  fx_rate: "Exchange rate",
  order: "Order",
  partner_application: "Partner application",
  refund: "Refund",
  commission: "Commission",
  job: "Background job",
  bank_transfer: "Bank transfer",
  payout: "Payout",
  payout_account: "Payout details",
  fee_rule: "Platform fee",
  tax_rate: "Tax rate",
  review: "Review",
  featured_products: "Featured Products",
  question: "Question",
  storefront: "Storefront",
  search_synonym: "Search synonym",
  subscription: "Subscription",
  payment_method: "Payment method",
  api_key: "API key",
  license: "License",
  webhook_endpoint: "Webhook endpoint",
};

export const actionLabels: Record<AuditAction, string> = {
  create: "Created",
  update: "Updated",
  delete: "Deleted",
  restore: "Restored",
};

/** Values longer than this are cut in the list; the whole value opens below. */
const SHORT = 60;

function Value({ value }: { value: unknown }) {
  const text = value === null || value === undefined ? "—" : JSON.stringify(value);
  if (text.length <= SHORT) return <code className="break-all">{text}</code>;
  return (
    <details className="inline-block max-w-full align-top">
      <summary className="cursor-pointer break-all">
        <code>{text.slice(0, SHORT)}…</code>
      </summary>
      <pre className="mt-1 max-h-64 overflow-auto rounded bg-muted p-2 text-xs whitespace-pre-wrap break-all">
        {JSON.stringify(value, null, 2)}
      </pre>
    </details>
  );
}

/** One audit entry: when, who, what happened to which record, and each changed field's before → after. */
export function AuditEntryCard({ entry }: { entry: AuditEntry }) {
  const type = entityTypeLabels[entry.entityType as AuditEntityType] ?? entry.entityType;
  const action = actionLabels[entry.action as AuditAction] ?? entry.action;
  const shortId = entry.entityId.length > 12 ? entry.entityId.slice(0, 8) : entry.entityId;
  const changes = Object.entries(entry.changes);
  return (
    <Card asChild className="p-4">
      <li data-testid="audit-entry">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
          <Badge variant={entry.action === "delete" ? "outline" : "secondary"}>{action}</Badge>
          <span className="font-semibold">
            {type}
            {entry.entityLabel && <span className="font-normal"> · {entry.entityLabel}</span>}
          </span>
          {entry.entityId !== entry.entityLabel && (
            <code className="text-xs text-muted-foreground" title={entry.entityId}>
              {shortId}
            </code>
          )}
        </div>
        <p className="mt-1 text-xs text-muted-foreground">
          <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time> by {entry.actorEmail}
        </p>
        {changes.length > 0 && (
          <dl className="mt-3 grid gap-1.5 text-xs sm:grid-cols-[minmax(8rem,auto)_1fr] sm:gap-x-4">
            {changes.map(([field, { before, after }]) => (
              <div key={field} className="contents">
                <dt className="font-mono font-medium">{field}</dt>
                <dd className="flex min-w-0 flex-wrap items-center gap-1.5 pb-1 sm:pb-0">
                  <Value value={before} />
                  <ArrowRight className="size-3 shrink-0 text-muted-foreground" aria-label="to" />
                  <Value value={after} />
                </dd>
              </div>
            ))}
          </dl>
        )}
      </li>
    </Card>
  );
}
