import { BookOpen, KeySquare } from "lucide-react";
import { type ReactNode, type RefObject, useId, useRef, useState } from "react";
import { Link } from "react-router";
import { hasRole, type Me } from "#domain/accounts";
import { formatDate, formatDateTime } from "#domain/dates";
import { paths } from "#domain/routes";
import { MAX_SELLER_API_KEYS, type SellerApiKey, sellerApiScopeInfo } from "#domain/seller-api";
import { ViewCard } from "#web/components/layout/view-card";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { LoadError } from "#web/components/ui/load-error";
import { ScrollTable, TableCell, TableRow } from "#web/components/ui/table";
import { useApiKeys } from "#web/features/seller-api/api/get-api-keys";
import { AccessLog } from "#web/features/seller-api/components/access-log";
import {
  CreateKeyDialog,
  RevokeKeyButton,
  RollKeyButton,
  useReturnFocus,
} from "#web/features/seller-api/components/key-dialogs";
import { cn } from "#web/lib/utils";

const TITLE = "API keys";
const columns = ["Key", "Scopes", "Created", "Last used", "Status", "Actions"];

/**
 * The dashboard's API keys view, for sellers: the keys their own systems call the seller API with, each
 * with the scopes it was given, and the access log of those calls. A secret is shown once, when a key is
 * made or rolled.
 */
export function ApiKeysView({ me }: { me: Me }) {
  const seller = hasRole(me.roles, "seller");
  return (
    <ViewCard
      title={TITLE}
      description="Keys let your own systems read your orders and subscriptions through the seller API, each key only what its scopes allow."
      action={
        seller && (
          <Button asChild variant="outline" size="sm">
            {/* The developer page's own builder in `paths` is still to come: the pattern has no params. */}
            <Link to={paths.developers()}>
              <BookOpen aria-hidden /> How to use the seller API
            </Link>
          </Button>
        )
      }
    >
      {seller ? (
        <div className="flex flex-col gap-10">
          <Keys />
          <AccessLog />
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">API keys are for sellers.</p>
      )}
    </ViewCard>
  );
}

function Keys() {
  const keys = useApiKeys();
  const heading = useRef<HTMLHeadingElement>(null);
  const [creating, setCreating] = useState(false);
  const focus = useReturnFocus(heading);
  if (keys.isPending) return <KeysSkeleton />;
  if (keys.isError) return <LoadError what="API keys" error={keys.error} onRetry={() => keys.refetch()} />;
  const { items } = keys.data;
  const create = (
    <Button
      onClick={() => {
        focus.remember();
        setCreating(true);
      }}
    >
      Create key
    </Button>
  );
  return (
    <>
      {items.length === 0 ? (
        <NoKeys headingRef={heading} create={create} />
      ) : (
        <KeyList items={items} headingRef={heading} create={create} />
      )}
      <CreateKeyDialog open={creating} onOpenChange={setCreating} onCloseAutoFocus={focus.onCloseAutoFocus} />
    </>
  );
}

function KeyList({
  items,
  headingRef,
  create,
}: {
  items: SellerApiKey[];
  headingRef: RefObject<HTMLHeadingElement | null>;
  create: ReactNode;
}) {
  const id = useId();
  const active = items.filter((key) => !key.revokedAt).length;
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h3 id={id} ref={headingRef} tabIndex={-1} className="text-lg font-semibold outline-none">
            Your keys
          </h3>
          <p className="mt-1 text-sm text-muted-foreground" data-testid="api-key-count">
            {`${active} of ${MAX_SELLER_API_KEYS} active keys. Revoked keys do not count.`}
          </p>
        </div>
        {create}
      </div>
      <ScrollTable label="API keys" columns={columns} minWidth="min-w-[48rem]" testId="api-key-table">
        {items.map((key) => (
          <KeyRow key={key.id} apiKey={key} headingRef={headingRef} />
        ))}
      </ScrollTable>
    </section>
  );
}

const On = ({ date }: { date: string }) => <time dateTime={date}>{formatDate(date)}</time>;

function KeyRow({
  apiKey,
  headingRef,
}: {
  apiKey: SellerApiKey;
  headingRef: RefObject<HTMLHeadingElement | null>;
}) {
  const revoked = apiKey.revokedAt !== null;
  return (
    <TableRow
      className={cn("[&>td]:align-top", revoked && "text-muted-foreground")}
      data-testid="api-key-row"
      data-state={revoked ? "revoked" : "active"}
    >
      <TableCell className="max-w-56 min-w-40 break-words">
        <span className="font-medium">{apiKey.name}</span>
        <code className="block font-mono text-xs text-muted-foreground">{apiKey.prefix}</code>
      </TableCell>
      <TableCell>
        <ul className="flex flex-wrap gap-1" aria-label={`Scopes of ${apiKey.name}`}>
          {apiKey.scopes.map((scope) => (
            <li key={scope}>
              <Badge variant="secondary" className="whitespace-nowrap">
                {sellerApiScopeInfo[scope].label}
              </Badge>
            </li>
          ))}
        </ul>
      </TableCell>
      <TableCell className="whitespace-nowrap">
        <On date={apiKey.createdAt} />
        {apiKey.rolledAt && (
          <span className="block text-xs text-muted-foreground">
            Secret rolled <On date={apiKey.rolledAt} />
          </span>
        )}
      </TableCell>
      <TableCell className="min-w-36">
        {apiKey.lastUsedAt ? (
          <time dateTime={apiKey.lastUsedAt}>{formatDateTime(apiKey.lastUsedAt)}</time>
        ) : (
          <span className="text-muted-foreground">Never</span>
        )}
      </TableCell>
      <TableCell data-testid="api-key-status">
        {apiKey.revokedAt ? (
          <span className="flex flex-col items-start gap-1">
            <Badge variant="outline">Revoked</Badge>
            <span className="text-xs whitespace-nowrap">
              {" on "}
              <On date={apiKey.revokedAt} />
            </span>
          </span>
        ) : (
          <Badge variant="success">Active</Badge>
        )}
      </TableCell>
      <TableCell>
        {revoked ? (
          <span className="text-muted-foreground">—</span>
        ) : (
          <div className="flex flex-wrap gap-2">
            <RollKeyButton apiKey={apiKey} />
            <RevokeKeyButton apiKey={apiKey} fallbackFocus={headingRef} />
          </div>
        )}
      </TableCell>
    </TableRow>
  );
}

function NoKeys({
  headingRef,
  create,
}: {
  headingRef: RefObject<HTMLHeadingElement | null>;
  create: ReactNode;
}) {
  return (
    <div
      className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-border px-4 py-12 text-center"
      data-testid="api-keys-empty"
    >
      <KeySquare className="size-10 text-muted-foreground" aria-hidden />
      <h3 ref={headingRef} tabIndex={-1} className="text-lg font-semibold outline-none">
        No API keys yet
      </h3>
      <p className="max-w-md text-sm text-muted-foreground">
        Create a key for each system that reads your orders or subscriptions: your warehouse, your accounting,
        your own dashboards. You choose what each key may read.
      </p>
      <div className="mt-2">{create}</div>
    </div>
  );
}

function KeysSkeleton() {
  return (
    <div role="status" aria-label="Loading API keys" className="flex flex-col gap-3">
      <div className="h-7 w-40 animate-pulse rounded bg-muted" aria-hidden />
      {[0, 1, 2].map((row) => (
        <div key={row} className="h-12 animate-pulse rounded bg-muted" aria-hidden />
      ))}
    </div>
  );
}
