import { type FormEvent, useEffect, useState } from "react";
import { type AuditAction, type AuditEntityType, auditActions, auditEntityTypes } from "#domain/audit";
import { PageHeader } from "#web/components/layout/page-header";
import { PagedList } from "#web/components/layout/paged-list";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { NativeSelect } from "#web/components/ui/select";
import { type AuditFilter, useAuditLog } from "#web/features/audit/api/get-audit-log";
import {
  AuditEntryCard,
  actionLabels,
  entityTypeLabels,
} from "#web/features/audit/components/audit-entry-card";
import { RequireRole } from "#web/features/auth/components/guards";
import { useSearchState } from "#web/lib/use-search-state";

const isEntityType = (value: string | null): value is AuditEntityType =>
  auditEntityTypes.includes(value as AuditEntityType);
const isAction = (value: string | null): value is AuditAction => auditActions.includes(value as AuditAction);

export function Component() {
  return (
    <RequireRole allow="superAdmin">
      <AuditScreen />
    </RequireRole>
  );
}

function AuditScreen() {
  const { params, page, go } = useSearchState();
  const rawType = params.get("entityType");
  const rawAction = params.get("action");
  const filter: AuditFilter = {
    entityType: isEntityType(rawType) ? rawType : undefined,
    action: isAction(rawAction) ? rawAction : undefined,
    actor: params.get("actor") ?? undefined,
    entityId: params.get("entityId") ?? undefined,
    page,
  };
  // The text filters apply on submit (Enter or Filter); the drafts follow the URL on back/forward.
  const [actor, setActor] = useState(filter.actor ?? "");
  const [entityId, setEntityId] = useState(filter.entityId ?? "");
  useEffect(() => setActor(filter.actor ?? ""), [filter.actor]);
  useEffect(() => setEntityId(filter.entityId ?? ""), [filter.entityId]);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    go({ actor: actor.trim(), entityId: entityId.trim(), page: undefined });
  };
  const filtered = Boolean(filter.entityType || filter.action || filter.actor || filter.entityId);

  return (
    <>
      <PageHeader
        title="Audit Log"
        subtitle="Every change made in the admin, seller and super-admin screens, newest first."
      />
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        <search className="mb-6">
          <Card
            asChild
            className="grid gap-3 p-4 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_1.4fr_1.2fr_auto] lg:items-end"
          >
            <form onSubmit={apply}>
              <FormField label="Entity type">
                <NativeSelect
                  value={filter.entityType ?? ""}
                  onChange={(e) => go({ entityType: e.target.value, page: undefined })}
                >
                  <option value="">All types</option>
                  {auditEntityTypes.map((type) => (
                    <option key={type} value={type}>
                      {entityTypeLabels[type]}
                    </option>
                  ))}
                </NativeSelect>
              </FormField>
              <FormField label="Action">
                <NativeSelect
                  value={filter.action ?? ""}
                  onChange={(e) => go({ action: e.target.value, page: undefined })}
                >
                  <option value="">All actions</option>
                  {auditActions.map((action) => (
                    <option key={action} value={action}>
                      {actionLabels[action]}
                    </option>
                  ))}
                </NativeSelect>
              </FormField>
              <FormField label="Actor e-mail">
                <Input
                  type="search"
                  placeholder="Part of an e-mail"
                  maxLength={200}
                  value={actor}
                  onChange={(e) => setActor(e.target.value)}
                />
              </FormField>
              <FormField label="Entity id">
                <Input
                  type="search"
                  placeholder="Id or its beginning"
                  maxLength={100}
                  value={entityId}
                  onChange={(e) => setEntityId(e.target.value)}
                />
              </FormField>
              <div className="flex gap-2 sm:col-span-2 lg:col-span-1">
                <Button type="submit">Filter</Button>
                {filtered && (
                  <Button
                    type="button"
                    variant="ghost"
                    onClick={() =>
                      go({
                        entityType: undefined,
                        action: undefined,
                        actor: undefined,
                        entityId: undefined,
                        page: undefined,
                      })
                    }
                  >
                    Clear
                  </Button>
                )}
              </div>
            </form>
          </Card>
        </search>
        <PagedList
          query={useAuditLog(filter)}
          what="audit entries"
          empty={filtered ? "No entries match these filters." : "Nothing has been changed yet."}
          onPage={(p) => go({ page: String(p) })}
        >
          {(items) => (
            <ol className="grid gap-3" aria-label="Audit entries">
              {items.map((entry) => (
                <AuditEntryCard key={entry.id} entry={entry} />
              ))}
            </ol>
          )}
        </PagedList>
      </div>
    </>
  );
}
